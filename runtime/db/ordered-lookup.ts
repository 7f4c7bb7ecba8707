// The lookups of docs/host-abi.md §3 over one database: an overlay table merged with the committed
// content in key order. Overlay keys shadow committed ones and tombstones hide them, so a
// lookup walks both in step until the first visible key, or until it leaves the prefix.

import { fromBinaryString, prefixSuccessor, startsWithBytes, toBinaryString } from './binary-string.js';
import type { ForwardRange, KvEntry } from './store.js';
import type { OverlayTable } from './write-overlay.js';

/**
 * Read access to what a database holds in LMDB. Point lookups take the key as a binary string
 * too when the caller has made one already.
 */
export interface CommittedTable {
  get(key: Uint8Array, keyString?: string): Uint8Array | undefined;
  /** The entry with the smallest key >= start. */
  first(start: Uint8Array, startString?: string): KvEntry | undefined;
  /** The entry with the largest key < bound (any key when bound is undefined). */
  last(bound: Uint8Array | undefined, boundString?: string): KvEntry | undefined;
  /** Entries with key >= start, ascending. */
  ascending(start: Uint8Array): Iterator<KvEntry>;
  /** Entries with key < bound (every entry when bound is undefined), descending. */
  descending(bound: Uint8Array | undefined): Iterator<KvEntry>;
  /** A forward walk over the committed content, for a table that remembers its answers; the others are walked with `first`. */
  forward?(range: ForwardRange): readonly KvEntry[];
}

interface CommittedStep {
  entry: KvEntry;
  key: string;
}

export function readValue(
  overlay: OverlayTable | undefined, committed: CommittedTable, key: Uint8Array,
): Uint8Array | undefined {
  if (!hasWrites(overlay)) return committed.get(key);
  const keyString = toBinaryString(key);
  const own = overlay.values.get(keyString);
  if (own !== undefined) return own ?? undefined;
  return committed.get(key, keyString);
}

export function greaterEqual(
  overlay: OverlayTable | undefined, committed: CommittedTable, key: Uint8Array, matchLength: number,
): KvEntry | undefined {
  // The prefix is the key's first matchLength bytes (no view of them made: lookups are hot).
  if (!hasWrites(overlay)) return withPrefix(committed.first(key), key, matchLength);
  const keyString = toBinaryString(key);
  const prefixString = keyString.slice(0, matchLength);
  const own = overlay.order.ceiling(keyString, true);
  // Keys >= key with the prefix come first in order: an overlay key past them is out of range.
  if (own === undefined || !own.startsWith(prefixString)) return withPrefix(committed.first(key, keyString), key, matchLength);
  return firstVisible(overlay, committed.ascending(key), own, prefixString, false);
}

/** The forward walk of `range` (store.ts ForwardRange), overlay writes merged. */
export function forward(overlay: OverlayTable | undefined, committed: CommittedTable, range: ForwardRange): readonly KvEntry[] {
  if (committed.forward && !writesWithin(overlay, range)) return committed.forward(range);
  return forwardByLookups((key) => greaterEqual(overlay, committed, key, range.matchLength), range);
}

/** Whether the overlay holds a write the walk could meet: at or after its start, within the match and below its bound. */
function writesWithin(overlay: OverlayTable | undefined, range: ForwardRange): boolean {
  if (!hasWrites(overlay)) return false;
  const startString = toBinaryString(range.start);
  const own = overlay.order.ceiling(startString, true);
  // Binary strings compare as the bytes do.
  return own !== undefined && own.startsWith(startString.slice(0, range.matchLength))
    && (range.upper === undefined || own < toBinaryString(range.upper));
}

/** A forward walk by one lookup per entry: `lookup` is greaterEqual at a key, with the range's match length. */
export function forwardByLookups(lookup: (key: Uint8Array) => KvEntry | undefined, range: ForwardRange): KvEntry[] {
  const entries: KvEntry[] = [];
  const upper = range.upper;
  let key = range.start;
  let bytes = 0;
  while (entries.length < range.maxRows && bytes < range.maxBytes) {
    const entry = lookup(key);
    if (!entry || (upper !== undefined && Buffer.compare(entry.key, upper) >= 0)) break;
    entries.push(entry);
    bytes += 8 + entry.key.length + entry.value.length;
    key = new Uint8Array(entry.key.length + 1);
    key.set(entry.key);
  }
  return entries;
}

export function lessThan(
  overlay: OverlayTable | undefined, committed: CommittedTable, key: Uint8Array, matchLength: number,
): KvEntry | undefined {
  return lastBelow(overlay, committed, key, key.subarray(0, matchLength));
}

export function max(
  overlay: OverlayTable | undefined, committed: CommittedTable, prefix: Uint8Array,
): KvEntry | undefined {
  return lastBelow(overlay, committed, prefixSuccessor(prefix), prefix);
}

/** The largest visible key < bound (any key when bound is undefined) if it starts with prefix. */
function lastBelow(
  overlay: OverlayTable | undefined, committed: CommittedTable,
  bound: Uint8Array | undefined, prefix: Uint8Array,
): KvEntry | undefined {
  if (!hasWrites(overlay)) return withPrefix(committed.last(bound), prefix);
  const prefixString = toBinaryString(prefix);
  const boundString = bound && toBinaryString(bound);
  const own = boundString !== undefined ? overlay.order.floor(boundString, false) : overlay.order.last();
  // Keys < bound with the prefix come last in order: an overlay key before them is out of range.
  if (own === undefined || !own.startsWith(prefixString)) return withPrefix(committed.last(bound, boundString), prefix);
  return firstVisible(overlay, committed.descending(bound), own, prefixString, true);
}

function hasWrites(overlay: OverlayTable | undefined): overlay is OverlayTable {
  return overlay !== undefined && overlay.values.size > 0;
}

/**
 * The first visible entry of a walk, if it starts with the prefix: committed `entries` and
 * overlay keys from `own` (the first, which has the prefix) on, in step, ascending or
 * (`descending`) descending.
 */
function firstVisible(
  overlay: OverlayTable, entries: Iterator<KvEntry>, own: string | undefined,
  prefixString: string, descending: boolean,
): KvEntry | undefined {
  try {
    let base = step(entries);
    for (;;) {
      if (base && (own === undefined || (descending ? base.key > own : base.key < own))) {
        return base.key.startsWith(prefixString) ? base.entry : undefined;
      }
      if (own === undefined || !own.startsWith(prefixString)) return undefined;
      if (base && base.key === own) base = step(entries);
      const value = overlay.values.get(own)!;
      if (value !== null) return { key: fromBinaryString(own), value };
      own = descending ? overlay.order.floor(own, false) : overlay.order.ceiling(own, false);
    }
  } finally {
    entries.return?.();
  }
}

function step(entries: Iterator<KvEntry>): CommittedStep | undefined {
  const next = entries.next();
  return next.done ? undefined : { entry: next.value, key: toBinaryString(next.value.key) };
}

/** The entry if its key starts with the first `length` bytes of `prefix` (all by default). */
function withPrefix(entry: KvEntry | undefined, prefix: Uint8Array, length = prefix.length): KvEntry | undefined {
  return entry && startsWithBytes(entry.key, prefix, length) ? entry : undefined;
}
