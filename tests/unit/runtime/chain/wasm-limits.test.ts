// One source for the wasm limits (docs/host-abi.md §10): what a booted chain advertises — its
// consensus's wasmConfig and the wasm config rows finishBoot writes — is what the engine enforces.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { NativeTable, nativeTableKey } from '../../../../host-api/abi/keys.js';
import { bootTransactions, unpackBundle } from '../../../../host-api/index.js';
import { WasmConfigRow, type WasmConfigRow as WasmConfigValue } from '../../../../host-api/types/native.js';
import { Chain } from '../../../../runtime/chain/chain.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { DEFAULT_ADMISSION_OPTIONS, ExecutionMeter } from '../../../../runtime/wasm/admission/index.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import { testBundle } from '../../../lib/test-bundle.js';

interface Context { dir: string; store: LmdbStore; chain: Chain }
const test = suite<Context>('wasm limits');

/** The limits as the engine applies them: admission's defaults and a context's stack budget. */
function enforced(): WasmConfigValue['vmOptions'] {
  return {
    maxMutableGlobalBytes: DEFAULT_ADMISSION_OPTIONS.maxMutableGlobalBytes,
    maxPages: DEFAULT_ADMISSION_OPTIONS.maxMemoryPages,
    maxTableElements: DEFAULT_ADMISSION_OPTIONS.maxTableElements,
    maxStackBytes: new ExecutionMeter({ fuel: 1n }).budget.stackBytes,
  };
}

test.before(async (ctx) => {
  const bundle = unpackBundle(await testBundle());
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-wasm-limits-'));
  ctx.store = LmdbStore.open(ctx.dir);
  ctx.chain = new Chain(ctx.store, new Engine(), { producer: 'prod', blockIntervalMs: 100 });
  const boot = bootTransactions(bundle, { producer: 'prod' });
  assert.is(ctx.chain.boot(boot.pushBoot).error, null, 'push_boot');
  for (const t of boot.later) assert.is((await ctx.chain.push(t, 'applied')).error, null, 'boot transaction');
});

test.after(async (ctx) => {
  ctx.chain.stop();
  await ctx.store.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

test("the status row's consensus advertises the limits the engine enforces", ({ chain }) => {
  assert.equal(chain.status!.consensus.current.wasmConfig.vmOptions, enforced());
});

test('the wasm config rows finishBoot wrote say the same', ({ chain, store }) => {
  const advertised = chain.status!.consensus.current.wasmConfig;
  for (const table of [NativeTable.transactionWasmConfig, NativeTable.proofWasmConfig]) {
    const row = WasmConfigRow.unpack(store.get(DbId.native, nativeTableKey(table).finish())!);
    assert.equal(row.vmOptions, enforced(), `table ${table}`);
    assert.equal(row, advertised, `table ${table}`);
  }
});

test.run();
