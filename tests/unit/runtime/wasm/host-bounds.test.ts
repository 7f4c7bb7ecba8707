// docs/design.md decision 2 and docs/host-abi.md §10: a runaway loop, unbounded recursion or memory growth ends
// that execution with a clear error, the same on every run, and the node keeps working.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { Probe, concat, field, probeWasm, u32 } from '../../../lib/probe.js';

const test = suite<{ chain: TestChain }>('host bounds');

test.before(async (ctx) => {
  ctx.chain = TestChain.open();
  ctx.chain.deploy('probe', await probeWasm());
});
test.after(async (ctx) => ctx.chain.close());

const run = (chain: TestChain, method: bigint, fuel = 5_000_000n) =>
  chain.run({ sender: 'alice', service: 'probe', method, rawData: '' }, { budget: { fuel } });

test('an infinite loop ends with WASM_FUEL_EXHAUSTED, identically every time', ({ chain }) => {
  const first = run(chain, Probe.spin);
  const second = run(chain, Probe.spin);
  assert.is(first.errorCode, 'WASM_FUEL_EXHAUSTED');
  assert.match(first.error!, /fuel exhausted/);
  assert.is(second.error, first.error);
});

test('unbounded recursion ends with WASM_STACK_OVERFLOW from the meter, not the engine', ({ chain }) => {
  const first = run(chain, Probe.recurse, 1_000_000_000n);
  assert.is(first.errorCode, 'WASM_STACK_OVERFLOW');
  assert.is(run(chain, Probe.recurse, 1_000_000_000n).error, first.error);
});

test('memory cannot grow past 512 pages (32 MiB)', ({ chain }) => {
  const r = run(chain, Probe.growMemory, 1_000_000_000n);
  assert.is(r.error, undefined);
  assert.is(new DataView(r.retval.buffer, r.retval.byteOffset).getUint32(0, true), 512);
});

test('the node keeps working after each bound is hit', ({ chain }) => {
  run(chain, Probe.spin);
  run(chain, Probe.recurse);
  const r = chain.run({ sender: 'alice', service: 'probe', method: Probe.writeConsole, rawData: field('alive') });
  assert.is(r.console, 'alive');
});

test('fuel used is the same for a fresh and a reused (reset) instance', async () => {
  // A new chain has a new engine: its first run instantiates, the later ones reuse the instance.
  const chain = TestChain.open();
  try {
    chain.deploy('probe', await probeWasm());
    const action = { sender: 'alice', service: 'probe', method: Probe.countEntries, rawData: '' };
    const runs = [chain.run(action), chain.run(action), chain.run(action)];
    assert.ok(runs[0]!.fuelUsed > 0n);
    assert.equal(runs.map((r) => r.fuelUsed), [runs[0]!.fuelUsed, runs[0]!.fuelUsed, runs[0]!.fuelUsed]);
    assert.equal(runs.map((r) => new DataView(r.retval.buffer, r.retval.byteOffset).getUint32(0, true)), [1, 1, 1], 'globals reset');
  } finally {
    await chain.close();
  }
});

test('a reused instance starts from the fresh memory everywhere: start-up image, heap and the unused end', async () => {
  const chain = TestChain.open();
  try {
    chain.deploy('probe', await probeWasm());
    // One address in each 4 KiB of the first page, the first and last word among them.
    const addresses = [...Array.from({ length: 16 }, (_, i) => i * 4096 + 8 * i), 65532];
    const action = { sender: 'alice', service: 'probe', method: Probe.scribble, rawData: concat(u32(addresses.length), ...addresses.map(u32)) };
    const runs = [chain.run(action), chain.run(action), chain.run(action)];
    for (const r of runs) assert.is(r.error, undefined);
    const words = runs.map((r) => Array.from({ length: addresses.length }, (_, i) => new DataView(r.retval.buffer, r.retval.byteOffset).getUint32(4 * i, true)));
    assert.ok(words[0]!.every((w) => w !== 0xa5a5a5a5), 'the first run sees no marker');
    assert.equal(words[1], words[0], 'the second run sees the fresh memory');
    assert.equal(words[2], words[0], 'the third run sees the fresh memory');
  } finally {
    await chain.close();
  }
});

test('a module that admission refuses is not deployed', async ({ chain }) => {
  assert.throws(() => chain.deploy('bad', Uint8Array.of(0, 0x61, 0x73, 0x6d, 2, 0, 0, 0)), (err: Error & { code?: string }) => err.code === 'WASM_MALFORMED');
  const r = chain.run({ sender: 'alice', service: 'bad', method: 1n, rawData: '' });
  assert.is(r.errorCode, 'SERVICE_NOT_FOUND');
});

test.run();
