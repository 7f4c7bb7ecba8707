// docs/formats.md §7: every worked example packs to the given bytes and unpacks to the given JSON.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema } from '../../../../host-api/index.js';
import { bytesToHex, hex } from '../../../lib/hex.js';

const schema = compileSchema({
  Example1: { Object: { a: 'u32', b: { Option: 'string' }, c: { Option: 'u8' } } },
  ListOfStrings: { List: 'string' },
  OptionalBytes: { Option: { List: 'u8' } },
  OptionalOptional: { Option: { Option: 'u8' } },
  AB: { Variant: { A: 'u32', B: 'string' } },
  Pair: { Tuple: ['u16', 'string'] },
  TwoStrings: { Array: { type: 'string', len: 2 } },
  S: { Struct: { x: 'u16', y: 'u8' } },
  PQ: { Object: { p: 'S', q: { List: 'S' } } },
  WithEmpty: { Object: { v0: { Option: 'u32' }, v1: { Struct: {} } } },
});

const examples: [string, unknown, string][] = [
  ['Example1', { a: 7, b: 'hi', c: null }, '0800 07000000 04000000 02000000 6869'],
  ['Example1', { a: 7, b: '', c: 9 }, '0C00 07000000 00000000 04000000 09'],
  ['ListOfStrings', ['a', '', 'bc'], '0C000000 0C000000 00000000 09000000 01000000 61 02000000 6263'],
  ['OptionalBytes', [], '00000000'],
  ['OptionalBytes', [1], '04000000 01000000 01'],
  ['OptionalBytes', null, '01000000'],
  ['OptionalOptional', 5, '04000000 04000000 05'],
  ['AB', { B: 'xy' }, '01 06000000 02000000 7879'],
  ['Pair', [5, 'ok'], '0600 0500 04000000 02000000 6F6B'],
  ['TwoStrings', ['x', 'yz'], '08000000 09000000 01000000 78 02000000 797A'],
  ['PQ', { p: { x: 1, y: 2 }, q: [{ x: 3, y: 4 }] }, '0700 0100 02 04000000 03000000 0300 04'],
  ['WithEmpty', { v0: null, v1: {} }, '0400 01000000'],
];

for (const [type, json, packed] of examples) {
  test(`§7 ${type} ${JSON.stringify(json)} packs to ${packed}`, () => {
    const codec = schema.type(type);
    assert.is(bytesToHex(codec.pack(codec.fromJson(json))), packed.replace(/ /g, ''));
    assert.equal(codec.toJson(codec.unpack(hex(packed))), json);
  });
}

test('§7 Object{v0: Option<u32>, v1: Struct{}} rejects 0000: a non-optional zero-size member stops elision', () => {
  const err = schema.type('WithEmpty').check(hex('0000'));
  assert.ok(err);
  assert.is(err.code, 'FRACPACK_TRUNCATED');
});

test.run();
