// README "Run a network", its first three parts run as written there, line by line, in a network
// namespace of their own (so the ports they name, 8080 and up, are free whatever else runs here):
// `tsibase testnet 3` reaches blocks irreversible two behind the head and lists p1, p2, p3 as
// its producers; a node that joins syncs and `tsibase info` shows its sync; a fourth producer
// joins and `tsibase producers set` adds it; Ctrl-C stops the testnet's nodes. Lines marked
// `# terminal …` keep running, as in a terminal of their own; a `producers` line's comment is what
// it prints once the chain is there. The Grafana dashboard in docs/ asks only for metrics a node
// serves.
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LoopbackNamespace, type Started } from '../lib/loopback-namespace.js';

const ROOT = process.cwd();
const RUN_PARTS = ['A local testnet', 'A node that follows', 'Adding a producer'];
/** Generous: the machine running the tests is shared. */
const WAIT_MS = 120_000;

interface Line { readonly command: string; readonly comment: string }
interface Ctx { dir: string; ns: LoopbackNamespace; terminals: Started[] }
const test = suite<Ctx>('README: run a network');

/** The `sh` lines of one `###` part of README's "Run a network". */
function readmeLines(part: string): Line[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## Run a network\n')[1]!.split('\n## ')[0]!;
  const body = section.split(`\n### ${part}\n`)[1]?.split('\n### ')[0];
  assert.ok(body, `README "Run a network" has a part "${part}"`);
  const blocks = [...body!.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks.join('').split('\n').filter((l) => l.trim()).map((l) => {
    const m = /^(.*?)\s+#\s(.*)$/.exec(l);
    return m ? { command: m[1]!, comment: m[2]! } : { command: l, comment: '' };
  });
}

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await delay(250);
  }
}

/** What a terminal's command prints once it runs: the testnet its table, a node its listener. */
const READY = [[/ testnet /, /Ctrl-C stops every node/], [/ node /, /listening on http/]] as const;

/** Runs one README line as written; a `terminal` line is left running once it says it is ready. Returns the output. */
async function runLine(ctx: Ctx, { command, comment }: Line): Promise<string> {
  if (comment.startsWith('terminal')) {
    const started = ctx.ns.start(command, ctx.dir);
    ctx.terminals.push(started);
    const ready = READY.find(([kind]) => kind.test(command))![1];
    await until(`'${command}' is ready:\n${started.output()}`, () => {
      if (started.process.exitCode !== null) throw new Error(`'${command}' exited:\n${started.output()}`);
      return ready.test(started.output());
    });
    return started.output();
  }
  if (/ producers$/.test(command)) {
    // Prints the comment once the change the lines before made is in force.
    let last = '';
    await until(`'${command}' prints ${comment} (last:\n${last})`, async () => {
      const r = await ctx.ns.run(command, ctx.dir);
      last = r.stdout + r.stderr;
      return r.status === 0 && r.stdout.trim().split('\n').join(', ') === comment;
    });
    return last;
  }
  const r = await ctx.ns.run(command, ctx.dir);
  assert.is(r.status, 0, `'${command}':\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

test.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-readme-'));
  // `node bin/tsibase.js` as the README writes it, from a directory of the test's own.
  symlinkSync(join(ROOT, 'bin'), join(ctx.dir, 'bin'));
  ctx.ns = LoopbackNamespace.create('readme');
  ctx.terminals = [];
});

test.after(async (ctx) => {
  for (const t of ctx.terminals) if (t.process.exitCode === null) t.process.kill('SIGTERM');
  await Promise.all(ctx.terminals.map((t) => t.exited));
  ctx.ns?.delete();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('a local testnet: three producers, irreversible two behind the head', async (ctx) => {
  const [testnet, ...rest] = readmeLines(RUN_PARTS[0]!);
  const table = await runLine(ctx, testnet!);
  assert.match(table, /3 nodes up in [\d.]+ s, producers p1, p2, p3 \(CFT\), blocks irreversible 2 behind the head/);
  for (const [i, port] of [8080, 8081, 8082].entries()) assert.match(table, new RegExp(`p${i + 1} +http://tsibase\\.localhost:${port}/ +http://x-admin\\.tsibase\\.localhost:${port}/`));
  const outputs = [];
  for (const line of rest) outputs.push(await runLine(ctx, line));
  const info = outputs.find((o) => o.includes('head block:'));
  assert.ok(info, 'info ran');
  assert.match(info!, 'node:        http://tsibase.localhost:8081');
  assert.match(info!, /sync: +synced: at block \d+/);
});

test('a node that follows: joins, syncs, and info shows its sync', async (ctx) => {
  const [follower, info] = readmeLines(RUN_PARTS[1]!);
  assert.match(await runLine(ctx, follower!), 'joining the network of http://tsibase.localhost:8080');
  const shown = await runLine(ctx, info!);
  assert.match(shown, /sync: +(syncing: at block \d+, \d+ blocks behind the peers|synced: at block \d+, the head of the peers)/);
});

test('adding a producer: p4 joins, producers set adds it, and it is in force', async (ctx) => {
  const lines = readmeLines(RUN_PARTS[2]!);
  const outputs = [];
  for (const line of lines) outputs.push(await runLine(ctx, line));
  assert.match(outputs[0]!, 'it produces as p4 once the network\'s producers include it');
  assert.match(outputs[1]!, /producers set to p1, p2, p3, p4 in transaction [0-9A-F]{64}/);
  // (The last line waited until p1, p2, p3, p4 were in force.)
});

test('the Grafana dashboard asks for metrics a node serves', async (ctx) => {
  const dashboard = JSON.parse(readFileSync(join(ROOT, 'docs', 'grafana-dashboard.json'), 'utf8')) as { panels: { targets: { expr: string }[] }[] };
  const metrics = await ctx.ns.run(`node -e "fetch('http://127.0.0.1:8080/native/admin/metrics').then((r) => r.text()).then(console.log)"`, ctx.dir);
  const names = new Set([...metrics.stdout.matchAll(/^(tsibase_\w+)[{ ]/gm)].map((m) => m[1]!));
  const asked = new Set(dashboard.panels.flatMap((p) => p.targets.flatMap((t) => [...t.expr.matchAll(/tsibase_\w+/g)].map((m) => m[0]))));
  assert.ok(asked.size >= 10, `${asked.size} metrics on the dashboard`);
  for (const name of asked) assert.ok(names.has(name), `${name} is a metric the node serves`);
});

test('Ctrl-C stops the testnet and every node it started', async (ctx) => {
  const testnet = ctx.terminals[0]!;
  testnet.process.kill('SIGINT');
  assert.is(await testnet.exited, 0);
  assert.match(testnet.output(), 'tsibase testnet: stopping every node');
  // Its nodes are gone: their ports are free again (the joined nodes still run, on theirs).
  const probe = await ctx.ns.run(`node -e "require('net').connect(8080, '127.0.0.1').on('connect', () => process.exit(1)).on('error', () => process.exit(0))"`, ctx.dir);
  assert.is(probe.status, 0, 'nothing listens on 8080');
});

test.run();
