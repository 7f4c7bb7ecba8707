// Differential test of the AssemblyScript fracpack against host-api's: random types (every kind
// the SDK expresses) and values packed by host-api must unpack and repack to the same bytes in
// wasm, and random corruptions must be accepted or rejected exactly as host-api does, in strict
// and compat mode alike. The checking reader (`packedProblem`) finds a problem exactly when
// unpack aborts, the same one, without aborting.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema } from '../../../host-api/index.js';
import { bytesToHex } from '../../lib/hex.js';
import { Random } from '../../lib/random.js';
import { program, WasmAbort, type Program } from './program.js';
import { SdkTypeGenerator, type SdkType } from './sdk-random-types.js';

const TYPES = 60;
const VALUES = 4;
const CORRUPTIONS = 12;

const generator = new SdkTypeGenerator(new Random(20240611));
const types: SdkType[] = Array.from({ length: TYPES }, () => generator.type(3));
const source = [
  ...generator.declarations,
  ...types.map((t, i) => `export function repack${i}(strict: bool): void { output = sdk.pack(sdk.unpack<${t.as}>(input, strict)); }`),
  ...types.map((t, i) => `export function problem${i}(strict: bool): void { const p = sdk.packedProblem<${t.as}>(input, strict); output = Uint8Array.wrap(String.UTF8.encode(p === null ? "" : p)); }`),
].join('\n');
const schema = compileSchema({});

function corrupt(rnd: Random, bytes: Uint8Array): Uint8Array {
  switch (rnd.int(3)) {
    case 0: {
      if (bytes.length === 0) return Uint8Array.of(rnd.int(256));
      const out = bytes.slice();
      out[rnd.int(out.length)] = rnd.pick([0, 1, 2, 4, 0xff, rnd.int(256)]);
      return out;
    }
    case 1: return bytes.slice(0, rnd.int(bytes.length));
    default: return Uint8Array.from([...bytes, ...rnd.bytes(1 + rnd.int(4))]);
  }
}

/** The wasm repack, or undefined when it aborts. */
function wasmRepack(p: Program, i: number, bytes: Uint8Array, strict: boolean): Uint8Array | undefined {
  try {
    return p.run(`repack${i}`, bytes, strict ? 1 : 0);
  } catch (err) {
    if (err instanceof WasmAbort) return undefined;
    throw err;
  }
}

/** The checking reader's problem with `bytes` ('' for none); it must not abort. */
function wasmProblem(p: Program, i: number, bytes: Uint8Array, strict: boolean): string {
  return new TextDecoder().decode(p.run(`problem${i}`, bytes, strict ? 1 : 0));
}

types.forEach((type, i) => {
  test(`type ${i}: ${JSON.stringify(type.schema).slice(0, 100)}`, async () => {
    const p = await program('fracpack-differential', source);
    const codec = schema.typeOf(type.schema);
    const rnd = new Random(i + 1);
    for (let v = 0; v < VALUES; v++) {
      const packed = codec.pack(type.value(rnd));
      const repacked = wasmRepack(p, i, packed, true);
      assert.is(wasmProblem(p, i, packed, true), '', `value ${bytesToHex(packed)}: a problem`);
      assert.ok(repacked, `value ${bytesToHex(packed)} was rejected`);
      assert.is(bytesToHex(repacked!), bytesToHex(packed), 'repacked bytes');

      for (let c = 0; c < CORRUPTIONS; c++) {
        const bytes = corrupt(rnd, packed);
        for (const strict of [true, false]) {
          const what = `${strict ? 'strict' : 'compat'} ${bytesToHex(bytes)}`;
          let expected: Uint8Array | undefined;
          try {
            expected = codec.pack(codec.unpack(bytes, { compat: !strict }));
          } catch {
            expected = undefined;
          }
          const actual = wasmRepack(p, i, bytes, strict);
          assert.is(actual !== undefined, expected !== undefined, `${what}: accepted`);
          assert.is(wasmProblem(p, i, bytes, strict), actual ? '' : p.abortOf(`repack${i}`, bytes, strict ? 1 : 0), `${what}: the checking reader's problem`);
          if (!actual || !expected || bytesToHex(actual) === bytesToHex(expected)) continue;
          // Only a NaN's payload may differ (host-api writes the canonical quiet NaN).
          assert.equal(codec.toJson(codec.unpack(actual)), codec.toJson(codec.unpack(expected)), `${what}: repacked value`);
        }
      }
    }
  });
});

test.run();
