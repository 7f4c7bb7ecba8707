// docs/formats.md §2: schemas are data. Bad schemas fail when compiled with FRACPACK_SCHEMA;
// recursive types work through indirection; built-ins can be overridden.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, type Schema } from '../../../../host-api/index.js';
import { bytesToHex } from '../../../lib/hex.js';

function schemaRejects(schema: Schema, type: string, pattern: RegExp): void {
  try {
    compileSchema(schema).type(type);
  } catch (err) {
    assert.is((err as { code: string }).code, 'FRACPACK_SCHEMA');
    assert.match((err as Error).message, pattern);
    return;
  }
  assert.unreachable(`schema for ${type} was accepted`);
}

test('unknown names, kinds and shapes are rejected with the reason', () => {
  schemaRejects({ T: 'Nope' }, 'T', /unknown type 'Nope'/);
  schemaRejects({ T: { Bogus: 1 } as never }, 'T', /unknown type kind/);
  schemaRejects({ T: { Int: { bits: 65, isSigned: false } } }, 'T', /bits must be 1\.\.64/);
  schemaRejects({ T: { Float: { exp: 5, mantissa: 10 } } }, 'T', /Float/);
  schemaRejects({ T: { Array: { type: 'u8', len: -1 } } }, 'T', /len/);
  schemaRejects({ T: { List: { Struct: {} } } }, 'T', /zero-size/);
  schemaRejects({ T: { Struct: { self: 'T' } } }, 'T', /infinite size/);
  schemaRejects({ T: { Tuple: 'u8' } as never }, 'T', /Tuple needs an array/);
});

test('recursive types through a List or Option', () => {
  const tree = compileSchema({ Node: { Object: { value: 'u8', children: { List: 'Node' }, next: { Option: 'Node' } } } }).type('Node');
  const value = { value: 1, children: [{ value: 2, children: [], next: null }], next: { value: 3, children: [], next: null } };
  assert.equal(tree.unpack(tree.pack(value)), value);
});

test('array length may be a string; member order is JSON key order', () => {
  const s = compileSchema({ A: { Array: { type: 'u8', len: '3' } }, S: { Struct: { z: 'u8', a: 'u16' } } });
  assert.is(bytesToHex(s.type('A').pack([1, 2, 3])), '010203');
  assert.is(bytesToHex(s.type('S').pack({ z: 1, a: 2 })), '010200');
});

test('a schema definition overrides a built-in name', () => {
  const s = compileSchema({ u64: { Int: { bits: 32, isSigned: false } } });
  assert.is(s.type('u64').pack(1).length, 4);
  assert.ok(s.has('u64') && s.has('string') && !s.has('nope'));
});

test.run();
