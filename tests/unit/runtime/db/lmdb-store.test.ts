import { open } from 'lmdb';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import {
  bytes, entryHex, hex, makeTempDir, modelGreaterEqual, modelLessThan, modelMax, modelScan,
  randomInt, randomKey, randomValue, removeDir, scanAll, seededRandom, withStore, type Model,
} from './helpers.js';

async function reopened(dir: string, body: (store: LmdbStore) => void): Promise<void> {
  const store = LmdbStore.open(dir);
  try {
    body(store);
  } finally {
    await store.close();
  }
}

function assertThrowsCode(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (error) {
    assert.is((error as { code?: string }).code, code);
    return;
  }
  assert.unreachable(`expected an error with code ${code}`);
}

test('get, put and remove through the overlay and after commit', () =>
  withStore((store) => {
    const key = bytes(1, 2, 3);
    assert.is(store.get(DbId.service, key), undefined);
    store.put(DbId.service, key, bytes(9));
    assert.is(hex(store.get(DbId.service, key)), '09');
    assert.is(store.get(DbId.native, key), undefined, 'databases are separate');
    store.commit();
    assert.is(hex(store.get(DbId.service, key)), '09');
    store.remove(DbId.service, key);
    assert.is(store.get(DbId.service, key), undefined, 'the tombstone hides the committed value');
    store.put(DbId.service, key, bytes(7));
    assert.is(hex(store.get(DbId.service, key)), '07');
    store.remove(DbId.service, key);
    store.commit();
    assert.is(store.get(DbId.service, key), undefined);
  }));

test('put copies the caller\'s bytes, Buffers and views included', () =>
  withStore((store) => {
    const key = bytes(1, 1);
    const value = bytes(5, 6);
    const memory = Buffer.from([0, 7, 8, 0]);
    store.put(DbId.service, key, value);
    store.put(DbId.service, bytes(2), memory.subarray(1, 3));
    key[0] = 2;
    value[0] = 0;
    memory.fill(0);
    assert.is(hex(store.get(DbId.service, bytes(1, 1))), '0506');
    assert.is(hex(store.get(DbId.service, bytes(2))), '0708');
    store.commit();
    assert.is(hex(store.get(DbId.service, bytes(1, 1))), '0506');
    assert.is(hex(store.get(DbId.service, bytes(2))), '0708');
  }));

test('abort drops uncommitted writes, commit persists across reopen', async () => {
  const dir = makeTempDir();
  try {
    const store = LmdbStore.open(dir);
    store.put(DbId.service, bytes(1), bytes(1));
    store.put(DbId.blockLog, bytes(0, 0, 0, 1), bytes(0xb1));
    store.commit();
    store.put(DbId.service, bytes(2), bytes(2));
    store.remove(DbId.service, bytes(1));
    store.abort();
    assert.is(store.get(DbId.service, bytes(2)), undefined);
    assert.is(hex(store.get(DbId.service, bytes(1))), '01');
    store.put(DbId.service, bytes(3), bytes(3));
    await store.close();
    await reopened(dir, (again) => {
      assert.is(hex(again.get(DbId.service, bytes(1))), '01');
      assert.is(hex(again.get(DbId.blockLog, bytes(0, 0, 0, 1))), 'b1');
      assert.is(again.get(DbId.service, bytes(2)), undefined);
      assert.is(again.get(DbId.service, bytes(3)), undefined, 'uncommitted writes are lost on close');
    });
  } finally {
    removeDir(dir);
  }
});

test('every persisted database keeps its own data across reopen', async () => {
  const dir = makeTempDir();
  const dbs = [0, 1, 2, 3, 4, 5, 6, 7, 8, 64, 65];
  try {
    const store = LmdbStore.open(dir);
    for (const db of dbs) store.put(db, bytes(0xaa), bytes(db));
    store.commit();
    store.subjective.commit();
    await store.close();
    await reopened(dir, (again) => {
      for (const db of dbs) assert.is(hex(again.get(db, bytes(0xaa))), hex(bytes(db)), `db ${db}`);
    });
  } finally {
    removeDir(dir);
  }
});

test('lookup prefix rules on a small example', () =>
  withStore((store) => {
    for (const key of [[0], [1], [1, 0], [1, 0xff], [2], [2, 1], [0xff], [0xff, 0xff]]) {
      store.put(DbId.service, Uint8Array.from(key), bytes(key.length));
    }
    store.commit();
    const ge = (key: number[], match: number) => hex(store.greaterEqual(DbId.service, Uint8Array.from(key), match)?.key);
    const lt = (key: number[], match: number) => hex(store.lessThan(DbId.service, Uint8Array.from(key), match)?.key);
    const max = (prefix: number[]) => hex(store.max(DbId.service, Uint8Array.from(prefix))?.key);
    assert.is(ge([1, 0], 1), '0100');
    assert.is(ge([1, 1], 1), '01ff');
    assert.is(ge([1, 0xff, 0], 1), undefined, 'no key with prefix 01 after 01ff');
    assert.is(ge([1, 0xff, 0], 0), '02');
    assert.is(ge([], 0), '00');
    assert.is(lt([2], 1), undefined, '02 itself is not < 02');
    assert.is(lt([2], 0), '01ff');
    assert.is(lt([2, 1], 1), '02');
    assert.is(lt([1], 0), '00', 'the smallest possible key is found going down');
    assert.is(lt([0], 0), undefined);
    assert.is(lt([], 0), undefined);
    assert.is(max([0]), '00');
    assert.is(max([1]), '01ff');
    assert.is(max([0xff]), 'ffff');
    assert.is(max([]), 'ffff');
    assert.is(max([3]), undefined);
    store.remove(DbId.service, bytes(0xff, 0xff));
    store.put(DbId.service, bytes(1, 0x80), bytes(0));
    assert.is(max([0xff]), 'ff');
    assert.is(ge([1, 1], 1), '0180');
    assert.is(lt([1, 0xff], 1), '0180');
  }));

test('forward walks are the entries greaterEqual steps through, uncommitted writes and commits included', () =>
  withStore((store) => {
    for (const key of [[1, 1], [1, 2], [1, 3], [2, 0]]) store.put(DbId.service, Uint8Array.from(key), bytes(key[1]!));
    const stepped = (start: number[], matchLength: number, upper: number[] | undefined, maxRows: number) => {
      const keys: (string | undefined)[] = [];
      for (let key = Uint8Array.from(start); keys.length < maxRows;) {
        const entry = store.greaterEqual(DbId.service, key, matchLength);
        if (!entry || (upper && Buffer.compare(entry.key, Uint8Array.from(upper)) >= 0)) break;
        keys.push(hex(entry.key));
        key = Uint8Array.from([...entry.key, 0]);
      }
      return keys;
    };
    const walked = (start: number[], matchLength: number, upper: number[] | undefined, maxRows: number) =>
      store.forward(DbId.service, { start: Uint8Array.from(start), matchLength, upper: upper && Uint8Array.from(upper), maxRows, maxBytes: 1 << 20 }).map((e) => hex(e.key));
    const check = (what: string) => {
      for (const [start, match, upper, max] of [
        [[1], 1, undefined, 10], [[1], 0, undefined, 10], [[1, 2], 1, undefined, 10], [[1], 1, [1, 3], 10], [[1], 1, undefined, 2], [[3], 1, undefined, 5], [[1], 1, [1, 6], 10],
      ] as const) {
        assert.equal(walked([...start], match, upper && [...upper], max), stepped([...start], match, upper && [...upper], max), `${what}: ${start} ${match} ${upper} ${max}`);
      }
    };
    check('uncommitted');
    store.commit();
    check('committed');
    check('committed, again (remembered)');
    store.remove(DbId.service, bytes(1, 2));
    store.put(DbId.service, bytes(1, 5), bytes(5));
    check('an overlay over the committed rows');
    store.commit();
    check('after a commit');
    store.put(DbId.service, bytes(2, 1), bytes(1));
    store.put(DbId.service, bytes(1, 9), bytes(9));
    check('writes past the upper bound or after the match');
    store.remove(DbId.service, bytes(1, 9));
    check('after the next commit');
    assert.equal(walked([1], 1, undefined, 10), ['0101', '0103', '0105']);
  }));

type Lookup = 'greaterEqual' | 'lessThan' | 'max';

function checkLookups(store: LmdbStore, db: number, model: Model, random: () => number, count: number): void {
  for (let i = 0; i < count; i++) {
    const key = randomKey(random, 0, 5);
    const matchLength = randomInt(random, key.length + 1);
    const kind: Lookup = (['greaterEqual', 'lessThan', 'max'] as const)[randomInt(random, 3)];
    const [actual, expected] = kind === 'greaterEqual'
      ? [store.greaterEqual(db, key, matchLength), modelGreaterEqual(model, key, matchLength)]
      : kind === 'lessThan'
        ? [store.lessThan(db, key, matchLength), modelLessThan(model, key, matchLength)]
        : [store.max(db, key), modelMax(model, key)];
    assert.is(entryHex(actual), entryHex(expected), `${kind}(${hex(key)}, ${matchLength})`);
  }
}

function randomWrites(store: LmdbStore, db: number, model: Model, random: () => number, count: number): void {
  for (let i = 0; i < count; i++) {
    const key = randomKey(random, 1, 4);
    if (random() < 0.35) {
      store.remove(db, key);
      model.delete(hex(key)!);
    } else {
      const value = randomValue(random);
      store.put(db, key, value);
      model.set(hex(key)!, value);
    }
  }
}

for (const seed of [1, 2, 3, 4, 5, 6]) {
  test(`lookups match a brute-force model over committed data, overlay and tombstones (seed ${seed})`, async () => {
    const random = seededRandom(seed);
    const model: Model = new Map();
    const dir = makeTempDir();
    try {
      const store = LmdbStore.open(dir);
      for (let round = 0; round < 4; round++) {
        randomWrites(store, DbId.service, model, random, 60);
        checkLookups(store, DbId.service, model, random, 150);
        store.commit();
        checkLookups(store, DbId.service, model, random, 100);
      }
      randomWrites(store, DbId.service, model, random, 80);
      checkLookups(store, DbId.service, model, random, 300);
      assert.equal(scanAll(store, DbId.service), modelScan(model));
      store.commit();
      await store.close();
      await reopened(dir, (again) => {
        checkLookups(again, DbId.service, model, random, 200);
        assert.equal(scanAll(again, DbId.service), modelScan(model));
      });
    } finally {
      removeDir(dir);
    }
  });
}

for (const seed of [11, 12, 13, 14, 15]) {
  test(`nested checkpoints: random rollback/release sequences match a model (seed ${seed})`, async () => {
    const random = seededRandom(seed);
    const db = DbId.writeOnly;
    const dir = makeTempDir();
    try {
      const store = LmdbStore.open(dir);
      let model: Model = new Map();
      // levels[i] = the checkpoint id and the model as it was when it was opened
      const levels: { id: number; snapshot: Model }[] = [];
      for (let step = 0; step < 600; step++) {
        const action = random();
        if (action < 0.5) {
          randomWrites(store, db, model, random, 1 + randomInt(random, 4));
        } else if (action < 0.7) {
          levels.push({ id: store.checkpoint(), snapshot: new Map(model) });
        } else if (action < 0.82 && levels.length > 0) {
          const level = randomInt(random, levels.length);
          store.rollback(levels[level].id);
          model = levels[level].snapshot;
          levels.length = level;
        } else if (action < 0.94 && levels.length > 0) {
          const level = random() < 0.7 ? levels.length - 1 : randomInt(random, levels.length);
          store.release(levels[level].id);
          levels.length = level;
        } else if (levels.length === 0) {
          store.commit();
        }
        if (step % 25 === 0) {
          assert.equal(scanAll(store, db), modelScan(model), `step ${step}`);
          checkLookups(store, db, model, random, 20);
        }
      }
      while (levels.length > 0) store.release(levels.pop()!.id);
      store.commit();
      await store.close();
      await reopened(dir, (again) => assert.equal(scanAll(again, db), modelScan(model)));
    } finally {
      removeDir(dir);
    }
  });
}

test('checkpoint misuse is refused', () =>
  withStore((store) => {
    const outer = store.checkpoint();
    const inner = store.checkpoint();
    store.put(DbId.service, bytes(1), bytes(1));
    assertThrowsCode(() => store.commit(), 'DB_CHECKPOINT_OPEN');
    store.rollback(outer);
    assert.is(store.get(DbId.service, bytes(1)), undefined, 'rolling back the outer level undoes the inner one');
    assertThrowsCode(() => store.release(inner), 'DB_NO_SUCH_CHECKPOINT');
    assertThrowsCode(() => store.rollback(outer), 'DB_NO_SUCH_CHECKPOINT');
    store.commit();
  }));

test('a released level is undone by rolling back its parent', () =>
  withStore((store) => {
    store.put(DbId.service, bytes(1), bytes(1));
    const block = store.checkpoint();
    const transaction = store.checkpoint();
    store.put(DbId.service, bytes(1), bytes(2));
    store.put(DbId.service, bytes(2), bytes(2));
    store.release(transaction);
    assert.is(hex(store.get(DbId.service, bytes(1))), '02');
    store.rollback(block);
    assert.is(hex(store.get(DbId.service, bytes(1))), '01');
    assert.is(store.get(DbId.service, bytes(2)), undefined);
  }));

test('subjective writes survive chain rollback and commit on their own', async () => {
  const dir = makeTempDir();
  try {
    const store = LmdbStore.open(dir);
    const cp = store.checkpoint();
    store.put(DbId.service, bytes(1), bytes(1));
    store.put(DbId.subjective, bytes(1), bytes(0x64));
    store.put(DbId.nativeSubjective, bytes(1), bytes(0x65));
    store.rollback(cp);
    assert.is(store.get(DbId.service, bytes(1)), undefined);
    assert.is(hex(store.get(DbId.subjective, bytes(1))), '64');
    store.put(DbId.service, bytes(2), bytes(2));
    const subjectiveCp = store.subjective.checkpoint();
    store.put(DbId.subjective, bytes(2), bytes(2));
    store.subjective.rollback(subjectiveCp);
    assert.is(hex(store.get(DbId.service, bytes(2))), '02', 'subjective rollback leaves chain writes');
    assert.is(store.get(DbId.subjective, bytes(2)), undefined);
    store.subjective.commit();
    store.abort();
    await store.close();
    await reopened(dir, (again) => {
      assert.is(hex(again.get(DbId.subjective, bytes(1))), '64');
      assert.is(hex(again.get(DbId.nativeSubjective, bytes(1))), '65');
      assert.is(again.get(DbId.service, bytes(2)), undefined);
    });
  } finally {
    removeDir(dir);
  }
});

for (const seed of [21, 22, 23]) {
  test(`session (66) lookups match a model over what it holds in memory and its overlay (seed ${seed})`, () =>
    withStore((store) => {
      const random = seededRandom(seed);
      const model: Model = new Map();
      for (let round = 0; round < 4; round++) {
        randomWrites(store, DbId.session, model, random, 60);
        checkLookups(store, DbId.session, model, random, 150);
        store.subjective.commit();
        checkLookups(store, DbId.session, model, random, 100);
      }
      assert.equal(scanAll(store, DbId.session), modelScan(model));
    }));
}

/** LMDB's last write transaction in `dir` (the store's environment, opened again by lmdb-js). */
function lastTxnId(dir: string): number {
  return (open({ path: dir }).getStats() as { lastTxnId: number }).lastTxnId;
}

test('session writes commit with the subjective domain, in memory: no LMDB write, gone after reopen', async () => {
  const dir = makeTempDir();
  try {
    const store = LmdbStore.open(dir);
    const before = lastTxnId(dir);
    const cp = store.checkpoint();
    store.put(DbId.session, bytes(1), bytes(0x66));
    store.rollback(cp);
    assert.is(hex(store.get(DbId.session, bytes(1))), '66', 'a chain rollback leaves session writes');
    store.subjective.commit();
    assert.is(lastTxnId(dir), before, 'a commit of session rows alone writes nothing to LMDB');
    assert.is(hex(store.get(DbId.session, bytes(1))), '66');
    const view = store.subjective.checkpoint();
    store.remove(DbId.session, bytes(1));
    store.subjective.rollback(view);
    assert.is(hex(store.get(DbId.session, bytes(1))), '66', 'a subjective rollback undoes session writes');
    store.put(DbId.session, bytes(2), bytes(2));
    store.put(DbId.subjective, bytes(2), bytes(0x64));
    store.subjective.commit();
    assert.is(lastTxnId(dir), before + 1, 'subjective rows still land in LMDB, in one transaction');
    assert.equal(scanAll(store, DbId.session), ['01=66', '02=02']);
    await store.close();
    await reopened(dir, (again) => {
      assert.is(hex(again.get(DbId.subjective, bytes(2))), '64');
      assert.is(again.get(DbId.session, bytes(1)), undefined, 'session rows do not outlive the process');
      assert.is(again.get(DbId.session, bytes(2)), undefined);
    });
  } finally {
    removeDir(dir);
  }
});

test('bad input is refused with clear errors', () =>
  withStore((store) => {
    const anyStore = store as unknown as Record<string, (...args: unknown[]) => unknown>;
    assertThrowsCode(() => anyStore.get(DbId.service, 'abc'), 'DB_NOT_BYTES');
    assertThrowsCode(() => anyStore.put(DbId.service, bytes(1), [1, 2]), 'DB_NOT_BYTES');
    assertThrowsCode(() => anyStore.greaterEqual(DbId.service, null, 0), 'DB_NOT_BYTES');
    assertThrowsCode(() => store.put(DbId.service, new Uint8Array(0), bytes(1)), 'DB_EMPTY_KEY');
    assertThrowsCode(() => store.greaterEqual(DbId.service, bytes(1), 2), 'DB_BAD_MATCH_LENGTH');
    assertThrowsCode(() => store.get(DbId.temporary, bytes(1)), 'DB_NOT_PERSISTED');
    assertThrowsCode(() => store.get(9, bytes(1)), 'DB_UNKNOWN');
    assertThrowsCode(() => store.get(68, bytes(1)), 'DB_UNKNOWN');
    store.remove(DbId.service, new Uint8Array(0));
    store.commit();
    assert.is(store.get(DbId.service, new Uint8Array(0)), undefined, 'an empty key is absent, not an LMDB error');
  }));

test.run();
