import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { databaseStatusKey } from '../../../../host-api/abi/keys.js';
import { DatabaseStatusRow } from '../../../../host-api/types/native.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { bytes, hex, makeTempDir, removeDir } from './helpers.js';

function statusRow(history: bigint, ui: bigint, merkle: bigint): string {
  const row = Buffer.alloc(26);
  row.writeUInt16LE(24, 0);
  row.writeBigUInt64LE(history, 2);
  row.writeBigUInt64LE(ui, 10);
  row.writeBigUInt64LE(merkle, 18);
  return row.toString('hex');
}

function errorCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

test('event ids start at 1 per event database and are stored under big-endian u64 keys', async () => {
  const dir = makeTempDir();
  try {
    const store = LmdbStore.open(dir);
    assert.is(store.putSequential(DbId.historyEvent, bytes(0xa1)), 1n);
    assert.is(store.putSequential(DbId.historyEvent, bytes(0xa2)), 2n);
    assert.is(store.putSequential(DbId.uiEvent, bytes(0xb1)), 1n);
    assert.is(store.putSequential(DbId.merkleEvent, bytes(0xc1)), 1n);
    assert.is(hex(store.getSequential(DbId.historyEvent, 2n)), 'a2');
    assert.is(hex(store.get(DbId.historyEvent, bytes(0, 0, 0, 0, 0, 0, 0, 2))), 'a2');
    assert.is(store.getSequential(DbId.historyEvent, 3n), undefined);
    const row = store.get(DbId.native, databaseStatusKey())!;
    assert.is(hex(row), statusRow(3n, 2n, 2n));
    assert.equal(DatabaseStatusRow.unpack(row), {
      nextHistoryEventNumber: 3n, nextUiEventNumber: 2n, nextMerkleEventNumber: 2n,
    }, 'the row is what the host-api codec reads');
    store.commit();
    await store.close();
    const again = LmdbStore.open(dir);
    try {
      assert.is(hex(again.getSequential(DbId.uiEvent, 1n)), 'b1');
      assert.is(again.putSequential(DbId.historyEvent, bytes(0xa3)), 3n, 'counters persist');
    } finally {
      await again.close();
    }
  } finally {
    removeDir(dir);
  }
});

test('counters roll back with a failed transaction and are dropped by abort', async () => {
  const dir = makeTempDir();
  try {
    const store = LmdbStore.open(dir);
    assert.is(store.putSequential(DbId.merkleEvent, bytes(1)), 1n);
    const failed = store.checkpoint();
    assert.is(store.putSequential(DbId.merkleEvent, bytes(2)), 2n);
    assert.is(store.putSequential(DbId.uiEvent, bytes(2)), 1n);
    store.rollback(failed);
    assert.is(store.getSequential(DbId.merkleEvent, 2n), undefined);
    const succeeded = store.checkpoint();
    assert.is(store.putSequential(DbId.merkleEvent, bytes(3)), 2n, 'the rolled-back id is handed out again');
    assert.is(store.putSequential(DbId.uiEvent, bytes(3)), 1n);
    store.release(succeeded);
    store.commit();
    assert.is(store.putSequential(DbId.merkleEvent, bytes(4)), 3n);
    store.abort();
    assert.is(store.putSequential(DbId.merkleEvent, bytes(5)), 3n);
    await store.close();
  } finally {
    removeDir(dir);
  }
});

test('counters read back from LMDB roll back too', async () => {
  const dir = makeTempDir();
  try {
    const store = LmdbStore.open(dir);
    store.putSequential(DbId.historyEvent, bytes(1));
    store.commit();
    const failed = store.checkpoint();
    assert.is(store.putSequential(DbId.historyEvent, bytes(2)), 2n);
    assert.is(store.putSequential(DbId.historyEvent, bytes(3)), 3n);
    store.rollback(failed);
    assert.is(hex(store.get(DbId.native, databaseStatusKey())), statusRow(2n, 1n, 1n));
    assert.is(store.putSequential(DbId.historyEvent, bytes(2)), 2n);
    await store.close();
  } finally {
    removeDir(dir);
  }
});

test('a longer status row keeps its extra fields; a short one is refused', async () => {
  const dir = makeTempDir();
  try {
    const store = LmdbStore.open(dir);
    const longer = Buffer.from(statusRow(7n, 8n, 9n) + '1122334455667788', 'hex');
    longer.writeUInt16LE(32, 0);
    store.put(DbId.native, databaseStatusKey(), longer);
    assert.is(store.putSequential(DbId.uiEvent, bytes(1)), 8n);
    const row = Buffer.from(store.get(DbId.native, databaseStatusKey())!);
    assert.is(row.readBigUInt64LE(10), 9n);
    assert.is(row.subarray(26).toString('hex'), '1122334455667788');
    store.put(DbId.native, databaseStatusKey(), bytes(8, 0, 1, 0, 0, 0, 0, 0, 0, 0));
    assert.is(errorCode(() => store.putSequential(DbId.uiEvent, bytes(1))), 'DB_BAD_STATUS_ROW');
    await store.close();
  } finally {
    removeDir(dir);
  }
});

test('only databases 4, 5 and 6 are sequential; ids must be u64', async () => {
  const dir = makeTempDir();
  try {
    const store = LmdbStore.open(dir);
    assert.is(errorCode(() => store.putSequential(DbId.service, bytes(1))), 'DB_NOT_EVENT_DB');
    assert.is(errorCode(() => store.getSequential(DbId.native, 1n)), 'DB_NOT_EVENT_DB');
    assert.is(errorCode(() => store.getSequential(DbId.uiEvent, -1n)), 'DB_BAD_EVENT_ID');
    await store.close();
  } finally {
    removeDir(dir);
  }
});

test.run();
