// docs/formats.md §3: the JSON mapping of every kind of value.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, type FracpackErrorCode } from '../../../../host-api/index.js';
import { bytesToHex, hex } from '../../../lib/hex.js';

const schema = compileSchema({
  Big: { Object: { u: 'u64', i: 'i64' } },
  Maybe: { Variant: { '@none': { Struct: {} }, '@num': 'u32', '@text': 'string', Tagged: 'u8' } },
  Counts: { Custom: { type: { List: { Object: { key: 'string', value: 'u32' } } }, id: 'map' } },
  ById: { Custom: { type: { List: { Tuple: ['u32', 'string'] } }, id: 'map' } },
  Pairs: { Custom: { type: { List: { Struct: { a: 'u16', b: 'u8' } } }, id: 'hex' } },
  Flags: { Custom: { type: { List: 'bool' }, id: 'hex' } },
  Point: { Custom: { type: { Struct: { x: 'u16', y: 'u16' } }, id: 'hex' } },
  Wrapped: { Custom: { type: { FracPack: 'u32' }, id: 'hex' } },
  EmptyHex: { Custom: { type: { FracPack: { Struct: {} } }, id: 'hex' } },
  EmptyHexInTuple: { Tuple: ['EmptyHex'] },
  EmptyNestedInTuple: { Tuple: [{ FracPack: { Struct: {} } }] },
  EmptyHexInObject: { Object: { a: 'EmptyHex', b: 'u8' } },
  MaybeEmptyHex: { Tuple: [{ Option: 'EmptyHex' }, 'u8'] },
  Unknown: { Custom: { type: 'u32', id: 'no-such-id' } },
  Mismatched: { Custom: { type: 'u32', id: 'string' } },
});

function jsonRejects(type: string, json: unknown, code: FracpackErrorCode = 'FRACPACK_JSON'): void {
  try {
    schema.type(type).fromJson(json);
  } catch (err) {
    assert.is((err as { code: string }).code, code, (err as Error).message);
    return;
  }
  assert.unreachable(`${type} accepted ${JSON.stringify(json)}`);
}

test('ints up to 32 bits are numbers; 64-bit are decimal strings out, number or string in', () => {
  const big = schema.type('Big');
  assert.equal(big.toJson({ u: 18446744073709551615n, i: -9223372036854775808n }), { u: '18446744073709551615', i: '-9223372036854775808' });
  assert.equal(big.fromJson({ u: 5, i: '-7' }), { u: 5n, i: -7n });
  assert.is(schema.type('u32').toJson(4294967295), 4294967295);
  jsonRejects('u64', '18446744073709551616');
  jsonRejects('u64', -1);
  jsonRejects('i64', '9223372036854775808');
  jsonRejects('u8', 256);
  jsonRejects('i8', -129);
  jsonRejects('u32', 1.5);
  jsonRejects('u64', 2 ** 60); // not a safe integer: must come as a string
  jsonRejects('u16', 'abc');
});

test('floats: f32 printed as its exact double; non-finite as strings; NaN packs as the quiet NaN', () => {
  const f32 = schema.type<number>('f32');
  const f64 = schema.type<number>('f64');
  assert.is(JSON.stringify(f32.toJson(f32.unpack(f32.pack(1.401298464324817e-45)))), '1.401298464324817e-45');
  assert.is(f32.toJson(f32.unpack(f32.pack(0.1))), 0.10000000149011612);
  assert.is(f64.toJson(Infinity), 'Infinity');
  assert.is(f64.toJson(-Infinity), '-Infinity');
  assert.is(f64.toJson(NaN), 'NaN');
  assert.is(bytesToHex(f32.pack(f32.fromJson('NaN'))), '0000C07F');
  assert.is(bytesToHex(f64.pack(f64.fromJson('NaN'))), '000000000000F87F');
  assert.is(f64.fromJson('-Infinity'), -Infinity);
  jsonRejects('f64', 'nan');
});

test('bool, string, hex (uppercase out, any case in, exact length for fixed types)', () => {
  assert.is(schema.type('bool').toJson(true), true);
  jsonRejects('bool', 1);
  assert.is(schema.type('string').toJson('héllo'), 'héllo');
  const bytes = schema.type<Uint8Array>('bytes');
  assert.is(bytes.toJson(new Uint8Array([0xab, 0x01])), 'AB01');
  assert.equal([...bytes.fromJson('aBcD')], [0xab, 0xcd]);
  jsonRejects('bytes', 'abc');
  jsonRejects('bytes', 'zz');
  const checksum = schema.type('Checksum256');
  assert.is(checksum.toJson(checksum.fromJson('ab'.repeat(32))), 'AB'.repeat(32));
  jsonRejects('Checksum256', 'AB'.repeat(31));
});

test('hex over a list of fixed structs, a fixed struct and a FracPack holds their raw bytes', () => {
  const pairs = schema.type<Uint8Array>('Pairs');
  const packed = pairs.pack('010002' + '030004');
  assert.is(bytesToHex(packed), '06000000010002030004');
  assert.is(pairs.toJson(pairs.unpack(packed)), '010002030004');
  assert.throws(() => pairs.pack('0100'), /whole number/);
  const flags = schema.type('Flags');
  assert.is(flags.check(flags.pack('0001')), undefined);
  assert.throws(() => flags.pack('02'), /bool/);
  assert.is(flags.check(new Uint8Array([1, 0, 0, 0, 2]))?.code, 'FRACPACK_BAD_BOOL');
  const point = schema.type('Point');
  assert.is(bytesToHex(point.pack('01000200')), '01000200');
  const wrapped = schema.type<Uint8Array>('Wrapped');
  assert.is(wrapped.toJson(wrapped.unpack(wrapped.pack('07000000'))), '07000000');
  assert.is(bytesToHex(wrapped.pack(wrapped.fromJson(7))), '0400000007000000'); // a structured value is packed
  assert.throws(() => wrapped.pack('0700'), /FRACPACK|u32/);
});

test('hex over a FracPack of a zero-size type is, like the FracPack, an always-empty container: offset 0 in a slot', () => {
  const inTuple = schema.type('EmptyHexInTuple');
  const plain = bytesToHex(schema.type('EmptyNestedInTuple').pack([{}]));
  assert.is(plain, '040000000000');
  assert.is(bytesToHex(inTuple.pack([''])), plain);
  assert.is(bytesToHex(inTuple.pack(inTuple.fromJson([{}]))), plain); // a structured value too
  assert.equal(inTuple.toJson(inTuple.unpack(hex(plain))), ['']);
  // A pointer to an empty body is not the container form.
  assert.is(inTuple.check(hex('0400 04000000 00000000'))?.code, 'FRACPACK_BAD_OFFSET');
  assert.throws(() => inTuple.pack(['00']), /do not form one/);
  const inObject = schema.type('EmptyHexInObject');
  assert.is(bytesToHex(inObject.pack({ a: '', b: 7 })), '0500' + '00000000' + '07');
  assert.equal(inObject.toJson(inObject.unpack(hex('0500 00000000 07'))), { a: '', b: 7 });
  const maybe = schema.type('MaybeEmptyHex');
  assert.is(bytesToHex(maybe.pack(['', 7])), '0500' + '00000000' + '07'); // Some shares the slot
  assert.is(bytesToHex(maybe.pack([null, 7])), '0500' + '01000000' + '07');
  assert.equal(maybe.toJson(maybe.unpack(hex('0500 00000000 07'))), ['', 7]);
  assert.is(bytesToHex(schema.type('EmptyHex').pack('')), '00000000'); // standing alone: length 0
});

test('variants: tagged one-key objects; @-named alternatives are untagged, first that packs wins', () => {
  const maybe = schema.type('Maybe');
  assert.equal(maybe.toJson({ '@num': 5 }), 5);
  assert.equal(maybe.toJson({ Tagged: 5 }), { Tagged: 5 });
  assert.equal(maybe.fromJson(5), { '@num': 5 });
  assert.equal(maybe.fromJson('x'), { '@text': 'x' });
  assert.equal(maybe.fromJson({}), { '@none': {} });
  assert.equal(maybe.fromJson({ Tagged: 1 }), { Tagged: 1 });
  assert.is(bytesToHex(maybe.pack('x')), '02' + '05000000' + '01000000' + '78');
  jsonRejects('Maybe', [1]);
  const ab = compileSchema({ AB: { Variant: { A: 'u8', B: 'string' } } }).type('AB');
  assert.throws(() => ab.fromJson({ C: 1 }), /one-key object naming one of A, B/);
  assert.throws(() => ab.fromJson({ A: 1, B: 'x' }), /one-key object/);
});

test('maps: JSON objects in list order; packing accepts the object or the list', () => {
  const counts = schema.type('Counts');
  const list = [{ key: 'b', value: 2 }, { key: 'a', value: 1 }];
  assert.equal(counts.toJson(list), { b: 2, a: 1 });
  assert.equal(Object.keys(counts.toJson(list) as object), ['b', 'a']);
  assert.is(bytesToHex(counts.pack({ b: 2, a: 1 })), bytesToHex(counts.pack(list)));
  assert.equal(counts.unpack(counts.pack({ b: 2, a: 1 })), list);
  const byId = schema.type('ById');
  assert.equal(byId.toJson([[7, 'seven']]), { 7: 'seven' });
  assert.equal(byId.fromJson({ 7: 'seven' }), [[7, 'seven']]);
});

test('objects: absent optional is null, a missing key is absent; a missing required member is its default, or fails when strict', () => {
  const o = compileSchema({ O: { Object: { a: 'u8', b: { Option: 'u8' } } } }).type('O');
  assert.equal(o.fromJson({ a: 1 }), { a: 1, b: null });
  assert.equal(o.toJson({ a: 1, b: null }), { a: 1, b: null });
  assert.equal(o.fromJson({ b: 1 }), { a: 0, b: 1 });
  assert.throws(() => o.fromJson({ b: 1 }, { strict: true }), /O\.a: missing member/);
  assert.equal(o.fromJson({ a: 1 }, { strict: true }), { a: 1, b: null });
  assert.throws(() => o.pack({ b: 1 }), /O\.a: missing member/);
});

test("missing members take psibase's defaults, every kind, at any depth; unknown keys are skipped", () => {
  const kinds = compileSchema({
    Inner: { Struct: { x: 'u16', s: 'string' } },
    Choice: { Variant: { first: 'Inner', second: 'u8' } },
    All: {
      Object: {
        small: 'i32', big: 'u64', float: 'f64', flag: 'bool', text: 'string', data: 'bytes', hash: 'Checksum256',
        owner: 'AccountNumber', method: 'MethodNumber', seconds: 'TimePointSec', micros: 'TimePointUSec',
        list: { List: 'u8' }, fixed: { Array: { type: 'u16', len: 2 } }, maybe: { Option: 'u8' }, inner: 'Inner', choice: 'Choice',
        tuple: { Tuple: ['u8', 'string'] }, nested: { FracPack: 'Inner' },
      },
    },
  }).type('All');
  const defaults = {
    small: 0, big: 0n, float: 0, flag: false, text: '', data: new Uint8Array(0), hash: new Uint8Array(32),
    owner: 0n, method: 0n, seconds: 0n, micros: 0n, list: [], fixed: [0, 0], maybe: null, inner: { x: 0, s: '' },
    choice: { first: { x: 0, s: '' } }, tuple: [0, ''], nested: { x: 0, s: '' },
  };
  assert.equal(kinds.fromJson({}), defaults);
  assert.equal(kinds.fromJson({ unknown: [1, { deep: true }], inner: { s: 'a', extra: 1 }, tuple: [5] }),
    { ...defaults, inner: { x: 0, s: 'a' }, tuple: [5, ''] });
  // The defaults pack: what a transaction of defaults needs.
  assert.equal(kinds.unpack(kinds.pack(kinds.fromJson({}))), defaults);
  assert.throws(() => kinds.fromJson({}, { strict: true }), /All\.small: missing member/);
});

test('a hex type over FracPack<T> left out is the packed default of T', () => {
  const signed = compileSchema({
    T: { Object: { a: 'u8', b: 'string' } },
    Hexed: { Custom: { type: { FracPack: 'T' }, id: 'hex' } },
    S: { Object: { t: 'Hexed', n: 'u8' } },
  });
  assert.equal(signed.type('S').fromJson({ n: 1 }), { t: signed.type('T').pack({ a: 0, b: '' }), n: 1 });
});

test('AccountNumber and MethodNumber map to name strings', () => {
  const account = schema.type<bigint>('AccountNumber');
  const method = schema.type<bigint>('MethodNumber');
  assert.is(account.fromJson('alice'), 351191174077921280n);
  assert.is(account.toJson(331048532879956778n), 'a+42');
  assert.is(bytesToHex(account.pack('a')), '005BB9FDE21E9804');
  assert.is(method.fromJson('credit'), 1492602n);
  assert.is(method.toJson(885881747009n), 'transfer');
  assert.throws(() => account.fromJson('-bad'), /AccountNumber/);
  jsonRejects('AccountNumber', 12);
});

test('TimePointSec and TimePointUSec: RFC 3339 out, any fraction and zone offset in', () => {
  const sec = schema.type<bigint>('TimePointSec');
  const usec = schema.type<bigint>('TimePointUSec');
  assert.is(sec.toJson(1700000000n), '2023-11-14T22:13:20Z');
  assert.is(usec.toJson(1700000000000000n), '2023-11-14T22:13:20.000000Z');
  assert.is(usec.toJson(1700000000123456n), '2023-11-14T22:13:20.123456Z');
  assert.is(sec.fromJson('2023-11-14T22:13:20Z'), 1700000000n);
  assert.is(sec.fromJson('2023-11-14T22:13:20.999Z'), 1700000000n);
  assert.is(usec.fromJson('2023-11-14T22:13:20.5Z'), 1700000000500000n);
  assert.is(usec.fromJson('2023-11-14T22:13:20.1234567Z'), 1700000000123456n);
  assert.is(sec.fromJson('2023-11-15T00:13:20+02:00'), 1700000000n);
  assert.is(sec.fromJson('2023-11-14T21:13:20-0100'), 1700000000n);
  assert.is(sec.fromJson('2023-11-15T00:13:20+02'), 1700000000n);
  assert.is(usec.toJson(-1n), '1969-12-31T23:59:59.999999Z');
  jsonRejects('TimePointSec', '2023-02-30T00:00:00Z');
  jsonRejects('TimePointSec', '2023-11-14 22:13:20');
  jsonRejects('TimePointSec', 1700000000);
});

test('an unknown custom id or a mismatched shape means the underlying type', () => {
  assert.is(schema.type('Unknown').toJson(7), 7);
  assert.is(schema.type('Mismatched').toJson(7), 7);
  assert.is(bytesToHex(schema.type('Mismatched').pack(7)), '07000000');
});

test.run();
