// The kept snapshot states (docs/p2p.md §7.2): the two newest stay on disk, and so does the newest
// signed one while none of those two is signed, so that the node always has a snapshot to send.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { KeptStates } from '../../../../runtime/snapshot/kept-states.js';

interface Context { dir: string; store: LmdbStore; kept: KeptStates }
const test = suite<Context>('kept snapshot states');

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'tsibase-kept-states-'));
  ctx.store = LmdbStore.open(join(ctx.dir, 'db'));
  ctx.kept = KeptStates.of(ctx.dir);
});

test.after.each(async (ctx) => {
  await ctx.store.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** A block id whose first bytes are its number, as real ids are. */
const idOf = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 3 ? n : 0));
/** Keeps the state of block `n` while the states of `signed` have their signatures. */
const keep = ({ kept, store }: Context, n: number, signed: number[]) => kept.keep(n, idOf(n), store, (id) => signed.includes(id[3]!));
const keptBlocks = ({ kept }: Context) => kept.list().map((s) => s.blockNum);

test('the two newest states stay; older ones go once a newer one is signed', (ctx) => {
  keep(ctx, 1, [1]);
  keep(ctx, 2, [1, 2]);
  keep(ctx, 3, [1, 2]);
  assert.equal(keptBlocks(ctx), [2, 3], 'block 2 is signed: block 1 goes');
});

test('the newest signed state stays while the newer ones wait for their signatures', (ctx) => {
  keep(ctx, 1, [1]);
  keep(ctx, 2, [1]);
  keep(ctx, 3, [1]);
  keep(ctx, 4, [1]);
  assert.equal(keptBlocks(ctx), [1, 3, 4], 'block 1 stays: it is the only signed state');
  keep(ctx, 5, [1, 3]);
  assert.equal(keptBlocks(ctx), [3, 4, 5], 'block 3 is signed now: it stays, block 1 goes');
  keep(ctx, 6, [1, 3, 5]);
  assert.equal(keptBlocks(ctx), [5, 6], 'block 5, among the two newest, is signed');
});

test('a state written as loaded is the newest and signed: the older ones go', (ctx) => {
  keep(ctx, 1, [1]);
  keep(ctx, 2, []);
  ctx.kept.write(3, idOf(3), new Uint8Array(0));
  assert.equal(keptBlocks(ctx), [2, 3]);
});

test.run();
