// The worked examples of docs/formats.md §7 (and a generic record), packed and unpacked by the
// AssemblyScript SDK, and the SDK's core types packed like host-api's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Action, CORE_SCHEMA, HttpReply, HttpRequest, compileSchema } from '../../../host-api/index.js';
import { bytesToHex, hex } from '../../lib/hex.js';
import { program } from './program.js';

const EXAMPLES = `
@fracpack class Ex1 { a: u32 = 0; b: string | null = null; c: sdk.Option<u8> = new sdk.Option<u8>(); }
@variant class AB { A: u32 = 0; B: string = ""; }
@fracpack class Pair { first: u16 = 0; second: string = ""; }
@struct class S { x: u16 = 0; y: u8 = 0; }
@fracpack class PQ { p: S = new S(); q: Array<S> = []; }
@struct class Empty {}
@fracpack class V0V1 { v0: sdk.Option<u32> = new sdk.Option<u32>(); v1: Empty = new Empty(); }
@struct class Tapos { expiration: sdk.TimePointSec = 0; refBlockSuffix: u32 = 0; flags: u16 = 0; refBlockIndex: u8 = 0; }
@fracpack class Claim { service: sdk.AccountNumber = 0; rawData: Uint8Array = new Uint8Array(0); }
@fracpack class Box<T> { value!: T; label: string = ""; }
@fracpack class Transaction { tapos: Tapos = new Tapos(); actions: Array<sdk.Action> = []; claims: Array<Claim> = []; }

function ex1(b: string | null, c: sdk.Option<u8>): Ex1 { const v = new Ex1(); v.a = 7; v.b = b; v.c = c; return v; }
export function ex1WithString(): void { output = sdk.pack(ex1("hi", sdk.none<u8>())); }
export function ex1WithOption(): void { output = sdk.pack(ex1("", sdk.some<u8>(9))); }
export function listOfStrings(): void { output = sdk.pack<Array<string>>(["a", "", "bc"]); }
export function optionalList(which: i32): void {
  const values: Array<Array<u8> | null> = [[], [1], null];
  output = sdk.pack<Array<u8> | null>(values[which]);
}
export function optionalBytes(which: i32): void {
  const one = new Uint8Array(1); one[0] = 1;
  const values: Array<Uint8Array | null> = [new Uint8Array(0), one, null];
  output = sdk.pack<Uint8Array | null>(values[which]);
}
export function optionOfOption(): void { output = sdk.pack<sdk.Option<u8> | null>(sdk.some<u8>(5)); }
export function optionOfOptionClass(): void { output = sdk.pack<sdk.Option<sdk.Option<u8>>>(sdk.some<sdk.Option<u8>>(sdk.some<u8>(5))); }
export function variantB(): void { const v = new AB(); v.tag = 1; v.B = "xy"; output = sdk.pack(v); }
export function pair(): void { const v = new Pair(); v.first = 5; v.second = "ok"; output = sdk.pack(v); }
export function pq(): void {
  const v = new PQ(); v.p.x = 1; v.p.y = 2;
  const s = new S(); s.x = 3; s.y = 4; v.q = [s];
  output = sdk.pack(v);
}
export function v0v1(): void { output = sdk.pack(new V0V1()); }
export function transaction(): void {
  const t = new Transaction();
  t.tapos.expiration = 1700000000; t.tapos.refBlockSuffix = 0x11223344; t.tapos.refBlockIndex = 5;
  const data = new Uint8Array(2); data[0] = 1; data[1] = 2;
  t.actions = [new sdk.Action(sdk.account("alice"), sdk.account("tokens"), 1492602, data)];
  output = sdk.pack(t);
}
export function genericRecord(): void { const b = new Box<Array<string>>(); b.value = ["a"]; output = sdk.pack(b); }
export function repackGenericRecord(strict: bool): void { output = sdk.pack(sdk.unpack<Box<Array<string>>>(input, strict)); }
export function lone(): void { output = sdk.pack<string>("a" + String.fromCharCode(0xd800) + "b"); }
export function httpRequest(): void {
  const headers = [new sdk.HttpHeader("Accept", "*/*"), new sdk.HttpHeader("Cookie", "a=1")];
  output = sdk.pack(new sdk.HttpRequest("x.tsibase.localhost", "POST", "/p?q=1", "application/json", headers, sdk.some<u8>(0).value == 0 ? new Uint8Array(3) : new Uint8Array(0)));
}
export function httpReply(): void { output = sdk.pack(sdk.HttpReply.json("[1]", 201).withHeader("X-A", "b")); }

export function repackEx1(strict: bool): void { output = sdk.pack(sdk.unpack<Ex1>(input, strict)); }
export function repackStrings(strict: bool): void { output = sdk.pack(sdk.unpack<Array<string>>(input, strict)); }
export function repackOptionalList(strict: bool): void { output = sdk.pack(sdk.unpack<Array<u8> | null>(input, strict)); }
export function repackOptionOfOption(strict: bool): void { output = sdk.pack(sdk.unpack<sdk.Option<u8> | null>(input, strict)); }
export function repackAB(strict: bool): void { output = sdk.pack(sdk.unpack<AB>(input, strict)); }
export function repackPair(strict: bool): void { output = sdk.pack(sdk.unpack<Pair>(input, strict)); }
export function repackPQ(strict: bool): void { output = sdk.pack(sdk.unpack<PQ>(input, strict)); }
export function repackV0V1(strict: bool): void { output = sdk.pack(sdk.unpack<V0V1>(input, strict)); }
export function repackTransaction(strict: bool): void { output = sdk.pack(sdk.unpack<Transaction>(input, strict)); }
export function repackHttpRequest(strict: bool): void { output = sdk.pack(sdk.unpack<sdk.HttpRequest>(input, strict)); }
@fracpack class Forward { request: sdk.Packed<sdk.HttpRequest> = sdk.Packed.of<sdk.HttpRequest>(new sdk.HttpRequest()); note: string = ""; }
export function repackPackedEx1(strict: bool): void { output = sdk.pack(sdk.unpack<sdk.Packed<Ex1>>(input, strict)); }
export function keptBytesOfEx1(strict: bool): void { output = sdk.unpack<sdk.Packed<Ex1>>(input, strict).bytes; }
export function stringOfPackedEx1(): void { output = Uint8Array.wrap(String.UTF8.encode(sdk.unpack<sdk.Packed<Ex1>>(input).value.b!)); }
export function repackForward(): void { output = sdk.pack(sdk.unpack<Forward>(input)); }
export function hostOfForward(): void { output = Uint8Array.wrap(String.UTF8.encode(sdk.unpack<Forward>(input).request.value.host)); }
export function packedOfNew(): void { output = sdk.pack(sdk.Packed.of<Pair>(sdk.unpack<Pair>(input))); }
export function repackBool(strict: bool): void { output = sdk.pack(sdk.unpack<bool>(input, strict)); }
export function repackString(strict: bool): void { output = sdk.pack(sdk.unpack<string>(input, strict)); }
`;

const examples = () => program('fracpack-examples', EXAMPLES);

const TRANSACTION = '1700 00F1536500000000 44332211 0000 05 08000000 00000000 04000000 04000000 1C00 00B82A1B83AEDF04 00342D8AFA07A40D 7AC6160000000000 04000000 02000000 0102';

// [export that packs, argument, expected bytes, export that repacks]
const VECTORS: [string, number | undefined, string, string][] = [
  ['ex1WithString', undefined, '0800 07000000 04000000 02000000 6869', 'repackEx1'],
  ['ex1WithOption', undefined, '0C00 07000000 00000000 04000000 09', 'repackEx1'],
  ['listOfStrings', undefined, '0C000000 0C000000 00000000 09000000 01000000 61 02000000 6263', 'repackStrings'],
  ['optionalList', 0, '00000000', 'repackOptionalList'],
  ['optionalList', 1, '04000000 01000000 01', 'repackOptionalList'],
  ['optionalList', 2, '01000000', 'repackOptionalList'],
  ['optionalBytes', 0, '00000000', 'repackOptionalList'],
  ['optionalBytes', 1, '04000000 01000000 01', 'repackOptionalList'],
  ['optionalBytes', 2, '01000000', 'repackOptionalList'],
  ['optionOfOption', undefined, '04000000 04000000 05', 'repackOptionOfOption'],
  ['optionOfOptionClass', undefined, '04000000 04000000 05', 'repackOptionOfOption'],
  ['variantB', undefined, '01 06000000 02000000 7879', 'repackAB'],
  ['pair', undefined, '0600 0500 04000000 02000000 6F6B', 'repackPair'],
  ['pq', undefined, '0700 0100 02 04000000 03000000 0300 04', 'repackPQ'],
  ['v0v1', undefined, '0400 01000000', 'repackV0V1'],
  ['transaction', undefined, TRANSACTION, 'repackTransaction'],
  // Not in docs/formats.md: a generic record, Object{value: List<string>, label: string}.
  ['genericRecord', undefined, '0800 08000000 00000000 04000000 04000000 01000000 61', 'repackGenericRecord'],
];

for (const [name, arg, expected, repack] of VECTORS) {
  const label = `${name}${arg === undefined ? '' : `(${arg})`}`;
  test(`${label} packs as docs/formats.md §7 says`, async () => {
    const p = await examples();
    const bytes = arg === undefined ? p.run(name) : p.run(name, undefined, arg);
    assert.is(bytesToHex(bytes), bytesToHex(hex(expected)));
  });

  test(`${label}: unpack then pack gives the same bytes; every strict prefix fails`, async () => {
    const p = await examples();
    const bytes = hex(expected);
    assert.is(bytesToHex(p.run(repack, bytes, 1)), bytesToHex(bytes));
    for (let n = 0; n < bytes.length; n++) {
      assert.ok(p.abortOf(repack, bytes.subarray(0, n), 1) !== undefined, `prefix of ${n} bytes decoded`);
    }
  });
}

test('a lone surrogate packs as U+FFFD, like TextEncoder', async () => {
  const p = await examples();
  assert.is(bytesToHex(p.run('lone')), '05000000' + bytesToHex(new TextEncoder().encode('a\uD800b')));
});

test('HttpRequest and HttpReply pack like host-api', async () => {
  const p = await examples();
  const request = HttpRequest.pack({
    host: 'x.tsibase.localhost', method: 'POST', target: '/p?q=1', contentType: 'application/json',
    headers: [{ name: 'Accept', value: '*/*' }, { name: 'Cookie', value: 'a=1' }], body: new Uint8Array(3),
  });
  assert.is(bytesToHex(p.run('httpRequest')), bytesToHex(request));
  assert.is(bytesToHex(p.run('repackHttpRequest', request, 1)), bytesToHex(request));
  const reply = HttpReply.pack({ status: 201, contentType: 'application/json', body: new TextEncoder().encode('[1]'), headers: [{ name: 'X-A', value: 'b' }] });
  assert.is(bytesToHex(p.run('httpReply')), bytesToHex(reply));
});

test('the transaction of docs/formats.md §7 has the Action of host-api', async () => {
  const p = await examples();
  const action = Action.pack({ sender: 'alice', service: 'tokens', method: 'credit', rawData: '0102' });
  assert.ok(bytesToHex(p.run('transaction')).includes(bytesToHex(action)));
});

test('decoding rules: trailing bytes, bad bools, bad UTF-8, misplaced offsets, rule 6', async () => {
  const p = await examples();
  const fails = (fn: string, bytes: string, why: string) => assert.ok(p.abortOf(fn, hex(bytes), 1) !== undefined, why);
  fails('repackBool', '02', 'bool 2');
  fails('repackBool', '0100', 'trailing byte');
  fails('repackString', '02000000 C328', 'invalid UTF-8');
  fails('repackString', '03000000 EDA080', 'UTF-8 surrogate');
  fails('repackString', '02000000 C081', 'overlong UTF-8');
  fails('repackStrings', '04000000 08000000 00000000 01000000 61', 'offset past the next heap object');
  fails('repackStrings', '04000000 04000000 00000000', 'pointer to an empty list');
  fails('repackEx1', '0C00 07000000 00000000 01000000', 'last slot is an absent option');
  fails('repackEx1', '0600 07000000 0000', 'fixed area ends inside a member');
  fails('repackAB', '02 04000000 00000000', 'unknown variant tag');
  fails('repackAB', '00 05000000 0000000000', 'variant body not consumed');
  assert.is(bytesToHex(p.run('repackString', hex('04000000 F09F9880'), 1)), '04000000F09F9880', 'a 4-byte code point');
});

test('unknown fields: rejected when strict, skipped otherwise', async () => {
  const p = await examples();
  const extended = hex('1000 07000000 0C000000 01000000 00000000 02000000 6869');
  assert.ok(p.abortOf('repackEx1', extended, 1) !== undefined);
  assert.is(bytesToHex(p.run('repackEx1', extended, 0)), bytesToHex(hex('0800 07000000 04000000 02000000 6869')));
});

test('Packed<T> keeps the bytes it was read from and packs them back as they came', async () => {
  const p = await examples();
  const ex1 = hex('0800 07000000 04000000 02000000 6869');
  assert.is(bytesToHex(p.run('keptBytesOfEx1', ex1, 1)), bytesToHex(ex1));
  assert.is(bytesToHex(p.run('repackPackedEx1', ex1, 1)), bytesToHex(ex1));
  assert.is(new TextDecoder().decode(p.run('stringOfPackedEx1', ex1)), 'hi');
  for (let n = 0; n < ex1.length; n++) assert.ok(p.abortOf('repackPackedEx1', ex1.subarray(0, n), 1) !== undefined, `prefix of ${n} bytes decoded`);
  const pair = hex('0600 0500 04000000 02000000 6F6B');
  assert.is(bytesToHex(p.run('packedOfNew', pair)), bytesToHex(pair), 'Packed.of packs as T');
});

test('Packed<T> inside a record: the member packs as T, its value decoded', async () => {
  const p = await examples();
  const request = {
    host: 'x.tsibase.localhost', method: 'GET', target: '/', contentType: '',
    headers: [{ name: 'Accept', value: '*/*' }], body: new Uint8Array(2),
  };
  const forward = compileSchema({ ...CORE_SCHEMA, Forward: { Object: { request: 'HttpRequest', note: 'string' } } }).type('Forward');
  const bytes = forward.pack({ request, note: 'n' });
  assert.is(bytesToHex(p.run('repackForward', bytes)), bytesToHex(bytes));
  assert.is(new TextDecoder().decode(p.run('hostOfForward', bytes)), 'x.tsibase.localhost');
});

test('Packed<T> of data with unknown fields keeps them, unless their extent is unknown', async () => {
  const p = await examples();
  // An unknown trailing field of offset 0 (an empty container): every byte is accounted for.
  const emptyUnknown = hex('1000 07000000 0C000000 01000000 00000000 02000000 6869');
  assert.is(bytesToHex(p.run('keptBytesOfEx1', emptyUnknown, 0)), bytesToHex(emptyUnknown));
  // An unknown field pointing to data of a type this reader does not know: T's own encoding is kept.
  const sizedUnknown = hex('1000 07000000 0C000000 01000000 0A000000 02000000 6869 01000000 41');
  assert.is(bytesToHex(p.run('keptBytesOfEx1', sizedUnknown, 0)), bytesToHex(hex('0800 07000000 04000000 02000000 6869')));
  assert.ok(p.abortOf('keptBytesOfEx1', sizedUnknown, 1) !== undefined, 'strict mode rejects unknown fields');
});

test.run();
