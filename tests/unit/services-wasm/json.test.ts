// JSON decoding (docs/formats.md §3) of action arguments, as POST /pack_action uses it: every kind of
// member, packed in wasm and compared with host-api's fromJson + pack; members left out take
// psibase's defaults in both; and malformed JSON or values rejected where host-api rejects them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, type AnyType, type Schema } from '../../../host-api/index.js';
import { bytesToHex } from '../../lib/hex.js';
import { program, utf8 } from './program.js';

const SOURCE = `
import { JsonWriter } from "../../../../services-wasm/sdk/json/writer";
import { encodeUtf8 } from "../../../../services-wasm/sdk/utf8";
@struct class Point { x: i32 = 0; y: i32 = 0; }
@variant class Shape { circle: u32 = 0; polygon: Array<Point> = []; }
type Amount = u64;
@fracpack class Everything {
  flag: bool = false; small: u8 = 0; signed: i16 = 0; word: u32 = 0; big: i64 = 0; amount: Amount = 0;
  single: f32 = 0; double: f64 = 0; text: string = ""; data: Uint8Array = new Uint8Array(0);
  owner: sdk.AccountNumber = 0; seconds: sdk.TimePointSec = 0; micros: sdk.TimePointUSec = 0;
  hash: sdk.Checksum256 = new sdk.Checksum256(); count: sdk.Option<u16> = new sdk.Option<u16>();
  note: string | null = null; points: Array<Point> = []; shape: Shape = new Shape();
  nested: Array<sdk.Option<string> | null> = [];
}
@service("jsontest")
class JsonTest {
  @action everything(value: Everything, extra: sdk.Option<u8>): void {}
}
export function quoteJson(): void {
  output = Uint8Array.wrap(String.UTF8.encode(sdk.jsonString(String.UTF8.decodeUnsafe(input.dataStart, input.length))));
}
// JsonWriter's string(), then 0xff, then encodeUtf8(jsonString()) of the UTF-16 units given;
// then the same for text() and encodeUtf8, and its integers after the first argument (signed).
export function writeJson(signed: i64): void {
  const text = String.UTF16.decodeUnsafe(input.dataStart, input.length);
  const w = new JsonWriter();
  w.string(text);
  w.byte(0xff);
  w.bytes(encodeUtf8(sdk.jsonString(text)));
  w.byte(0xff);
  w.text(text);
  w.byte(0xff);
  w.bytes(encodeUtf8(text));
  w.byte(0xff);
  w.signed(signed);
  w.byte(0x2c);
  w.unsigned(<u64>signed);
  output = w.finish();
}
export function packEverything(): void {
  output = new JsonTest().__packAction("everything", sdk.parseJson(String.UTF8.decodeUnsafe(input.dataStart, input.length)))!;
}
// The same while JSON problems are collected: "packed:" and the bytes, or "problem:" and the first problem.
export function packEverythingOrProblem(): void {
  sdk.startCollectingJsonProblems();
  const packed = new JsonTest().__packAction("everything", sdk.parseJson(String.UTF8.decodeUnsafe(input.dataStart, input.length)))!;
  const problem = sdk.stopCollectingJsonProblems();
  output = Uint8Array.wrap(String.UTF8.encode(problem !== null ? "problem:" + problem : "packed:" + sdk.bytesToHex(packed)));
}
`;

const schema: Schema = {
  Point: { Struct: { x: 'i32', y: 'i32' } },
  Shape: { Variant: { circle: 'u32', polygon: { List: 'Point' } } },
  Everything: {
    Object: {
      flag: 'bool', small: 'u8', signed: 'i16', word: 'u32', big: 'i64', amount: 'u64',
      single: 'f32', double: 'f64', text: 'string', data: 'bytes',
      owner: 'AccountNumber', seconds: 'TimePointSec', micros: 'TimePointUSec',
      hash: 'Checksum256', count: { Option: 'u16' },
      note: { Option: 'string' }, points: { List: 'Point' }, shape: 'Shape',
      nested: { List: { Option: { Option: 'string' } } },
    },
  },
};
const params = compileSchema(schema).typeOf({ Object: { value: 'Everything', extra: { Option: 'u8' } } } as AnyType);

const BASE = {
  flag: true, small: 255, signed: -32768, word: 4294967295, big: '-9223372036854775808', amount: '18446744073709551615',
  single: 1.5, double: -2.25e300, text: 'tëxt\u0000', data: '00ff10AB',
  owner: 'alice', seconds: '2023-11-14T22:13:20Z', micros: '2023-11-14T22:13:20.123456Z',
  hash: 'AB'.repeat(32), count: 7, note: null, points: [{ x: 1, y: -1 }], shape: { polygon: [{ x: 0, y: 2 }] },
  nested: [null, 'x'],
};

const VALID: [string, object][] = [
  ['all members', { value: BASE, extra: 3 }],
  ['absent options', { value: { ...BASE, count: null, note: 'n' } }],
  ['numbers as strings and the other alternative', { value: { ...BASE, small: '7', word: 0, big: 5, shape: { circle: 9 } } }],
  ['special floats', { value: { ...BASE, single: 'Infinity', double: 'NaN' } }],
  ['float text', { value: { ...BASE, single: 3.4028234663852886e38, double: 5e-324 } }],
  ['time zones and fractions', { value: { ...BASE, seconds: '2000-02-29T23:59:59.999+02:30', micros: '1969-12-31T23:59:59.5-01:00' } }],
  ['subaccounts and empty names', { value: { ...BASE, owner: 'a+7' } }],
  ['a missing member', { value: { ...BASE, flag: undefined } }],
  ['no members at all: defaults everywhere, the variant its first alternative', { value: {} }],
  ['no arguments', {}],
  ['unknown keys inside records', { value: { ...BASE, unknown: { deep: [1] }, points: [{ x: 1, z: 2 }] } }],
];

const INVALID: [string, unknown][] = [
  ['an integer out of range', { value: { ...BASE, small: 256 } }],
  ['a negative unsigned integer', { value: { ...BASE, amount: '-1' } }],
  ['a fraction for an integer', { value: { ...BASE, word: 1.5 } }],
  ['a bad bool', { value: { ...BASE, flag: 1 } }],
  ['odd hex', { value: { ...BASE, data: 'abc' } }],
  ['a short checksum', { value: { ...BASE, hash: 'AB' } }],
  ['a bad account', { value: { ...BASE, owner: '-x' } }],
  ['a bad time', { value: { ...BASE, seconds: '2023-02-29T00:00:00Z' } }],
  ['an unknown alternative', { value: { ...BASE, shape: { square: 1 } } }],
  ['two alternatives', { value: { ...BASE, shape: { circle: 1, polygon: [] } } }],
  ['a list that is not an array', { value: { ...BASE, points: {} } }],
];

test("a key naming no argument is refused, as psibase's pack_action does", async () => {
  const p = await packer();
  assert.is(p.abortOf('packEverything', utf8('{"value": {}, "other": 1}')), "action 'everything' does not have argument 'other'");
});

const MALFORMED = ['', '{', '{"value": }', '[1,]', '{"a" 1}', '"\\x"', '01', '1.', 'tru', '{"a": 1} x', '"\u0001"'];

const packer = () => program('json', SOURCE);

for (const [what, json] of VALID) {
  test(`packs ${what} like host-api`, async () => {
    const p = await packer();
    assert.is(bytesToHex(p.run('packEverything', utf8(JSON.stringify(json)))), bytesToHex(params.pack(params.fromJson(json))));
  });
}

for (const [what, json] of INVALID) {
  test(`rejects ${what}, as host-api does`, async () => {
    const p = await packer();
    assert.throws(() => params.fromJson(json));
    assert.ok(p.abortOf('packEverything', utf8(JSON.stringify(json))) !== undefined);
  });
}

test('rejects malformed JSON', async () => {
  const p = await packer();
  for (const text of MALFORMED) {
    assert.throws(() => JSON.parse(text), text);
    assert.match(p.abortOf('packEverything', utf8(text)) ?? '', 'invalid JSON', text);
  }
});

/** What packEverythingOrProblem answers for `text`. */
const collected = (p: Awaited<ReturnType<typeof packer>>, text: string) => new TextDecoder().decode(p.run('packEverythingOrProblem', utf8(text)));

test('while JSON problems are collected: the same bytes, and every refusal is the first problem, as its abort says, without an abort', async () => {
  const p = await packer();
  for (const [what, json] of VALID) {
    assert.is(collected(p, JSON.stringify(json)).toLowerCase(), `packed:${bytesToHex(params.pack(params.fromJson(json)))}`.toLowerCase(), what);
  }
  const refused = [...INVALID.map(([, json]) => JSON.stringify(json)), ...MALFORMED, '[]', '"x"', '{"value": {"shape": {}}}', '{"value": {}, "other": 1}'];
  for (const text of refused) {
    const aborted = p.abortOf('packEverything', utf8(text));
    assert.ok(aborted !== undefined, text);
    assert.is(collected(p, text), `problem:${aborted}`, text);
  }
  // Collecting ends with the call: a problem aborts again afterwards.
  assert.ok(p.abortOf('packEverything', utf8('{')) !== undefined);
});

/** RFC 8259's escapes as the SDK writes them: short forms for quote, backslash, newline, return and tab; \\u00XX for other controls. */
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
function quotedJson(text: string): string {
  const escape = (c: string) => SHORT_ESCAPES[c] ?? (c < ' ' ? `\\u00${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c);
  return `"${[...text].map(escape).join('')}"`;
}

test('jsonString escapes what RFC 8259 requires and copies the rest', async () => {
  const p = await packer();
  const alphabet = ['a', 'Z', ' ', '"', '\\', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f', 'ë', '€', '😀', '/'];
  const random = Array.from({ length: 300 }, () => Array.from({ length: Math.floor(Math.random() * 12) }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join(''));
  for (const text of ['', 'plain text', '"', 'a"b\\c', '\u0000\u001f\n\r\t', 'tëxt €', 'ends with "', '"starts', ...random]) {
    const quoted = new TextDecoder().decode(p.run('quoteJson', utf8(text)));
    assert.is(quoted, quotedJson(text), JSON.stringify(text));
    assert.is(JSON.parse(quoted), text);
  }
});

test('JsonWriter writes the bytes of encodeUtf8 of jsonString and of the text (lone surrogates replaced), and integers in decimal', async () => {
  const p = await packer();
  const alphabet = ['a', ' ', '"', '\\', '\n', '\t', '\u0000', '\u001f', '\u007f', 'ë', '€', '😀', '\ud800', '\udfff', '/'];
  const random = Array.from({ length: 300 }, () => Array.from({ length: Math.floor(Math.random() * 12) }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join(''));
  // Longer than the writer's first buffer: it grows in the middle of a string.
  const long = Array.from({ length: 3000 }, (_, i) => alphabet[i % alphabet.length]).join('');
  const integers = [0n, 9n, 10n, -1n, 1234567890123n, -(1n << 63n), (1n << 63n) - 1n];
  for (const [i, text] of ['', 'plain', '\ud83d', 'x\ude00', long, ...random].entries()) {
    const units = new Uint8Array(new Uint16Array([...text].flatMap((c) => [...Array(c.length).keys()].map((k) => c.charCodeAt(k)))).buffer);
    const integer = integers[i % integers.length]!;
    const parts = splitBytes(p.run('writeJson', units, integer));
    assert.is(bytesToHex(parts[0]!), bytesToHex(parts[1]!), `string() of ${JSON.stringify(text)}`);
    assert.is(bytesToHex(parts[2]!), bytesToHex(parts[3]!), `text() of ${JSON.stringify(text)}`);
    assert.is(new TextDecoder().decode(parts[4]), `${integer},${BigInt.asUintN(64, integer)}`);
  }
});

/** The pieces of `bytes` between 0xff bytes (never in UTF-8). */
function splitBytes(bytes: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0xff) continue;
    parts.push(bytes.subarray(start, i));
    start = i + 1;
  }
  return parts;
}

test.run();
