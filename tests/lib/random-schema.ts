// Random fracpack types and values for property tests: every kind of docs/formats.md §1.1, nested
// a few levels deep, with values drawn to exercise empty containers, absent optionals and
// extreme integers.
import type { AnyType } from '../../host-api/index.js';
import type { Random } from './random.js';

interface RandomType {
  type: AnyType;
  value: (rnd: Random) => unknown;
}

const ACCOUNT_NAMES = ['', 'a', 'alice', 'tokens', 'verify-sig', 'zzzzzzzzzz', '0', 'a-b-c', 'x1'];
const STRINGS = ['', 'a', 'hello', 'ünïcødé', '€', '😀 emoji', 'line\nbreak', 'x'.repeat(40)];

function leaf(rnd: Random): RandomType {
  switch (rnd.int(13)) {
    case 0: {
      const bits = rnd.pick([8, 16, 32, 12, 24]);
      const isSigned = rnd.bool();
      const min = isSigned ? -(2 ** (bits - 1)) : 0;
      const max = isSigned ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
      return { type: { Int: { bits, isSigned } }, value: (r) => r.pick([min, max, 0, min + r.int(max - min + 1)]) };
    }
    case 1: {
      const bits = rnd.pick([64, 40]);
      const isSigned = rnd.bool();
      const min = isSigned ? -(1n << BigInt(bits - 1)) : 0n;
      const max = isSigned ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
      return { type: { Int: { bits, isSigned } }, value: (r) => r.pick([min, max, 0n, BigInt(r.int(1e9)) * (isSigned && r.bool() ? -1n : 1n)]) };
    }
    case 2: return { type: 'f32', value: (r) => r.pick([0, 1.5, Math.fround(r.next() * 1e6), Infinity, -Infinity, NaN, 1.401298464324817e-45]) };
    case 3: return { type: 'f64', value: (r) => r.pick([0, -1.25, r.next() * 1e300, Number.MAX_VALUE, NaN, 5e-324]) };
    case 4: return { type: 'bool', value: (r) => r.bool() };
    case 5: return { type: 'string', value: (r) => r.pick(STRINGS) };
    case 6: return { type: 'bytes', value: (r) => r.bytes(r.pick([0, 1, 5, 33])) };
    case 7: return { type: 'AccountNumber', value: (r) => r.pick(ACCOUNT_NAMES) };
    case 8: return { type: 'TimePointSec', value: (r) => BigInt(r.int(4e9)) };
    case 9: return { type: 'TimePointUSec', value: (r) => BigInt(r.int(4e9)) * 1_000_000n + BigInt(r.int(1e6)) };
    case 10: return { type: 'Checksum256', value: (r) => r.bytes(32) };
    case 11: return { type: { Struct: {} }, value: () => ({}) };
    default: return { type: 'u8', value: (r) => r.int(256) };
  }
}

function members(rnd: Random, depth: number): [string, RandomType][] {
  const n = rnd.int(4);
  return Array.from({ length: n }, (_, i) => [`m${i}`, randomType(rnd, depth - 1)]);
}

export function randomType(rnd: Random, depth: number): RandomType {
  if (depth <= 0 || rnd.next() < 0.3) return leaf(rnd);
  switch (rnd.int(9)) {
    case 0: {
      const el = randomType(rnd, depth - 1);
      if (isZeroSize(el.type)) return el;
      return { type: { List: el.type }, value: (r) => Array.from({ length: r.pick([0, 1, 3]) }, () => el.value(r)) };
    }
    case 1: {
      const inner = randomType(rnd, depth - 1);
      return { type: { Option: inner.type }, value: (r) => (r.next() < 0.3 ? null : inner.value(r)) };
    }
    case 2:
    case 3: {
      const ms = members(rnd, depth);
      const kind = rnd.pick(['Object', 'Struct'] as const);
      // Object members that are Options get absent values often, to exercise elision.
      return {
        type: { [kind]: Object.fromEntries(ms.map(([k, t]) => [k, t.type])) } as AnyType,
        value: (r) => Object.fromEntries(ms.map(([k, t]) => [k, t.value(r)])),
      };
    }
    case 4: {
      const ms = members(rnd, depth);
      return { type: { Tuple: ms.map(([, t]) => t.type) }, value: (r) => ms.map(([, t]) => t.value(r)) };
    }
    case 5: {
      const el = randomType(rnd, depth - 1);
      const len = rnd.pick([0, 1, 3]);
      return { type: { Array: { type: el.type, len } }, value: (r) => Array.from({ length: len }, () => el.value(r)) };
    }
    case 6: {
      const ms = members(rnd, depth);
      if (ms.length === 0) return leaf(rnd);
      return {
        type: { Variant: Object.fromEntries(ms.map(([k, t]) => [k, t.type])) },
        value: (r) => {
          const [k, t] = r.pick(ms);
          return { [k]: t.value(r) };
        },
      };
    }
    case 7: {
      const inner = randomType(rnd, depth - 1);
      return { type: { FracPack: inner.type }, value: inner.value };
    }
    default: {
      const value = randomType(rnd, depth - 1);
      const entry = { Object: { key: 'string', value: value.type } };
      return {
        type: { Custom: { type: { List: entry }, id: 'map' } },
        value: (r) => Array.from({ length: r.int(3) }, (_, i) => ({ key: `k${i}`, value: value.value(r) })),
      };
    }
  }
}

function isZeroSize(type: AnyType): boolean {
  if (typeof type === 'string' || !('Struct' in type)) return false;
  return Object.values(type.Struct).every(isZeroSize);
}
