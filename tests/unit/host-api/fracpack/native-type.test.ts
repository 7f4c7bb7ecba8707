// The native value types derived from a schema (host-api/fracpack/native-type.ts) are what the
// codecs produce: a value written as the derived type comes back from pack/unpack deep-equal
// (a number where a bigint is declared, or the reverse, would not), and the derived types of the
// node's rows are the shapes their callers use (checked when the tests compile).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSchema, type ValueOf } from '../../../../host-api/fracpack/index.js';
import type { ActionTrace } from '../../../../host-api/types/index.js';
import type { CodeRow, ServeArgs, StatusRow } from '../../../../host-api/types/native.js';

const SCHEMA = {
  Kinds: {
    Object: {
      flag: 'bool', small: 'u8', word: 'i32', wide: 'u64', odd: { Int: { bits: 33, isSigned: false } }, real: 'f64',
      text: 'string', data: 'bytes', hash: 'Checksum256', account: 'AccountNumber', method: 'MethodNumber',
      seconds: 'TimePointSec', micros: 'TimePointUSec',
      point: 'Point', pair: { Tuple: ['u16', 'string'] }, shape: 'Shape', triple: { Array: { type: 'u32', len: 3 } },
      list: { List: 'i64' }, raw: { List: 'u8' }, nested: { FracPack: 'Point' }, unknownId: { Custom: { type: 'u32', id: 'percent' } },
      misfit: { Custom: { type: 'u32', id: 'string' } }, tree: 'Tree', maybe: { Option: 'u32' },
    },
  },
  Point: { Struct: { x: 'i32', y: 'i32' } },
  Shape: { Variant: { circle: 'u32', polygon: { List: 'Point' } } },
  Tree: { Object: { value: 'u8', children: { List: 'Tree' } } },
} as const;

const kinds = compileSchema(SCHEMA).type('Kinds');

test('a value of the derived type packs and unpacks to itself, every kind of the schema JSON', () => {
  const value: ValueOf<typeof SCHEMA, 'Kinds'> = {
    flag: true, small: 200, word: -5, wide: 1n << 60n, odd: 1n << 32n, real: 0.5,
    text: 'héllo', data: Uint8Array.of(1, 2), hash: new Uint8Array(32).fill(7), account: 12345n, method: 678n,
    seconds: 1_700_000_000n, micros: 1_700_000_000_000_000n,
    point: { x: 1, y: -1 }, pair: [9, 'nine'], shape: { polygon: [{ x: 0, y: 0 }] }, triple: [1, 2, 3],
    list: [-1n, 2n], raw: [1, 2, 3], nested: { x: 3, y: 4 }, unknownId: 42,
    misfit: 7, tree: { value: 1, children: [{ value: 2, children: [] }] }, maybe: null,
  };
  assert.equal(kinds.unpack(kinds.pack(value)), value);
  const circle = { ...value, shape: { circle: 5 }, maybe: 6 };
  assert.equal(kinds.unpack(kinds.pack(circle)), circle);
});

/** True when each of A and B is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only when `same` is Same<A, B> (so a drifted type breaks the build). */
function sameType<A, B>(same: Same<A, B>): boolean {
  return same;
}

test("the node's rows: derived from the schema, in the native forms callers use", () => {
  assert.ok(sameType<StatusRow['current']['time'], bigint>(true));
  assert.ok(sameType<StatusRow['head'], { header: StatusRow['current']; blockId: Uint8Array } | null>(true));
  assert.ok(sameType<StatusRow['consensus']['current']['wasmConfig']['vmOptions']['maxStackBytes'], number>(true));
  assert.ok(sameType<CodeRow, { codeNum: bigint; flags: bigint; codeHash: Uint8Array; vmType: number; vmVersion: number }>(true));
  assert.ok(sameType<ServeArgs['user'], bigint | null>(true));
  assert.ok(sameType<ActionTrace['innerTraces'][number]['inner'], { ConsoleTrace: { console: string } } | { EventTrace: { name: string; data: Uint8Array } } | { ActionTrace: ActionTrace }>(true));
  assert.not(sameType<StatusRow['chainId'], string>(false), 'Same tells different types apart');
});

test.run();
