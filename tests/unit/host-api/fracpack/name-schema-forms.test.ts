// docs/formats.md §2: psibase writes AccountNumber (and MethodNumber) as a Custom over the struct
// `{value: u64}`, older schemas over `u64`; both read as names with the wire form of a u64, and
// the built-in AccountNumber is psibase's form.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILTIN_TYPES, compileSchema } from '../../../../host-api/index.js';
import { bytesToHex } from '../../../lib/hex.js';

const U64 = { Int: { bits: 64, isSigned: false } } as const;
const forms = {
  structAccount: { Custom: { type: { Struct: { value: U64 } }, id: 'AccountNumber' } },
  u64Account: { Custom: { type: U64, id: 'AccountNumber' } },
  structMethod: { Custom: { type: { Struct: { value: 'u64' } }, id: 'MethodNumber' } },
  // Not a name: a struct with another member name, or two members, is the struct itself.
  otherStruct: { Custom: { type: { Struct: { number: 'u64' } }, id: 'AccountNumber' } },
} as const;
const schema = compileSchema(forms);

test('the built-in AccountNumber is psibase\'s Custom over {value: u64}', () => {
  assert.equal(BUILTIN_TYPES.AccountNumber, { Custom: { type: { Struct: { value: 'u64' } }, id: 'AccountNumber' } });
});

test('both forms of AccountNumber read and write names with the same bytes', () => {
  for (const name of ['structAccount', 'u64Account', 'AccountNumber'] as const) {
    const account = schema.type<bigint>(name);
    assert.is(account.fromJson('alice'), 351191174077921280n, name);
    assert.is(account.toJson(331048532879956778n), 'a+42', name);
    assert.is(bytesToHex(account.pack('a')), '005BB9FDE21E9804', name);
    assert.is(account.unpack(account.pack('bob')), account.fromJson('bob'), name);
  }
  assert.is(schema.type<bigint>('structMethod').toJson(885881747009n), 'transfer');
});

test("the `strings` form: names natively, in every operation, with the same bytes", () => {
  const strings = compileSchema(forms, { names: 'strings' });
  for (const name of ['structAccount', 'u64Account', 'AccountNumber'] as const) {
    const account = strings.type<string | bigint>(name);
    assert.is(account.unpack(schema.type(name).pack('a+42')), 'a+42', name);
    assert.is(bytesToHex(account.pack('a')), '005BB9FDE21E9804', name);
    assert.is(account.fromJson('Alice'), 'alice', name);
    assert.is(account.toJson('Alice'), 'alice', name);
    assert.is(account.toJson(351191174077921280n), 'alice', name);
  }
  assert.is(strings.type('structMethod').unpack(schema.type('structMethod').pack(885881747009n)), 'transfer');
  // A member left out of the JSON takes the default name, the empty one (number 0).
  assert.equal(strings.typeOf({ Object: { who: 'AccountNumber' } }).fromJson({}), { who: '' });
  assert.equal(schema.typeOf({ Object: { who: 'AccountNumber' } }).fromJson({}), { who: 0n });
});

test('a Custom AccountNumber over another struct means that struct', () => {
  const other = schema.type('otherStruct');
  assert.equal(other.toJson(other.fromJson({ number: '5' })), { number: '5' });
});

test.run();
