// The `views` unpack option: byte fields (variable and fixed hex types) become views into the
// packed bytes instead of copies, for a caller that owns those bytes; by default they are copies.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema } from '../../../../host-api/index.js';

const schema = compileSchema({
  Holder: { Object: { data: { Custom: { type: { List: 'u8' }, id: 'hex' } }, sum: 'Checksum256' } },
});
const holder = schema.type<{ data: Uint8Array; sum: Uint8Array }>('Holder');
const value = { data: Uint8Array.of(1, 2, 3), sum: new Uint8Array(32).fill(9) };

test('by default byte fields are copies: changing the packed bytes leaves them', () => {
  const packed = holder.pack(value);
  const read = holder.unpack(packed);
  packed.fill(0);
  assert.equal(read, value);
});

test('with views, byte fields read the packed bytes themselves', () => {
  const packed = holder.pack(value);
  const read = holder.unpack(packed, { views: true });
  assert.equal(read, value);
  assert.is(read.data.buffer, packed.buffer);
  assert.is(read.sum.buffer, packed.buffer);
  packed.fill(0);
  assert.equal([...read.data], [0, 0, 0]);
  assert.ok(read.sum.every((b) => b === 0));
});

test.run();
