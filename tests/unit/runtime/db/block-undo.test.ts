// Reversible blocks (docs/chain.md §1.6): a block committed above the irreversible one keeps an
// undo record; reverting it restores exactly the state before it, across reopening the store.

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { TsibaseError } from '../../../../host-api/errors.js';
import { assertFails } from '../../../lib/assert-error.js';
import { bytes, hex, makeTempDir, randomInt, randomKey, randomValue, removeDir, seededRandom } from './helpers.js';

const DBS = [DbId.service, DbId.native, DbId.blockLog, DbId.uiEvent];

/** Every row of the databases the blocks write, as hex, for comparing whole states. */
function dump(store: LmdbStore): string[] {
  const rows: string[] = [];
  for (const db of DBS) {
    for (let entry = store.greaterEqual(db, new Uint8Array(0), 0); entry; entry = store.greaterEqual(db, successor(entry.key), 0)) {
      rows.push(`${db}:${hex(entry.key)}=${hex(entry.value)}`);
    }
  }
  return rows;
}

function successor(key: Uint8Array): Uint8Array {
  return Uint8Array.from([...key, 0]);
}

/** A block's worth of random puts and removes, some over rows earlier blocks wrote. */
function writeBlock(store: LmdbStore, random: () => number): void {
  for (let i = 0; i < 20; i++) {
    const db = DBS[randomInt(random, DBS.length)]!;
    const key = randomKey(random, 1, 3);
    if (randomInt(random, 4) === 0) store.remove(db, key);
    else store.put(db, key, randomValue(random));
  }
}

/** Runs `use` on a store in a new temporary directory, removed afterwards. */
async function inTempStore(use: (store: LmdbStore) => void): Promise<void> {
  const dir = makeTempDir();
  try {
    await withStore(dir, use);
  } finally {
    removeDir(dir);
  }
}

async function withStore<T>(dir: string, use: (store: LmdbStore) => T | Promise<T>): Promise<T> {
  const store = LmdbStore.open(dir);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

test('reverting reversible blocks newest first restores each earlier state exactly', async () => {
  const random = seededRandom(7);
  await inTempStore((store) => {
    writeBlock(store, random);
    store.commitBlock(1, 1); // irreversible at once: no record
    const states = [dump(store)];
    for (let n = 2; n <= 6; n++) {
      writeBlock(store, random);
      store.commitBlock(n, 1);
      states.push(dump(store));
    }
    assert.equal([...store.reversibleBlocks()], [2, 3, 4, 5, 6]);
    for (let n = 6; n >= 2; n--) {
      store.revertBlock(n);
      assert.equal(dump(store), states[n - 2], `state before block ${n}`);
    }
    assert.equal([...store.reversibleBlocks()], []);
  });
});

test('undo records are durable: a reopened store reverts what the last process committed', async () => {
  const random = seededRandom(11);
  const dir = makeTempDir();
  try {
    const before = await withStore(dir, (store) => {
      writeBlock(store, random);
      store.commitBlock(1, 1);
      const state = dump(store);
      writeBlock(store, random);
      store.commitBlock(2, 1);
      return state;
    });
    await withStore(dir, (store) => {
      assert.equal([...store.reversibleBlocks()], [2]);
      store.revertBlock(2);
      assert.equal(dump(store), before);
    });
    await withStore(dir, (store) => assert.equal([...store.reversibleBlocks()], []));
  } finally {
    removeDir(dir);
  }
});

test('records up to the irreversible block are dropped in the commit that declares it', async () => {
  await inTempStore((store) => {
    for (let n = 1; n <= 4; n++) {
      store.put(DbId.service, bytes(1), bytes(n));
      store.commitBlock(n, 0);
    }
    assert.equal([...store.reversibleBlocks()], [1, 2, 3, 4]);
    store.put(DbId.service, bytes(1), bytes(5));
    store.commitBlock(5, 3);
    assert.equal([...store.reversibleBlocks()], [4, 5]);
    store.put(DbId.service, bytes(1), bytes(6));
    store.commitBlock(6, 6);
    assert.equal([...store.reversibleBlocks()], []);
    assert.is(hex(store.get(DbId.service, bytes(1))), '06');
  });
});

test('only the newest reversible block can be reverted, and never over uncommitted writes', async () => {
  await inTempStore((store) => {
    assertFails(() => store.revertBlock(1), TsibaseError, 'DB_NO_BLOCK_UNDO', [/no block is reversible/]);
    store.put(DbId.service, bytes(1), bytes(1));
    store.commitBlock(1, 0);
    store.put(DbId.service, bytes(1), bytes(2));
    store.commitBlock(2, 0);
    assertFails(() => store.revertBlock(1), TsibaseError, 'DB_NO_BLOCK_UNDO', [/newest reversible block is 2/]);
    store.put(DbId.service, bytes(2), bytes(9));
    assertFails(() => store.revertBlock(2), TsibaseError, 'DB_UNCOMMITTED_WRITES', [/uncommitted writes/]);
    store.abort();
    // A block number at or below a kept record would break newest-first order.
    store.put(DbId.service, bytes(1), bytes(3));
    assertFails(() => store.commitBlock(2, 0), TsibaseError, 'DB_BLOCK_UNDO_ORDER', [/block 2 already has one/]);
    store.abort();
    assert.is(hex(store.get(DbId.service, bytes(1))), '02', 'the refused commit wrote nothing');
    store.revertBlock(2);
    assert.is(hex(store.get(DbId.service, bytes(1))), '01');
  });
});

test('subjective writes are not part of a block and survive its revert', async () => {
  await inTempStore((store) => {
    store.put(DbId.service, bytes(1), bytes(1));
    store.put(DbId.subjective, bytes(1), bytes(7));
    store.subjective.commit();
    store.commitBlock(1, 0);
    store.revertBlock(1);
    assert.is(store.get(DbId.service, bytes(1)), undefined);
    assert.is(hex(store.get(DbId.subjective, bytes(1))), '07');
  });
});

test.run();
