// Seeded random round trips over random schemas: pack -> unpack -> pack is identical, every
// strict prefix of a valid encoding fails, JSON text round-trips to the same bytes, and compat
// mode reads valid data exactly as strict mode does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FracpackError, compileSchema } from '../../../../host-api/index.js';
import { bytesToHex } from '../../../lib/hex.js';
import { Random } from '../../../lib/random.js';
import { randomType } from '../../../lib/random-schema.js';

const SEED = 20261121;
const TYPES = 400;
const VALUES_PER_TYPE = 5;

test(`random schemas (seed ${SEED}): pack/unpack/repack, prefixes, JSON, compat`, () => {
  const rnd = new Random(SEED);
  let checked = 0;
  for (let t = 0; t < TYPES; t++) {
    const generated = randomType(rnd, 3);
    const codec = compileSchema({ T: generated.type }).type('T');
    for (let v = 0; v < VALUES_PER_TYPE; v++) {
      const value = generated.value(rnd);
      const where = `type ${JSON.stringify(generated.type)} value #${v}`;
      const packed = codec.pack(value);
      const unpacked = codec.unpack(packed);
      assert.is(bytesToHex(codec.pack(unpacked)), bytesToHex(packed), `repack differs: ${where}`);
      assert.is(bytesToHex(codec.pack(codec.unpack(packed, { compat: true }))), bytesToHex(packed), `compat differs: ${where}`);
      for (let n = 0; n < packed.length; n++) {
        const err = codec.check(packed.subarray(0, n));
        assert.ok(err instanceof FracpackError, `prefix of ${n}/${packed.length} bytes was accepted: ${where}`);
      }
      const jsonText = JSON.stringify(codec.toJson(unpacked));
      assert.is(bytesToHex(codec.pack(codec.fromJson(JSON.parse(jsonText)))), bytesToHex(packed), `JSON round trip differs: ${where} ${jsonText}`);
      checked++;
    }
  }
  assert.is(checked, TYPES * VALUES_PER_TYPE);
});

test('random byte strings never crash the decoder: they decode or fail with a FracpackError', () => {
  const rnd = new Random(SEED + 1);
  for (let t = 0; t < 200; t++) {
    const codec = compileSchema({ T: randomType(rnd, 3).type }).type('T');
    for (let i = 0; i < 20; i++) {
      const bytes = rnd.bytes(rnd.int(40));
      for (const compat of [false, true]) {
        try {
          const value = codec.unpack(bytes, { compat });
          // Whatever decodes strictly must repack to the same bytes.
          if (!compat) assert.is(bytesToHex(codec.pack(value)), bytesToHex(bytes));
        } catch (err) {
          if (!(err instanceof FracpackError)) throw err;
        }
      }
    }
  }
});

test.run();
