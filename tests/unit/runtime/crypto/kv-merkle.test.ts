// KvMerkle against psibase's own cases (its testKvMerkle): the trees they spell out by hand must be
// the roots the one-pass builder derives (docs/p2p.md §7.2).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hexToBytes } from '../../../../host-api/encoding/hex.js';
import { KvMerkle, kvCombine, kvLeafHash } from '../../../../runtime/crypto/kv-merkle.js';
import { sha256 } from '../../../../runtime/crypto/sha256.js';
import { TsibaseError } from '../../../../host-api/errors.js';
import { assertFails } from '../../../lib/assert-error.js';

const EMPTY = new Uint8Array(0);
const leaf = (hex: string) => kvLeafHash(hexToBytes(hex), EMPTY);

function rootOf(keys: string[]): Uint8Array {
  const merkle = new KvMerkle();
  for (const key of keys) merkle.push(hexToBytes(key), EMPTY);
  return merkle.root();
}

test('an empty database has the zero root', () => {
  assert.equal(new KvMerkle().root(), new Uint8Array(32));
});

test('a leaf is sha256(00, u32le key length, key, u32le value length, value)', () => {
  const expected = sha256(Uint8Array.of(0, 2, 0, 0, 0, 0xaa, 0xbb, 1, 0, 0, 0, 0xcc));
  assert.equal(kvLeafHash(Uint8Array.of(0xaa, 0xbb), Uint8Array.of(0xcc)), expected);
});

test('an inner node is sha256(01, left, right); a zero side passes the other through', () => {
  const [a, b] = [leaf('aa'), leaf('bb')];
  assert.equal(kvCombine(a, b), sha256(Uint8Array.from([1, ...a, ...b])));
  assert.equal(kvCombine(new Uint8Array(32), b), b);
  assert.equal(kvCombine(a, new Uint8Array(32)), a);
});

test('one row with the empty key: the root is its leaf', () => {
  assert.equal(rootOf(['']), leaf(''));
});

test('two keys: the root combines their leaves', () => {
  assert.equal(rootOf(['aa', 'bb']), kvCombine(leaf('aa'), leaf('bb')));
});

test('a prefix key: its leaf combines with the subtree below it', () => {
  assert.equal(rootOf(['', 'aa', 'bb']), kvCombine(leaf(''), kvCombine(leaf('aa'), leaf('bb'))));
});

test('psibase large case: "", C0, C8, FC, FC00', () => {
  const n = kvCombine;
  const expected = n(leaf(''), n(n(leaf('c0'), leaf('c8')), n(leaf('fc'), leaf('fc00'))));
  assert.equal(rootOf(['', 'c0', 'c8', 'fc', 'fc00']), expected);
});

test('values change the root; root() starts the builder afresh', () => {
  const merkle = new KvMerkle();
  merkle.push(Uint8Array.of(1), Uint8Array.of(2));
  const first = merkle.root();
  merkle.push(Uint8Array.of(1), Uint8Array.of(3));
  const second = merkle.root();
  assert.not.equal(first, second);
  assert.equal(second, kvLeafHash(Uint8Array.of(1), Uint8Array.of(3)));
});

test('keys out of order, or repeated, are refused', () => {
  const merkle = new KvMerkle();
  merkle.push(Uint8Array.of(5), EMPTY);
  assertFails(() => merkle.push(Uint8Array.of(4), EMPTY), TsibaseError, 'KV_MERKLE_ORDER');
  assertFails(() => merkle.push(Uint8Array.of(5), EMPTY), TsibaseError, 'KV_MERKLE_ORDER');
  const empty = new KvMerkle();
  empty.push(EMPTY, EMPTY);
  assertFails(() => empty.push(EMPTY, EMPTY), TsibaseError, 'KV_MERKLE_ORDER');
});

test.run();
