import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromBinaryString, prefixSuccessor, toBinaryString } from '../../../../runtime/db/binary-string.js';
import { bytes, hex, randomKey, seededRandom } from './helpers.js';

test('binary strings compare exactly like their bytes', () => {
  const random = seededRandom(31);
  for (let i = 0; i < 2000; i++) {
    const a = randomKey(random, 0, 6);
    const b = randomKey(random, 0, 6);
    const [sa, sb] = [toBinaryString(a), toBinaryString(b)];
    assert.is(Math.sign(sa < sb ? -1 : sa > sb ? 1 : 0), Math.sign(Buffer.compare(a, b)));
    assert.is(hex(fromBinaryString(sa)), hex(a));
  }
});

test('long keys convert in chunks', () => {
  const long = new Uint8Array(10000).map((_, i) => i * 7);
  assert.is(hex(fromBinaryString(toBinaryString(long))), hex(long));
});

test('the prefix successor is the first key past every key with that prefix', () => {
  assert.is(hex(prefixSuccessor(bytes(1, 2))), '0103');
  assert.is(hex(prefixSuccessor(bytes(1, 0xff, 0xff))), '02');
  assert.is(prefixSuccessor(bytes(0xff, 0xff)), undefined);
  assert.is(prefixSuccessor(bytes()), undefined);
});

test.run();
