// `tsibase dev` as a service author runs it: a development chain booted from build/default.bundle
// into --data, kept across starts, started over with --reset, and a log line when it stops.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { BIN } from '../../lib/node-process.js';

interface Dev { api: string; output(): string; stop(): Promise<string> }
interface Ctx { dir: string; data: string }
const test = suite<Ctx>('tsibase dev');

/** Starts `tsibase dev <args>` on a free port; resolves once it has printed the pages to open (x-admin's last). */
function startDev(args: string[]): Promise<Dev> {
  const child = spawn(process.execPath, [BIN, 'dev', '-l', '127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /^ {2}http:\/\/tsibase\.localhost:(\d+)\/ +the chain's homepage$/m.exec(output);
      if (m && /the node's admin app$/m.test(output)) resolve({
        api: `http://tsibase.localhost:${m[1]}`,
        output: () => output,
        stop: () => new Promise((done) => {
          child.once('exit', () => done(output));
          child.kill('SIGTERM');
        }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`tsibase dev exited (${code}):\n${output}`)));
  });
}

test.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-dev-'));
  ctx.data = join(ctx.dir, 'chain');
});

test.after((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('boots the default bundle into --data, reporting each boot step, and says it is a development chain', async (ctx) => {
  const dev = await startDev(['--data', ctx.data]);
  try {
    assert.match(dev.output(), 'a development chain');
    assert.match(dev.output(), /boot: 3 of (\d+) transactions applied[\s\S]*boot: (\d+) of \2 transactions applied/);
    assert.match(dev.output(), `http://example.tsibase.localhost:${new URL(dev.api).port}/`);
    const example = await httpRequest(serviceUrl(dev.api, 'example', '/action_templates'));
    assert.is(example.status, 200);
    assert.ok(existsSync(join(ctx.data, 'config.json')));
  } finally {
    assert.match(await dev.stop(), 'shutting down');
  }
});

test('a second start keeps the chain; --reset boots a new one', async (ctx) => {
  const again = await startDev(['--data', ctx.data]);
  const before = await new ChainClient(again.api).getJson('/common/chainid');
  await again.stop();
  assert.not.match(again.output(), 'boot: ');

  const reset = await startDev(['--data', ctx.data, '--reset']);
  try {
    assert.match(reset.output(), 'boot: 3 of');
    const after = await new ChainClient(reset.api).getJson('/common/chainid');
    assert.is.not(after, before, 'a new chain has a new id');
  } finally {
    await reset.stop();
  }
});

test.run();
