import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { TemporaryDb } from '../../../../runtime/db/temporary-db.js';
import {
  entryHex, hex, modelGreaterEqual, modelLessThan, modelMax, modelScan, randomInt, randomKey,
  randomValue, scanAll, seededRandom, type Model, bytes,
} from './helpers.js';

test('the temporary database has the store\'s lookups, in memory', () => {
  const random = seededRandom(7);
  const temporary = new TemporaryDb();
  const model: Model = new Map();
  for (let i = 0; i < 300; i++) {
    const key = randomKey(random, 1, 4);
    if (random() < 0.3) {
      temporary.remove(DbId.temporary, key);
      model.delete(hex(key)!);
    } else {
      const value = randomValue(random);
      temporary.put(DbId.temporary, key, value);
      model.set(hex(key)!, value);
    }
    const probe = randomKey(random, 0, 5);
    const match = randomInt(random, probe.length + 1);
    assert.is(entryHex(temporary.greaterEqual(DbId.temporary, probe, match)), entryHex(modelGreaterEqual(model, probe, match)));
    assert.is(entryHex(temporary.lessThan(DbId.temporary, probe, match)), entryHex(modelLessThan(model, probe, match)));
    assert.is(entryHex(temporary.max(DbId.temporary, probe)), entryHex(modelMax(model, probe)));
    assert.is(hex(temporary.get(DbId.temporary, probe)), hex(model.get(hex(probe)!)));
  }
  assert.equal(scanAll(temporary, DbId.temporary), modelScan(model));
});

test('a temporary database holds database 67 only, and each one is separate', () => {
  const first = new TemporaryDb();
  const second = new TemporaryDb();
  first.put(DbId.temporary, bytes(1), bytes(1));
  assert.is(second.get(DbId.temporary, bytes(1)), undefined);
  assert.throws(() => first.get(DbId.service, bytes(1)), (e: { code?: string }) => e.code === 'DB_NOT_TEMPORARY');
});

test.run();
