// The Cursor Connections algorithm (docs/serving.md §4.7) in plain TypeScript, as a graphql-js resolver
// for oracle tests of served table indexes: rows in key order, bounds parsed by the caller,
// cursors as the service reports them (hex of index keys, so hex order is key order), and the
// service's messages for arguments it refuses, checked in the order the service checks them.
import { accountNumberFromName, isValidAccountName } from '../../../host-api/index.js';

export interface ConnectionArgs {
  gt?: string | number; ge?: string | number; lt?: string | number; le?: string | number;
  first?: number | null; last?: number | null; before?: string | null; after?: string | null;
}

export interface IndexModel<R, K> {
  /** The rows in key order. */
  rows: R[];
  cursorOf(row: R): string;
  keyOf(row: R): K;
  /** A bound argument as a key; throws the service's message for a bad one. */
  parse(bound: string | number, name: string): K;
  compare(a: K, b: K): number;
}

/** The order of u64 keys (ids, account numbers). */
export const compareBigints = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

/** An account-name bound as its key, refused with the service's message when it is not one. */
export function accountBound(value: string | number, name: string): bigint {
  if (typeof value !== 'string' || !isValidAccountName(value)) throw new Error(`Argument "${name}" is not an account name: ${value}`);
  return accountNumberFromName(value);
}

function checkCursor(name: string, value: string | null | undefined): void {
  if (value != null && !/^([0-9a-fA-F]{2})*$/.test(value)) throw new Error(`Argument "${name}" is not a cursor.`);
}

function count(name: string, value: number | null | undefined): number | undefined {
  if (value == null) return undefined;
  if (!Number.isInteger(value)) throw new Error(`Argument "${name}" must be a whole number.`);
  if (value < 0) throw new Error(`Argument "${name}" must be a non-negative whole number.`);
  return value;
}

export function referenceConnection<R, K, N>(index: IndexModel<R, K>, nodeOf: (row: R) => N, args: ConnectionArgs) {
  // The service reads ge, gt, after, le, lt, before, then first and last.
  const tests: ((r: R) => boolean)[] = [];
  const bound = (name: 'gt' | 'ge' | 'lt' | 'le', keep: (c: number) => boolean) => {
    const value = args[name];
    if (value === undefined || value === null) return;
    const key = index.parse(value, name);
    tests.push((r) => keep(index.compare(index.keyOf(r), key)));
  };
  bound('ge', (c) => c >= 0);
  bound('gt', (c) => c > 0);
  checkCursor('after', args.after);
  bound('le', (c) => c <= 0);
  bound('lt', (c) => c < 0);
  checkCursor('before', args.before);
  const first = count('first', args.first);
  const last = count('last', args.last);
  let range = index.rows.filter((r) => tests.every((t) => t(r))
    && (args.after == null || index.cursorOf(r) > args.after.toUpperCase())
    && (args.before == null || index.cursorOf(r) < args.before.toUpperCase()));
  let hasNextPage = false;
  let hasPreviousPage = false;
  if (first !== undefined && range.length > first) {
    range = range.slice(0, first);
    hasNextPage = true;
  }
  if (last !== undefined && range.length > last) {
    range = range.slice(range.length - last);
    hasPreviousPage = true;
  }
  const edges = range.map((r) => ({ node: nodeOf(r), cursor: index.cursorOf(r) }));
  return { edges, pageInfo: { hasPreviousPage, hasNextPage, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null } };
}
