// docs/formats.md §1.4: every decoding rule, each with an input that must fail and the error code
// that names the problem, plus the inputs the rules explicitly allow.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, type FracpackErrorCode } from '../../../../host-api/index.js';
import { hex } from '../../../lib/hex.js';

const schema = compileSchema({
  Example1: { Object: { a: 'u32', b: { Option: 'string' }, c: { Option: 'u8' } } },
  Strings: { List: 'string' },
  U16s: { List: 'u16' },
  AB: { Variant: { A: 'u32', B: 'string' } },
  HoldsVariant: { Object: { v: 'AB' } },
  HoldsString: { Object: { s: 'string' } },
  OnlyA: { Object: { a: 'u32' } },
  Nibble: { Int: { bits: 4, isSigned: false } },
  Nested: { FracPack: 'u32' },
  WrapsObject: { Variant: { A: 'OnlyA' } },
  Opt: { Option: 'u32' },
});

function rejects(type: string, bytes: string, code: FracpackErrorCode, compat = false): void {
  const err = schema.type(type).check(hex(bytes), { compat });
  assert.ok(err, `${type} ${bytes} should fail with ${code}`);
  assert.is(err.code, code, `${type} ${bytes}: ${err.message}`);
  assert.ok(err.message.length > 10, 'the message says what is wrong');
}

test('rule 1: reads stay inside the buffer', () => {
  rejects('u32', '010203', 'FRACPACK_TRUNCATED');
  rejects('Strings', '04000000 04000000', 'FRACPACK_TRUNCATED');
  rejects('Example1', '0800 07000000', 'FRACPACK_TRUNCATED');
  rejects('Strings', '04000000 FCFFFFFF', 'FRACPACK_TRUNCATED'); // an offset that would wrap at 32 bits
});

test('rule 1: reads stay inside the enclosing Variant or FracPack body', () => {
  rejects('AB', '01 05000000 02000000 7879', 'FRACPACK_TRUNCATED');
  rejects('Nested', '03000000 07000000', 'FRACPACK_TRUNCATED');
});

test('rule 2: heap bodies appear in order without gaps', () => {
  // ["a","b"] is 08000000 08000000 09000000 01000000 61 01000000 62
  assert.equal(schema.type('Strings').unpack(hex('08000000 08000000 09000000 01000000 61 01000000 62')), ['a', 'b']);
  rejects('Strings', '08000000 08000000 0A000000 01000000 61 00 01000000 62', 'FRACPACK_BAD_OFFSET'); // gap
  rejects('Strings', '08000000 0D000000 FCFFFFFF 01000000 61 01000000 62', 'FRACPACK_BAD_OFFSET'); // backwards
  rejects('Strings', '08000000 08000000 04000000 01000000 61', 'FRACPACK_BAD_OFFSET'); // overlap: both point at "a"
});

test('rule 3: 0 only for containers, 1 only for options, 2 and 3 never', () => {
  rejects('HoldsVariant', '0400 00000000', 'FRACPACK_BAD_OFFSET');
  rejects('Strings', '04000000 01000000', 'FRACPACK_BAD_OFFSET');
  rejects('Strings', '04000000 02000000', 'FRACPACK_BAD_OFFSET');
  rejects('Opt', '03000000', 'FRACPACK_BAD_OFFSET');
  rejects('HoldsString', '0400 04000000 00000000', 'FRACPACK_BAD_OFFSET'); // pointer to an empty list
  assert.equal(schema.type('HoldsString').unpack(hex('0400 00000000')), { s: '' });
});

test('rule 4: bool is 0 or 1; list length is a multiple of the element size', () => {
  assert.is(schema.type('bool').unpack(hex('01')), true);
  rejects('bool', '02', 'FRACPACK_BAD_BOOL');
  rejects('U16s', '03000000 010203', 'FRACPACK_BAD_LENGTH');
  rejects('Nibble', '10', 'FRACPACK_OUT_OF_RANGE'); // a 4-bit int with a high bit set
});

test('rule 5: a short fixed area may only omit trailing optionals, and must end exactly', () => {
  assert.equal(schema.type('Example1').unpack(hex('0400 07000000')), { a: 7, b: null, c: null });
  rejects('Example1', '0200 0700', 'FRACPACK_BAD_LENGTH');
  rejects('Example1', '0000', 'FRACPACK_TRUNCATED');
  rejects('Example1', '0600 07000000 0100', 'FRACPACK_BAD_LENGTH');
});

test('rule 5: unknown fields are multiples of 4 holding 0, 1 or in-order pointers (compat only)', () => {
  rejects('OnlyA', '0800 07000000 00000000', 'FRACPACK_UNKNOWN_FIELD');
  rejects('OnlyA', '0600 07000000 0000', 'FRACPACK_BAD_LENGTH', true);
  assert.equal(schema.type('OnlyA').unpack(hex('0800 07000000 00000000'), { compat: true }), { a: 7 });
  assert.equal(schema.type('OnlyA').unpack(hex('0800 07000000 04000000 AABBCC'), { compat: true }), { a: 7 });
  rejects('OnlyA', '0800 07000000 08000000 AABBCCDD EE', 'FRACPACK_BAD_OFFSET', true); // gap before unknown data
});

test('rule 6: the last present slot is never an absent optional', () => {
  rejects('Example1', '0800 07000000 01000000', 'FRACPACK_EMPTY_TRAILING');
  rejects('Example1', '0C00 07000000 00000000 01000000', 'FRACPACK_EMPTY_TRAILING');
  rejects('OnlyA', '0800 07000000 01000000', 'FRACPACK_EMPTY_TRAILING', true);
});

test('rule 7: variant index in range; bodies consumed exactly unless they end in unknown data', () => {
  rejects('AB', '02 04000000 00000000', 'FRACPACK_BAD_VARIANT');
  rejects('AB', '00 05000000 05000000 00', 'FRACPACK_TRAILING_BYTES');
  rejects('Nested', '05000000 07000000 00', 'FRACPACK_TRAILING_BYTES');
  const extended = '00 0D000000 0800 07000000 04000000 AABBCC';
  assert.equal(schema.type('WrapsObject').unpack(hex(extended), { compat: true }), { A: { a: 7 } });
  rejects('WrapsObject', extended, 'FRACPACK_UNKNOWN_FIELD');
});

test('rule 8: the top-level value consumes the whole buffer unless it ends in unknown data', () => {
  rejects('u32', '07000000 00', 'FRACPACK_TRAILING_BYTES');
  rejects('Example1', '0400 07000000 00', 'FRACPACK_TRAILING_BYTES');
  assert.equal(schema.type('OnlyA').unpack(hex('0800 07000000 04000000 AABB'), { compat: true }), { a: 7 });
});

test('rule 9: strings must be valid UTF-8', () => {
  rejects('string', '01000000 FF', 'FRACPACK_BAD_UTF8');
  rejects('string', '02000000 C0AF', 'FRACPACK_BAD_UTF8'); // overlong '/'
  rejects('string', '03000000 EDA080', 'FRACPACK_BAD_UTF8'); // a surrogate
  rejects('string', '02000000 E282', 'FRACPACK_BAD_UTF8'); // truncated sequence
  assert.is(schema.type('string').unpack(hex('03000000 E282AC')), '€');
});

test('compatibility: missing trailing options and extension fields', () => {
  const older = compileSchema({ T: { Object: { a: 'u32' } } }).type('T');
  const newer = compileSchema({ T: { Object: { a: 'u32', b: { Option: 'string' }, c: { List: 'u16' } } } }).type('T');
  const withOptional = compileSchema({ T: { Object: { a: 'u32', b: { Option: 'string' } } } }).type('T');
  const newBytes = newer.pack({ a: 1, b: 'x', c: [3] });
  assert.equal(older.unpack(newBytes, { compat: true }), { a: 1 });
  assert.is(older.check(newBytes)?.code, 'FRACPACK_UNKNOWN_FIELD');
  assert.equal(withOptional.unpack(older.pack({ a: 9 })), { a: 9, b: null });
});

test('FracPack<T> and List<u8> share a wire form', () => {
  const nested = schema.type('Nested');
  const bytes = schema.typeOf({ List: 'u8' });
  assert.equal(bytes.unpack(nested.pack(7)), [7, 0, 0, 0]);
  assert.is(nested.unpack(bytes.pack([7, 0, 0, 0])), 7);
});

test.run();
