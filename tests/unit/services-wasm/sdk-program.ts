// One test program over the SDK's non-fracpack pieces (aborts, account names, key encoding, table
// keys, HTTP request accessors), shared by the test files that exercise them.
import { program, type Program } from './program.js';

const SOURCE = `
// Aborts.
export function failCheck(): void { sdk.check(input.length > 0, "input needed"); }
export function failAssert(): void { assert(input.length > 0, "assertion"); }
export function failBounds(): void { output = new Uint8Array(input[3]); }

// Account names: input = UTF-8 name or u64 LE number.
export function accountNumber(): void { output = sdk.pack<u64>(sdk.account(String.UTF8.decodeUnsafe(input.dataStart, input.length))); }
export function isValidAccountName(): void { output = sdk.pack<bool>(sdk.isValidAccountName(String.UTF8.decodeUnsafe(input.dataStart, input.length))); }
export function accountName(): void { output = sdk.encodeKey<string>(sdk.accountName(sdk.unpack<u64>(input))); }

// Method names: input = UTF-8 name.
export function methodNumber(): void { output = sdk.pack<u64>(sdk.methodNumber(String.UTF8.decodeUnsafe(input.dataStart, input.length))); }

// Key encoding of a packed value.
@struct class Pair { a: u32 = 0; b: string = ""; }
export function keyU8(): void { output = sdk.encodeKey(sdk.unpack<u8>(input)); }
export function keyI8(): void { output = sdk.encodeKey(sdk.unpack<i8>(input)); }
export function keyU16(): void { output = sdk.encodeKey(sdk.unpack<u16>(input)); }
export function keyI16(): void { output = sdk.encodeKey(sdk.unpack<i16>(input)); }
export function keyU32(): void { output = sdk.encodeKey(sdk.unpack<u32>(input)); }
export function keyI32(): void { output = sdk.encodeKey(sdk.unpack<i32>(input)); }
export function keyU64(): void { output = sdk.encodeKey(sdk.unpack<u64>(input)); }
export function keyI64(): void { output = sdk.encodeKey(sdk.unpack<i64>(input)); }
export function keyBool(): void { output = sdk.encodeKey(sdk.unpack<bool>(input)); }
export function keyString(): void { output = sdk.encodeKey(sdk.unpack<string>(input)); }
export function keyBytes(): void { output = sdk.encodeKey(sdk.unpack<Uint8Array>(input)); }
export function keyOptionU8(): void { output = sdk.encodeKey(sdk.unpack<sdk.Option<u8>>(input)); }
export function keyOptionU32(): void { output = sdk.encodeKey(sdk.unpack<sdk.Option<u32>>(input)); }
export function keyOptionString(): void { output = sdk.encodeKey(sdk.unpack<string | null>(input)); }
export function keyPair(): void { output = sdk.encodeKey(sdk.unpack<Pair>(input)); }
export function keyChecksum(): void { output = sdk.encodeKey(sdk.unpack<sdk.Checksum256>(input)); }
export function keyF64(): void { output = sdk.encodeKey(sdk.unpack<f64>(input)); }

// Table keys: owner, table, index and a string key.
@fracpack class TableKeyInput { owner: u64 = 0; table: u16 = 0; index: u8 = 0; key: string = ""; }
export function tableKey(): void {
  const i = sdk.unpack<TableKeyInput>(input);
  const location = new sdk.TableLocation(sdk.DbId.service, i.owner, i.table);
  output = location.key<string>(i.index, i.key);
}

// HTTP request accessors: input = a request and a name.
@fracpack class RequestAndName { request: sdk.HttpRequest = new sdk.HttpRequest(); name: string = ""; }
function request(): RequestAndName { return sdk.unpack<RequestAndName>(input); }
export function path(): void { output = sdk.pack(request().request.path()); }
export function queryParam(): void { const r = request(); output = sdk.pack(r.request.queryParam(r.name)); }
export function query(): void {
  const params = request().request.query();
  const out = new Array<sdk.HttpHeader>();
  for (let i = 0; i < params.length; i++) out.push(new sdk.HttpHeader(params[i].name, params[i].value));
  output = sdk.pack(out);
}
export function header(): void { const r = request(); output = sdk.pack(r.request.header(r.name)); }
export function headerValues(): void { const r = request(); output = sdk.pack(r.request.headerValues(r.name)); }
export function cookies(): void { const r = request(); output = sdk.pack(r.request.cookies(r.name)); }
export function removeHeader(): void { const r = request(); r.request.removeHeader(r.name); output = sdk.pack(r.request); }
export function removeCookie(): void { const r = request(); r.request.removeCookie(r.name); output = sdk.pack(r.request); }
`;

export function sdkProgram(): Promise<Program> {
  return program('sdk-functions', SOURCE);
}
