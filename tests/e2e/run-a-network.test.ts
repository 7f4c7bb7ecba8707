// README "Run a network" run as written there, line by line, in a network namespace of their own
// (so the ports they name, 8080 and up and 443, are free whatever else runs here, and
// chain.example.com is this namespace's loopback): `tsibase testnet 3` reaches blocks irreversible
// two behind the head and lists p1, p2, p3 as its producers; a node that joins syncs and `tsibase
// info` shows its sync; a fourth producer joins and `tsibase producers set` adds it; a snapshot is
// signed, written from the stopped follower, loaded into a fresh node that joins and syncs only
// the blocks after it; Ctrl-C stops the testnet's nodes; a secure chain booted with keys moves to
// TLS and a second producer joins it over https with a block key of its own. Lines marked
// `# terminal …` keep running, as in a terminal of their own; a `producers` line's comment is what
// it prints once the chain is there. Two things differ from a reader's run: the snapshot interval
// (seconds, not an hour) and the certificate, which the test makes and its commands trust
// (NODE_EXTRA_CA_CERTS) as a reader's machines trust a real one. The Grafana dashboard in docs/
// asks only for metrics a node serves.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LoopbackNamespace, type Started } from '../lib/loopback-namespace.js';
import { makeSelfSignedCertificate } from '../lib/tls-certificate.js';

const ROOT = process.cwd();
const RUN_PARTS = ['A local testnet', 'A node that follows', 'Adding a producer', 'Snapshots', 'A secure network on several machines'];
/** The secure network's name, which its machine A answers for. */
const NETWORK_HOST = 'chain.example.com';
/** The subdomains of it the commands reach (a reader's DNS has `*.chain.example.com`; a hosts file has no wildcards). */
const SERVICE_HOSTS = ((JSON.parse(readFileSync(join(ROOT, 'services-wasm', 'bundle.json'), 'utf8')) as { services: { account: string }[] }).services)
  .map(({ account }) => `${account}.${NETWORK_HOST}`);
/** The snapshot interval the test pushes instead of the README's hour. */
const SNAP_SECONDS = 3;
/** Generous: the machine running the tests is shared. */
const WAIT_MS = 120_000;

interface Line { readonly command: string; readonly comment: string }
interface Ctx { dir: string; ns: LoopbackNamespace; terminals: Started[]; env: NodeJS.ProcessEnv }
const test = suite<Ctx>('README: run a network');

/** The text of one `###` part of README's "Run a network". */
function readmePart(part: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## Run a network\n')[1]!.split('\n## ')[0]!;
  const body = section.split(`\n### ${part}\n`)[1]?.split('\n### ')[0];
  assert.ok(body, `README "Run a network" has a part "${part}"`);
  return body!;
}

/** The `sh` lines of one `###` part of README's "Run a network". */
function readmeLines(part: string): Line[] {
  const blocks = [...readmePart(part).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
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
    const started = ctx.ns.start(command, ctx.dir, ctx.env);
    ctx.terminals.push(started);
    const ready = READY.find(([kind]) => kind.test(command))![1];
    await until(`'${command}' is ready:\n${started.output()}`, () => {
      if (started.process.exitCode !== null) throw new Error(`'${command}' exited:\n${started.output()}`);
      return ready.test(started.output());
    });
    return started.output();
  }
  if (/ producers( -a \S+)?$/.test(command)) {
    // Prints the comment once the change the lines before made is in force.
    let last = '';
    await until(`'${command}' prints ${comment} (last:\n${last})`, async () => {
      const r = await ctx.ns.run(command, ctx.dir, ctx.env);
      last = r.stdout + r.stderr;
      return r.status === 0 && r.stdout.trim().split('\n').join(', ') === comment;
    });
    return last;
  }
  const r = await ctx.ns.run(command, ctx.dir, ctx.env);
  assert.is(r.status, 0, `'${command}':\n${r.stdout}${r.stderr}`);
  return r.stdout + r.stderr;
}

/** Ctrl-C in a terminal: the command stops and exits 0. */
async function interrupt(terminal: Started): Promise<void> {
  terminal.process.kill('SIGINT');
  assert.is(await terminal.exited, 0, terminal.output());
}

/** A query of the explorer service of the node at `port`, with curl as a reader would send it. */
async function explorer(ctx: Ctx, port: number, query: string): Promise<unknown> {
  const r = await ctx.ns.run(`curl -s -X POST -H 'Content-Type: application/graphql' --data '${query}' http://explorer.tsibase.localhost:${port}/graphql`, ctx.dir);
  assert.is(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { data: unknown }).data;
}

test.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-readme-'));
  // `node bin/tsibase.js` and `build/default.bundle` as the README writes them, from a directory of the test's own.
  symlinkSync(join(ROOT, 'bin'), join(ctx.dir, 'bin'));
  symlinkSync(join(ROOT, 'build'), join(ctx.dir, 'build'));
  ctx.ns = LoopbackNamespace.create('readme', [NETWORK_HOST, ...SERVICE_HOSTS]);
  ctx.terminals = [];
  ctx.env = {};
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

test('snapshots: one is signed, the stopped follower writes it, a fresh node loads it and syncs the blocks after it', async (ctx) => {
  const [schedule, create, load, fresh] = readmeLines(RUN_PARTS[3]!);
  assert.match(schedule!.command, '"seconds":3600');
  await runLine(ctx, { ...schedule!, command: schedule!.command.replace('"seconds":3600', `"seconds":${SNAP_SECONDS}`) });
  // The follower (terminal 2) keeps the scheduled states and the producers' signatures of them:
  // stopped once one is signed, it writes that one; until then it runs on.
  const followerLine = readmeLines(RUN_PARTS[1]!)[0]!;
  let written = '';
  await until('the stopped follower writes a signed snapshot', async () => {
    await delay(SNAP_SECONDS * 2000);
    await interrupt(ctx.terminals[1]!);
    const r = await ctx.ns.run(create!.command, ctx.dir, ctx.env);
    if (r.status === 0) {
      written = r.stderr;
      return true;
    }
    assert.match(r.stderr, 'no verified snapshot available', r.stderr);
    ctx.terminals.splice(1, 1);
    await runLine(ctx, followerLine);
    ctx.terminals.splice(1, 0, ctx.terminals.pop()!);
    return false;
  });
  const blockNum = Number(/snapshot of block (\d+) /.exec(written)![1]);
  assert.match(await runLine(ctx, load!), `snapshot of block ${blockNum} `);
  await runLine(ctx, fresh!);
  await until('the fresh node syncs past the snapshot', async () => {
    const head = await explorer(ctx, 8095, '{ headBlock { header { blockNum } } }') as { headBlock: { header: { blockNum: number } } | null };
    return (head.headBlock?.header.blockNum ?? 0) > blockNum + 2;
  });
  // It has the blocks after the snapshot only.
  assert.equal(await explorer(ctx, 8095, `{ before: block(num: ${blockNum - 1}) { id } after: block(num: ${blockNum + 1}) { header { blockNum } } }`),
    { before: null, after: { header: { blockNum: blockNum + 1 } } });
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

test('a secure network: booted with keys, moved to TLS, a second producer joins over https with its own block key', async (ctx) => {
  const lines = readmeLines(RUN_PARTS[4]!);
  assert.is(lines.length, 7);
  const [keys, boot, restart, joinB, askKey, set, list] = lines as [Line, Line, Line, Line, Line, Line, Line];
  // Machine A's certificate for the network's name, trusted by every command as a real one is.
  mkdirSync(join(ctx.dir, 'a'));
  const tls = makeSelfSignedCertificate(join(ctx.dir, 'a'), 'a', NETWORK_HOST, { certificate: 'cert.pem', key: 'key.pem' });
  ctx.env = { NODE_EXTRA_CA_CERTS: tls.certificate };
  await runLine(ctx, keys);
  await runLine(ctx, boot);
  await interrupt(ctx.terminals.at(-1)!);
  // a/config.json as the README's text says, from the members it writes out.
  const members = [...readmePart(RUN_PARTS[4]!).matchAll(/`("(?:listen|tls|hosts)": [^`]+)`/g)].map((m) => JSON.parse(`{${m[1]!.replace(/\s+/g, ' ')}}`) as object);
  assert.is(members.length, 3);
  const configFile = join(ctx.dir, 'a', 'config.json');
  writeFileSync(configFile, JSON.stringify(Object.assign(JSON.parse(readFileSync(configFile, 'utf8')) as object, ...members), null, 2));
  assert.match(await runLine(ctx, restart), `https://${NETWORK_HOST}`);
  assert.match(await runLine(ctx, joinB), `joining the network of https://${NETWORK_HOST}`);
  const { rawData } = JSON.parse(await runLine(ctx, askKey)) as { rawData: string };
  assert.match(rawData, /^[0-9a-f]+$/i);
  assert.match(await runLine(ctx, { ...set, command: set.command.replace("<p2's rawData>", rawData) }), /producers set to p1, p2 in transaction/);
  await runLine(ctx, list);
  // Both sign their blocks now: the joined node keeps taking the network's blocks, none refused.
  const b = ctx.terminals.at(-1)!;
  const head = async () => ((await explorer(ctx, 8080, '{ headBlock { header { blockNum } } }')) as { headBlock: { header: { blockNum: number } } }).headBlock.header.blockNum;
  const now = await head();
  await until('the joined producer takes signed blocks', async () => (await head()) > now + 3);
  assert.not.match(b.output(), /refus/i);
});

test.run();
