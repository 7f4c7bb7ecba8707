import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allocBytes, copyOfRange } from '../../../../host-api/encoding/bytes.js';

test('allocBytes gives zero-filled arrays of the asked length, sharing no bytes with each other', () => {
  const lengths = [0, 1, 64, 65, 100, 1000, 1024, 1025, 5000];
  const arrays = [...lengths, ...lengths].map((length) => allocBytes(length));
  arrays.forEach((bytes, i) => {
    assert.is(bytes.length, lengths[i % lengths.length]);
    assert.ok(bytes.every((b) => b === 0), `array ${i} is zero-filled`);
  });
  arrays.forEach((bytes, i) => bytes.fill(i + 1));
  arrays.forEach((bytes, i) => assert.ok(bytes.every((b) => b === i + 1), `array ${i} kept its own bytes`));
});

test('allocBytes keeps serving after many cuts (a full slab starts a new one)', () => {
  const arrays = Array.from({ length: 200 }, (_, i) => allocBytes(100 + i));
  arrays.forEach((bytes, i) => bytes.fill(i));
  arrays.forEach((bytes, i) => {
    assert.is(bytes.length, 100 + i);
    assert.ok(bytes.every((b) => b === i));
  });
});

test('copyOfRange copies a range of a Buffer or a view, independent of its source', () => {
  const backing = Buffer.from(Array.from({ length: 300 }, (_, i) => i & 0xff));
  const view = new Uint8Array(backing.buffer, backing.byteOffset + 10, 200);
  const fromBuffer = copyOfRange(backing, 5, 205);
  const fromView = copyOfRange(view, 20, 150);
  const whole = copyOfRange(view);
  assert.equal([...fromBuffer], Array.from({ length: 200 }, (_, i) => (i + 5) & 0xff));
  assert.equal([...fromView], Array.from({ length: 130 }, (_, i) => (i + 30) & 0xff));
  assert.equal([...whole], [...view]);
  backing.fill(0);
  assert.is(fromBuffer[0], 5, 'the copy does not change with its source');
  assert.is(fromView[0], 30);
  assert.is(whole[199], 209);
});

test.run();
