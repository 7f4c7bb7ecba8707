// The order-preserving key encoding (docs/host-abi.md §8) and table key layout in AssemblyScript,
// against host-api's KeyWriter and against the order of the values themselves.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KeyWriter, serviceTableKey } from '../../../host-api/abi/keys.js';
import { compileSchema, type AnyType } from '../../../host-api/index.js';
import { bytesToHex, hex } from '../../lib/hex.js';
import { Random } from '../../lib/random.js';
import { sdkProgram } from './sdk-program.js';

const schema = compileSchema({
  Pair: { Struct: { a: 'u32', b: 'string' } },
  TableKeyInput: { Object: { owner: 'u64', table: 'u16', index: 'u8', key: 'string' } },
});
const pack = (type: AnyType, value: unknown) => schema.typeOf(type).pack(value);

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

test('integers and strings encode like KeyWriter', async () => {
  const p = await sdkProgram();
  const cases: [string, AnyType, unknown, Uint8Array][] = [
    ['keyU16', 'u16', 0x1234, new KeyWriter().u16(0x1234).finish()],
    ['keyU32', 'u32', 0xdeadbeef, new KeyWriter().u32(0xdeadbeef).finish()],
    ['keyI32', 'i32', -5, new KeyWriter().i32(-5).finish()],
    ['keyU64', 'u64', 0x0102030405060708n, new KeyWriter().u64(0x0102030405060708n).finish()],
    ['keyI64', 'i64', -(1n << 63n), new KeyWriter().i64(-(1n << 63n)).finish()],
    ['keyString', 'string', 'a\u0000b', new KeyWriter().string('a\u0000b').finish()],
    ['keyString', 'string', '', new KeyWriter().string('').finish()],
  ];
  for (const [fn, type, value, expected] of cases) {
    assert.is(bytesToHex(p.run(fn, pack(type, value))), bytesToHex(expected), `${fn} ${String(value)}`);
  }
});

test('options, small ints, bool, bytes, records and checksums follow docs/host-abi.md §8', async () => {
  const p = await sdkProgram();
  const cases: [string, AnyType, unknown, string][] = [
    ['keyI8', 'i8', -1, '7F'],
    ['keyU8', 'u8', 0, '00'],
    ['keyBool', 'bool', true, '01'],
    ['keyBytes', 'bytes', '0001FF', '0001 01 FF 0000'],
    ['keyOptionU8', { Option: 'u8' }, null, '0000'],
    ['keyOptionU8', { Option: 'u8' }, 0, '0001'],
    ['keyOptionU8', { Option: 'u8' }, 7, '07'],
    ['keyOptionU32', { Option: 'u32' }, null, '00'],
    ['keyOptionU32', { Option: 'u32' }, 7, '01 00000007'],
    ['keyOptionString', { Option: 'string' }, 'x', '01 78 0000'],
    ['keyPair', 'Pair', { a: 1, b: 'z' }, '00000001 7A 0000'],
    ['keyChecksum', 'Checksum256', 'AB'.repeat(32), 'AB'.repeat(32)],
  ];
  for (const [fn, type, value, expected] of cases) {
    assert.is(bytesToHex(p.run(fn, pack(type, value))), bytesToHex(hex(expected)), `${fn} ${JSON.stringify(value)}`);
  }
  assert.ok(p.abortOf('keyF64', pack('f64', 1.5))?.includes('float'));
});

test('keys sort like their values', async () => {
  const p = await sdkProgram();
  const rnd = new Random(11);
  const sorts = <T>(fn: string, type: AnyType, values: T[], compare: (a: T, b: T) => number) => {
    const keyed = values.map((v) => ({ v, key: p.run(fn, pack(type, v)) }));
    keyed.sort((a, b) => compareBytes(a.key, b.key));
    const byValue = [...values].sort(compare);
    assert.equal(keyed.map((k) => k.v), byValue, fn);
  };
  const num = (a: number, b: number) => a - b;
  const big = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
  sorts('keyI16', 'i16', Array.from({ length: 50 }, () => rnd.int(65536) - 32768), num);
  sorts('keyI32', 'i32', Array.from({ length: 50 }, () => rnd.int(2 ** 32) - 2 ** 31), num);
  sorts('keyI64', 'i64', Array.from({ length: 50 }, () => BigInt(rnd.int(2 ** 30) - 2 ** 29) * BigInt(rnd.int(2 ** 30))), big);
  sorts('keyU64', 'u64', Array.from({ length: 50 }, () => BigInt(rnd.int(2 ** 30)) * BigInt(rnd.int(2 ** 30))), big);
  const strings = ['', 'a', 'a\u0000', 'a\u0000b', 'a\u0001', 'ab', 'b', '\u0000', 'é'];
  sorts('keyString', 'string', strings, (a, b) => compareBytes(new TextEncoder().encode(a), new TextEncoder().encode(b)));
  sorts('keyOptionU8', { Option: 'u8' }, [null, 0, 1, 255], (a, b) => (a === null ? -1 : b === null ? 1 : a - b));
});

test('table keys: owner, table, index, encoded key (docs/host-abi.md §8)', async () => {
  const p = await sdkProgram();
  const input = schema.type('TableKeyInput').pack({ owner: 982919391315047424n, table: 3, index: 2, key: 'k' });
  const expected = serviceTableKey(982919391315047424n, 3, 2).string('k').finish();
  assert.is(bytesToHex(p.run('tableKey', input)), bytesToHex(expected));
});

test.run();
