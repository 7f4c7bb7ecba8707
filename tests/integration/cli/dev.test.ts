// `tsibase dev` as a service author runs it: a development chain booted from build/default.bundle
// into --data, kept across starts, started over with --reset, and a log line when it stops.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainClient } from '../../../runtime/cli/chain-client.js';
import { httpRequest, serviceUrl } from '../../../runtime/cli/client.js';
import { startDev } from '../../lib/dev-process.js';

interface Ctx { dir: string; data: string }
const test = suite<Ctx>('tsibase dev');

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
