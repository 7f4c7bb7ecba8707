// docs/formats.md §1.1-1.2 records as both ways of running member loops handle them (compiled and
// interpreted): any member name is data (never code), errors name the member they come from,
// records of no members and of many, and tuples as arrays.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, FracpackError } from '../../../../host-api/index.js';
import { bytesToHex, hex } from '../../../lib/hex.js';
import { MEMBER_LOOPS } from '../../../lib/member-loops.js';

const ODD_NAMES = ['a-b', 'with "quotes"', "it's", 'back\\slash', 'line\nbreak', 'sep\u2028arator', '}); throw 1; ({', '__proto__', 'constructor', '0', ''];

for (const memberLoops of MEMBER_LOOPS) {
  test(`members with names that are not identifiers pack and unpack as own properties (${memberLoops} member loops)`, () => {
    const members = Object.fromEntries(ODD_NAMES.map((name, i) => [name, i % 2 ? 'string' : 'u16']));
    const type = compileSchema({ Odd: { Object: members } }, { memberLoops }).type('Odd');
    const value: Record<string, unknown> = {};
    ODD_NAMES.forEach((name, i) => Object.defineProperty(value, name, { value: i % 2 ? `v${i}` : i, enumerable: true }));
    const unpacked = type.unpack(type.pack(value)) as Record<string, unknown>;
    assert.equal(Object.keys(unpacked), Object.keys(value), 'members in schema order');
    for (const [i, name] of ODD_NAMES.entries()) {
      assert.ok(Object.hasOwn(unpacked, name), `own member ${JSON.stringify(name)}`);
      assert.is(unpacked[name], i % 2 ? `v${i}` : i);
    }
    assert.is(Object.getPrototypeOf(unpacked), Object.prototype, '__proto__ is a member, not the prototype');
    assert.equal(bytesToHex(type.pack(unpacked)), bytesToHex(type.pack(value)));
  });

  test(`a struct, an object and a tuple of no members (${memberLoops} member loops)`, () => {
    const schema = compileSchema({ S: { Struct: {} }, O: { Object: {} }, T: { Tuple: [] } }, { memberLoops });
    assert.is(bytesToHex(schema.type('S').pack({})), '');
    assert.equal(schema.type('S').unpack(new Uint8Array(0)), {});
    assert.is(bytesToHex(schema.type('O').pack({})), '0000');
    assert.equal(schema.type('O').unpack(hex('0000')), {});
    assert.equal(schema.type('T').unpack(schema.type('T').pack([])), []);
    assert.is(schema.type('O').check(hex('0400 00000000'))?.code, 'FRACPACK_UNKNOWN_FIELD');
  });

  test(`an object of 300 members: every slot and heap part in its place (${memberLoops} member loops)`, () => {
    const members = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`m${i}`, i % 3 === 0 ? 'string' : i % 3 === 1 ? 'u8' : { Option: 'u32' }]));
    const type = compileSchema({ Big: { Object: members } }, { memberLoops }).type('Big');
    const value = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`m${i}`, i % 3 === 0 ? `s${i}` : i % 3 === 1 ? i % 256 : i]));
    const packed = type.pack(value);
    // Fixed area: 100 string offsets + 100 u8 + 100 option offsets = 900 bytes after the u16.
    assert.is(packed[0]! | (packed[1]! << 8), 900);
    assert.equal(type.unpack(packed), value);
    // Dropping trailing absent options: the last member (m299, an Option) absent shortens the fixed area.
    const shorter = type.pack({ ...value, m299: null });
    assert.is(shorter[0]! | (shorter[1]! << 8), 896);
    assert.equal(type.unpack(shorter), { ...value, m299: null });
  });

  test(`tuples are arrays, members by position (${memberLoops} member loops)`, () => {
    const type = compileSchema({ P: { Tuple: ['u16', 'string', { Option: 'u8' }] } }, { memberLoops }).type('P');
    assert.equal(type.unpack(type.pack([7, 'x', 9])), [7, 'x', 9]);
    assert.equal(type.unpack(type.pack([7, 'x', null])), [7, 'x', null]);
    assert.ok(Array.isArray(type.unpack(type.pack([1, '', null]))));
  });

  test(`errors name the member path they come from, in packing and unpacking (${memberLoops} member loops)`, () => {
    const schema = compileSchema({
      Inner: { Object: { x: 'u8', s: 'string' } },
      Outer: { Object: { id: 'u32', inner: 'Inner' } },
      Fixed: { Struct: { a: 'u16', b: 'u8' } },
      Pair: { Tuple: ['u8', 'string'] },
    }, { memberLoops });
    const outer = schema.type('Outer');
    assert.throws(() => outer.pack({ id: 1, inner: { x: 300, s: '' } }), /Outer\.inner: Inner\.x: /);
    assert.throws(() => outer.pack({ id: 1, inner: { x: 1 } }), /Outer\.inner: Inner\.s: missing member/);
    assert.throws(() => schema.type('Fixed').pack({ a: 1 }), /Fixed\.b: missing member/);
    assert.throws(() => schema.type('Pair').pack([1, 2]), /Pair\[1\]: /);
    // Outer { id: 1, inner: { x: 2, s: "\xFF" } } with the string's byte made invalid UTF-8.
    const bytes = outer.pack({ id: 1, inner: { x: 2, s: 'a' } });
    bytes[bytes.length - 1] = 0xff;
    const err = outer.check(bytes);
    assert.instance(err, FracpackError);
    assert.is(err!.code, 'FRACPACK_BAD_UTF8');
    assert.match(err!.message, /^Outer\.inner: Inner\.s: /);
  });

  test(`a short fixed area: the member it ends in, or the first missing non-optional, is named (${memberLoops} member loops)`, () => {
    const type = compileSchema({ E: { Object: { a: 'u32', b: 'u16', c: { Option: 'u8' } } } }, { memberLoops }).type('E');
    const inside = type.check(hex('0500 07000000 01'));
    assert.is(inside?.code, 'FRACPACK_BAD_LENGTH');
    assert.match(inside!.message, /ends inside member b/);
    const missing = type.check(hex('0400 07000000'));
    assert.is(missing?.code, 'FRACPACK_TRUNCATED');
    assert.match(missing!.message, /non-optional member b is missing/);
    assert.equal(type.unpack(hex('0600 07000000 0800')), { a: 7, b: 8, c: null });
  });
}

test.run();
