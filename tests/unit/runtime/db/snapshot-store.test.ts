// The query threads' store (docs/serving.md §10) on a real LMDB directory: a SnapshotStore fed
// an LmdbStore's changes reads what the LmdbStore reads (committed rows, uncommitted writes,
// rollbacks, commits), refuses a snapshot past the changes it was told, and hands off whatever
// would write or read the session database.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { SnapshotStore } from '../../../../runtime/db/snapshot-store.js';
import type { SharedReads } from '../../../../runtime/db/shared-reads.js';
import type { Store } from '../../../../runtime/db/store.js';
import { bytes, entryHex, hex, makeTempDir, randomKey, randomValue, removeDir, seededRandom } from './helpers.js';

const SERVICE = DbId.service;

function opened(): { dir: string; store: LmdbStore; reads: SharedReads; reader: SnapshotStore } {
  const dir = makeTempDir();
  const store = LmdbStore.open(dir, { durable: false });
  const reads = store.sharedReads!();
  const reader = SnapshotStore.open(reads.location);
  reader.apply(reads.everything());
  return { dir, store, reads, reader };
}

function handOffOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

test('the reader sees committed rows and uncommitted writes, rollbacks and commits as they come', async () => {
  const { dir, store, reads, reader } = opened();
  try {
    store.put(SERVICE, bytes(1), bytes(10));
    store.commit();
    store.put(SERVICE, bytes(2), bytes(20));
    const checkpoint = store.checkpoint();
    store.put(SERVICE, bytes(3), bytes(30));
    store.remove(SERVICE, bytes(1));
    reader.apply(reads.changes());
    assert.ok(reader.ready());
    assert.is(hex(reader.get(SERVICE, bytes(1))), undefined);
    assert.is(hex(reader.get(SERVICE, bytes(3))), '1e');
    store.rollback(checkpoint);
    reader.apply(reads.changes());
    assert.ok(reader.ready());
    assert.is(hex(reader.get(SERVICE, bytes(1))), '0a');
    assert.is(hex(reader.get(SERVICE, bytes(2))), '14');
    assert.is(reader.get(SERVICE, bytes(3)), undefined);
    store.commit();
    reader.apply(reads.changes());
    assert.ok(reader.ready());
    assert.is(hex(reader.get(SERVICE, bytes(2))), '14');
    store.put(SERVICE, bytes(2), bytes(21));
    store.abort();
    reader.apply(reads.changes());
    assert.is(hex(reader.get(SERVICE, bytes(2))), '14');
  } finally {
    await reader.close();
    await store.close();
    removeDir(dir);
  }
});

test('ordered lookups over a mirror and a snapshot answer as the chain thread\'s store does', async () => {
  const { dir, store, reads, reader } = opened();
  const random = seededRandom(43);
  try {
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 40; i++) {
        const key = randomKey(random, 1, 3);
        if (random() < 0.25) store.remove(SERVICE, key);
        else store.put(SERVICE, key, randomValue(random));
      }
      if (round % 2 === 1) store.commit();
      reader.apply(reads.changes());
      assert.ok(reader.ready());
      for (let i = 0; i < 60; i++) {
        const key = randomKey(random, 0, 3);
        const match = Math.min(key.length, Math.floor(random() * 3));
        assert.is(hex(reader.get(SERVICE, key)), hex(store.get(SERVICE, key)));
        assert.is(entryHex(reader.greaterEqual(SERVICE, key, match)), entryHex(store.greaterEqual(SERVICE, key, match)));
        assert.is(entryHex(reader.lessThan(SERVICE, key, match)), entryHex(store.lessThan(SERVICE, key, match)));
        assert.is(entryHex(reader.max(SERVICE, key)), entryHex(store.max(SERVICE, key)));
      }
    }
  } finally {
    await reader.close();
    await store.close();
    removeDir(dir);
  }
});

test('a snapshot begun after a commit it was not told of is not ready', async () => {
  const { dir, store, reads, reader } = opened();
  try {
    store.put(SERVICE, bytes(1), bytes(1));
    store.commit();
    const told = reads.changes();
    store.put(SERVICE, bytes(1), bytes(2));
    store.commit();
    reader.apply(told);
    assert.not.ok(reader.ready());
    reader.apply(reads.changes());
    assert.ok(reader.ready());
    assert.is(hex(reader.get(SERVICE, bytes(1))), '02');
  } finally {
    await reader.close();
    await store.close();
    removeDir(dir);
  }
});

test('writes, checkpoints, subjective views and the session database hand the request off', async () => {
  const { dir, store, reader } = opened();
  try {
    assert.ok(reader.ready());
    const asStore: Store = reader;
    assert.is(handOffOf(() => asStore.put(SERVICE, bytes(1), bytes(1))), 'QUERY_HANDOFF');
    assert.is(handOffOf(() => asStore.putSequential(DbId.historyEvent, bytes(1))), 'QUERY_HANDOFF');
    assert.is(handOffOf(() => reader.checkpoint()), 'QUERY_HANDOFF');
    assert.is(handOffOf(() => reader.subjective.checkpoint()), 'QUERY_HANDOFF');
    assert.is(handOffOf(() => reader.get(DbId.session, bytes(1))), 'QUERY_HANDOFF');
    assert.is(reader.handedOff?.code, 'QUERY_HANDOFF');
    assert.match(reader.handedOff!.message, 'session database');
    // The next request starts with no hand-off; the temporary database is a context's own.
    assert.ok(reader.ready());
    assert.is(reader.handedOff, undefined);
    assert.is(handOffOf(() => reader.get(DbId.temporary, bytes(1))), 'DB_NOT_PERSISTED');
  } finally {
    await reader.close();
    await store.close();
    removeDir(dir);
  }
});

test.run();
