// The wasm categories of the perf report as the engine gives them: the linear memories of the
// instances it keeps (grown ones included: queries reuse them) and the size of the code it compiled.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { collectPerfReport } from '../../../../runtime/metrics/perf-report.js';
import { TransactionCounters } from '../../../../runtime/metrics/transaction-counters.js';
import { TestChain } from '../../../../runtime/testing/test-chain.js';
import { Probe, probeWasm } from '../../../lib/probe.js';
import { MODULE, call, withInstance } from '../wasm/fresh-state.js';
import { wat } from '../wasm/admission-helpers.js';

const WASM_PAGE = 65536;

test('a memory a query grew shows in wasmMemory while its instance is kept for the next query', async () => {
  const chain = TestChain.open();
  try {
    withInstance(chain.engine, chain.store, await wat(MODULE), (instance) => call(instance, 'grow'), true);
    assert.is(chain.engine.memoryFigures().wasmMemory, 2 * WASM_PAGE);
  } finally {
    await chain.close();
  }
});

test('a real module grown to the memory cap: its instance is not kept (its reset would zero 32 MiB), its compiled code shows in wasmCode', async () => {
  const chain = TestChain.open();
  try {
    const wasm = await probeWasm();
    chain.deploy('probe', wasm);
    assert.equal(chain.engine.memoryFigures(), { wasmMemory: 0, wasmCode: 0 }, 'nothing compiled yet');

    const r = chain.run({ sender: 'alice', service: 'probe', method: Probe.growMemory, rawData: '' });
    assert.is(r.error, undefined);
    const pages = new DataView(r.retval.buffer, r.retval.byteOffset).getUint32(0, true);
    assert.ok(pages > 1, `grew to ${pages} pages`);

    const figures = chain.engine.memoryFigures();
    assert.is(figures.wasmMemory, 0);
    // The metered binary: the module plus its meter, never smaller than what was deployed.
    assert.ok(figures.wasmCode >= wasm.length, `${figures.wasmCode} bytes of code for a ${wasm.length}-byte module`);

    const report = collectPerfReport({ transactions: new TransactionCounters(() => 0), network: () => ({ links: 0, blocksReceived: 0, blocksApplied: 0, blocksRefused: 0 }), databaseFiles: [], wasm: () => chain.engine.memoryFigures() });
    assert.is(report.memory.wasmMemory, '0');
    assert.is(report.memory.wasmCode, String(figures.wasmCode));
  } finally {
    await chain.close();
  }
});

test.run();
