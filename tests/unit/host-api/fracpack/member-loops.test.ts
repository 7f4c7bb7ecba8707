// Compiled and interpreted member loops (host-api/fracpack/codecs/member-loops.ts) are the same
// codec: over seeded random schemas (docs/formats.md §1.1) they pack to the same bytes, unpack to
// equal values, and fail with the same FracpackError code and message, on packing, on every
// prefix of a valid encoding, on random bytes (strict and compat) and on values of other types.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FracpackError, compileSchema, type AnyType, type TypeCodec } from '../../../../host-api/index.js';
import { bytesToHex } from '../../../lib/hex.js';
import { Random } from '../../../lib/random.js';
import { randomType } from '../../../lib/random-schema.js';

const SEED = 20261126;
const TYPES = 300;

interface Both { compiled: TypeCodec; interpreted: TypeCodec }

function both(type: AnyType): Both {
  return {
    compiled: compileSchema({ T: type }, { memberLoops: 'compiled' }).type('T'),
    interpreted: compileSchema({ T: type }, { memberLoops: 'interpreted' }).type('T'),
  };
}

/** What running `f` gave: its result, or the code and message of the FracpackError it threw. */
function outcome(f: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: f() };
  } catch (err) {
    if (!(err instanceof FracpackError)) throw err;
    return { error: `${err.code}: ${err.message}` };
  }
}

/** Both codecs give the same outcome for `run`; answers it. */
function same(codecs: Both, run: (codec: TypeCodec) => unknown, what: string): { value: unknown } | { error: string } {
  const compiled = outcome(() => run(codecs.compiled));
  assert.equal(outcome(() => run(codecs.interpreted)), compiled, what);
  return compiled;
}

const hexOf = (bytes: unknown) => bytesToHex(bytes as Uint8Array);

test(`random schemas (seed ${SEED}): same bytes, values, JSON and errors both ways`, () => {
  const rnd = new Random(SEED);
  let failures = 0;
  for (let t = 0; t < TYPES; t++) {
    const generated = randomType(rnd, 3);
    const where = `type ${JSON.stringify(generated.type)}`;
    // The generator may draw a type the schema rules refuse (a List of a zero-size type): refused alike.
    const built = outcome(() => both(generated.type));
    if ('error' in built) {
      assert.equal(outcome(() => compileSchema({ T: generated.type }, { memberLoops: 'interpreted' }).type('T')), built, where);
      continue;
    }
    const codecs = built.value as Both;
    const value = generated.value(rnd);
    const packed = same(codecs, (c) => hexOf(c.pack(value)), `pack: ${where}`);
    assert.ok('value' in packed, `a generated value packs: ${where}`);
    const bytes = codecs.compiled.pack(value);
    same(codecs, (c) => c.unpack(bytes), `unpack: ${where}`);
    same(codecs, (c) => c.toJson(c.unpack(bytes)), `toJson: ${where}`);
    same(codecs, (c) => hexOf(c.pack(c.fromJson(JSON.parse(JSON.stringify(c.toJson(c.unpack(bytes))))))), `JSON round trip: ${where}`);
    for (let n = 0; n < bytes.length; n++) {
      if ('error' in same(codecs, (c) => c.unpack(bytes.subarray(0, n)), `prefix ${n}: ${where}`)) failures++;
    }
    for (let i = 0; i < 10; i++) {
      const noise = rnd.bytes(rnd.int(24));
      for (const compat of [false, true]) {
        if ('error' in same(codecs, (c) => c.unpack(noise, { compat }), `bytes ${bytesToHex(noise)} compat=${compat}: ${where}`)) failures++;
      }
    }
    const other = randomType(rnd, 2).value(rnd);
    if ('error' in same(codecs, (c) => hexOf(c.pack(other)), `pack a value of another type: ${where}`)) failures++;
  }
  // The comparisons above cover failures too, not only successes.
  assert.ok(failures > TYPES, `${failures} failing cases compared`);
});

test('records: missing members, wrong shapes and extension data fail alike both ways', () => {
  const codecs = both({ Object: { a: 'u32', b: { Option: 'string' }, c: { Tuple: ['u8', 'string'] }, d: { Struct: { x: 'u16', s: 'string' } } } });
  const good = { a: 1, b: 'x', c: [2, 'y'], d: { x: 3, s: 'z' } };
  assert.ok('value' in same(codecs, (c) => hexOf(c.pack(good)), 'a good value'));
  for (const [bad, what] of [
    [{ ...good, a: undefined }, 'a missing member'],
    [{ ...good, c: [2] }, 'a short tuple'],
    [{ ...good, d: { x: 3 } }, 'a struct without a member'],
    [{ ...good, d: [3, 'z'] }, 'an array for a struct'],
    [[1, 'x'], 'an array for an object'],
    [null, 'null'],
  ] as const) {
    assert.ok('error' in same(codecs, (c) => c.pack(bad), what), `${what} fails`);
  }
  const extended = both({ Object: { a: 'u32', b: { Option: 'string' }, c: { Tuple: ['u8', 'string'] }, d: { Struct: { x: 'u16', s: 'string' } }, e: 'string' } })
    .compiled.pack({ ...good, e: 'new' });
  assert.ok('error' in same(codecs, (c) => c.unpack(extended), 'extension data, strict'));
  assert.ok('value' in same(codecs, (c) => c.unpack(extended, { compat: true }), 'extension data, compat'));
});

test('a memberLoops option other than compiled or interpreted is refused, naming it', () => {
  const err = outcome(() => compileSchema({}, { memberLoops: 'fast' as never }));
  assert.equal(err, { error: `FRACPACK_SCHEMA: memberLoops must be 'compiled' or 'interpreted', got "fast"` });
});

test.run();
