// The node's bundle (docs/design.md, decision 11): which module bin/tsibase.js runs, and a node
// run from the bundle itself answering as one run from the modules.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { CLI_BUNDLE, CLI_MODULE, UNBUNDLED_ENV, cliModule } from '../../../runtime/cli/cli-module.js';
import { SUPERVISED_ENV } from '../../../runtime/cli/supervisor.js';
import { startNode } from '../../lib/node-process.js';

const test = suite('the node bundle');
const DEFAULT_BUNDLE = join(process.cwd(), 'build', 'default.bundle');

test.before(() => {
  execFileSync(process.execPath, [join(process.cwd(), 'scripts', 'build-node-bundle.js')]);
});

test('a node process runs the bundle while it is newer than tsc build; other processes, an older bundle or TSIBASE_UNBUNDLED run the modules', () => {
  const node = { [SUPERVISED_ENV]: '1' };
  assert.is(cliModule(node).href, CLI_BUNDLE.href);
  assert.is(cliModule({}).href, CLI_MODULE.href, 'the supervisor and the client commands');
  assert.is(cliModule({ ...node, [UNBUNDLED_ENV]: '1' }).href, CLI_MODULE.href);
  const main = fileURLToPath(CLI_MODULE);
  const { atime, mtime } = statSync(main);
  try {
    utimesSync(main, atime, new Date(statSync(CLI_BUNDLE).mtimeMs + 1000));
    assert.is(cliModule(node).href, CLI_MODULE.href, 'a bundle of an older build');
  } finally {
    utimesSync(main, atime, mtime);
  }
});

/** `tsibase node` run from the bundle file itself, as the supervised process; its API and a stop. */
function startFromBundle(dir: string): Promise<{ api: string; stop(): Promise<void> }> {
  const run = `const { main } = await import(${JSON.stringify(CLI_BUNDLE.href)}); process.exitCode = await main(process.argv.slice(1));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', run, 'node', dir, '-l', '127.0.0.1:0', '-p', 'prod', '--boot', DEFAULT_BUNDLE], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, [SUPERVISED_ENV]: '1' },
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (m) resolve({ api: m[1]!, stop: () => new Promise((done) => { child.once('exit', () => done()); child.kill('SIGTERM'); }) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the bundled node exited (${code}):\n${output}`)));
  });
}

/** What a booted chain answers whatever its start time: an account by GraphQL, a service's page, a transaction's refusal. */
async function answers(api: string): Promise<unknown[]> {
  const client = new ChainClient(api);
  const account = await client.graphql('accounts', '{ getAccount(account: "example") { authService } }');
  const templates = await httpRequest(serviceUrl(api, 'example', '/action_templates'));
  const refused = await httpRequest(serviceUrl(api, 'transact', '/push_transaction'), { method: 'POST', body: Uint8Array.of(1), headers: { 'content-type': 'application/octet-stream' } });
  return [account, templates.status, templates.text(), refused.status, refused.text()];
}

test('a node run from the bundle boots the default bundle and answers as one run from the modules', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-node-bundle-'));
  try {
    const bundled = await startFromBundle(join(dir, 'bundled'));
    const fromBundle = await answers(bundled.api).finally(() => bundled.stop());
    const modules = await startNode(join(dir, 'modules'), ['-p', 'prod', '--boot', DEFAULT_BUNDLE], { [UNBUNDLED_ENV]: '1' });
    const fromModules = await answers(modules.api).finally(() => modules.stop());
    assert.equal(fromBundle, fromModules);
    assert.is(fromBundle[1], 200);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the bundle source map names the .ts files (stack traces under --enable-source-maps)', () => {
  const map = JSON.parse(readFileSync(`${fileURLToPath(CLI_BUNDLE)}.map`, 'utf8')) as { sources: string[] };
  assert.ok(map.sources.includes('../../../runtime/node/tsibase-node.ts'));
  assert.ok(map.sources.filter((s) => !s.includes('node_modules')).every((s) => s.endsWith('.ts')));
});

test.run();
