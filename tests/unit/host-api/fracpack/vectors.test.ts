// Runs conformance vector files in the format of docs/formats.md §2 (the format psibase publishes
// its fracpack vectors in). Every *.json under tests/vectors/fracpack* is a list of groups, each
// run with compiled and with interpreted member loops.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FracpackError, compileSchema, type Schema } from '../../../../host-api/index.js';
import { bytesToHex, hex } from '../../../lib/hex.js';
import { MEMBER_LOOPS } from '../../../lib/member-loops.js';

interface VectorValue { type: string; fracpack: string; json?: unknown; error?: boolean; compat?: string }
interface VectorGroup { schema: Schema; schema_bin?: string; schema_schema?: Schema; values: VectorValue[] }

// Vectors live in the source tree; tests run from dist/tests/unit/host-api/fracpack.
const VECTORS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'tests', 'vectors');
const files = readdirSync(VECTORS).filter((f) => f.startsWith('fracpack') && f.endsWith('.json'));

function mustFail(decode: () => unknown, what: string): void {
  try {
    decode();
  } catch (err) {
    assert.ok(err instanceof FracpackError, `${what}: expected a FracpackError, got ${String(err)}`);
    return;
  }
  assert.unreachable(`${what}: decoding succeeded`);
}

test('there are vector files', () => {
  assert.ok(files.length > 0);
});

for (const memberLoops of MEMBER_LOOPS) for (const file of files) {
  const groups = JSON.parse(readFileSync(join(VECTORS, file), 'utf8')) as VectorGroup[];
  groups.forEach((group, g) => {
    test(`${file} group ${g}: ${group.values.length} values (${memberLoops} member loops)`, () => {
      const schema = compileSchema(group.schema, { memberLoops });
      if (group.schema_bin !== undefined && group.schema_schema) {
        const packedSchema = compileSchema(group.schema_schema, { memberLoops }).type('schema').pack(group.schema);
        assert.is(bytesToHex(packedSchema), group.schema_bin.toUpperCase(), 'schema_bin');
      }
      for (const v of group.values) {
        const codec = schema.type(v.type);
        const bytes = hex(v.fracpack);
        const what = `${v.type} ${v.fracpack}`;
        if (v.error) {
          mustFail(() => codec.unpack(bytes), what);
          continue;
        }
        const canonical = bytesToHex(bytes);
        if (v.compat !== undefined) {
          const extended = hex(v.compat);
          assert.equal(codec.toJson(codec.unpack(extended, { compat: true })), v.json, `${what} compat decode`);
          assert.is(bytesToHex(codec.pack(codec.unpack(extended, { compat: true }))), canonical, `${what} compat repack`);
          mustFail(() => codec.unpack(extended), `${what} strict decode of extended bytes`);
        }
        const value = codec.unpack(bytes);
        assert.is(bytesToHex(codec.pack(value)), canonical, `${what} repack`);
        if ('json' in v) {
          assert.equal(codec.toJson(value), v.json, `${what} unpack to JSON`);
          assert.is(bytesToHex(codec.pack(codec.fromJson(v.json))), canonical, `${what} pack from JSON`);
        }
        for (let n = 0; n < bytes.length; n++) mustFail(() => codec.unpack(bytes.subarray(0, n)), `${what} prefix ${n}`);
      }
    });
  });
}

test.run();
