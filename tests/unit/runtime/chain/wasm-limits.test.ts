// The wasm config a booted chain carries (docs/p2p.md §3.4, docs/chain.md §4): its consensus's
// wasmConfig and the wasm config rows finishBoot writes are psibase's defaults, whatever the
// engine enforces (docs/host-abi.md §10), so that block ids match a psibase node's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { NativeTable, nativeTableKey } from '../../../../host-api/abi/keys.js';
import { bootTransactions, unpackBundle } from '../../../../host-api/index.js';
import { DEFAULT_WASM_CONFIG } from '../../../../host-api/abi/wasm-config.js';
import { WasmConfigRow } from '../../../../host-api/types/native.js';
import { Chain } from '../../../../runtime/chain/chain.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import { testBundle } from '../../../lib/test-bundle.js';

interface Context { dir: string; store: LmdbStore; chain: Chain }
const test = suite<Context>('wasm limits');

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

test("the status row's consensus carries psibase's default wasm config", ({ chain }) => {
  assert.equal(chain.status!.consensus.current.wasmConfig, DEFAULT_WASM_CONFIG);
});

test('the wasm config rows finishBoot wrote say the same', ({ chain, store }) => {
  const advertised = chain.status!.consensus.current.wasmConfig;
  for (const table of [NativeTable.transactionWasmConfig, NativeTable.proofWasmConfig]) {
    const row = WasmConfigRow.unpack(store.get(DbId.native, nativeTableKey(table).finish())!);
    assert.equal(row, advertised, `table ${table}`);
  }
});

test.run();
