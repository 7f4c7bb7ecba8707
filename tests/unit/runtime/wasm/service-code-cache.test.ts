// serviceCodeOf caches code rows per store until they may change: a setCode, a rollback or an
// abort is seen by the very next lookup, while other writes (events, status) leave it cached.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { bytesToHex } from '../../../../host-api/index.js';
import type { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import { serviceCodeOf, writeServiceCode } from '../../../../runtime/wasm/service-code.js';
import { withStore } from '../db/helpers.js';

const ALICE = 1234n;
const CODE_A = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
const CODE_B = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 0, 1, 0x42]);

const hashOf = (store: LmdbStore) => {
  const code = serviceCodeOf(store, ALICE);
  return code ? bytesToHex(code.codeHash) : undefined;
};

test('a code change is seen by the next lookup; unrelated writes keep the cached row', () => withStore((store) => {
  assert.is(hashOf(store), undefined, 'no code yet');
  const a = bytesToHex(writeServiceCode(store, ALICE, CODE_A, 0n));
  assert.is(hashOf(store), a);
  const version = store.nativeRowsVersion;
  store.putSequential(DbId.historyEvent, new Uint8Array([1]));
  store.put(DbId.service, new Uint8Array([1, 2, 3]), new Uint8Array([4]));
  assert.is(store.nativeRowsVersion, version, 'events and service rows do not move the version');
  const b = bytesToHex(writeServiceCode(store, ALICE, CODE_B, 1n));
  assert.is(hashOf(store), b);
  assert.equal(serviceCodeOf(store, ALICE)!.code(), CODE_B);
  assert.is(serviceCodeOf(store, ALICE)!.flags, 1n);
}));

test('a rolled-back or aborted code change is not served from the cache', () => withStore((store) => {
  const a = bytesToHex(writeServiceCode(store, ALICE, CODE_A, 0n));
  store.commit();
  const checkpoint = store.checkpoint();
  const b = bytesToHex(writeServiceCode(store, ALICE, CODE_B, 0n));
  assert.is(hashOf(store), b);
  store.rollback(checkpoint);
  assert.is(hashOf(store), a, 'after rollback');
  writeServiceCode(store, ALICE, CODE_B, 0n);
  assert.is(hashOf(store), b);
  store.abort();
  assert.is(hashOf(store), a, 'after abort');
  writeServiceCode(store, ALICE, new Uint8Array(0), 0n);
  assert.is(hashOf(store), undefined, 'cleared code');
}));

test.run();
