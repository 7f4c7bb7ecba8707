// Point lookups and forward walks of one LMDB database remembered until its next commit. A lookup through lmdb-js
// costs microseconds (a read transaction, a cursor, a key buffer), while the committed state
// only changes when a block or subjective write commits; between commits every query and
// transaction that reads the same rows (a token's balance, a table's first rows, a service's
// registration) is answered from memory.

import { startsWithBytes, toBinaryString } from './binary-string.js';
import { forwardByLookups, type CommittedTable } from './ordered-lookup.js';
import type { ForwardRange, KvEntry } from './store.js';

/** Lookups remembered per kind before that kind's memory is dropped and starts over. */
const MAX_LOOKUPS = 4096;
/** Bytes of keys and values held per kind before its memory is dropped and starts over. */
const MAX_BYTES = 2 * 1024 * 1024;
/** Values larger than this are read through every time rather than held. */
const MAX_CACHED_VALUE = 16 * 1024;

/** The id of "no key" (an unbounded last): binary strings hold only characters 0-255. */
const NO_KEY = '\u0100';

/** One kind of lookup: its answers by key (null: nothing there), within MAX_LOOKUPS and MAX_BYTES. */
class Answers<T> {
  private readonly byKey = new Map<string, T | null>();
  private bytes = 0;

  lookup(id: string, read: () => T | undefined, size: (answer: T) => number): T | undefined {
    const known = this.byKey.get(id);
    if (known !== undefined) return known ?? undefined;
    const answer = read();
    this.keep(id, answer, size);
    return answer;
  }

  /** Sets the answer for `id` (one a commit has just made true), replacing any it had. */
  replace(id: string, answer: T | undefined, size: (answer: T) => number): void {
    const known = this.byKey.get(id);
    if (known !== undefined) {
      this.byKey.delete(id);
      this.bytes -= id.length + (known === null ? 0 : size(known));
    }
    this.keep(id, answer, size);
  }

  clear(): void {
    this.byKey.clear();
    this.bytes = 0;
  }

  private keep(id: string, answer: T | undefined, size: (answer: T) => number): void {
    const bytes = id.length + (answer === undefined ? 0 : size(answer));
    if (bytes > MAX_CACHED_VALUE) return;
    if (this.byKey.size >= MAX_LOOKUPS || this.bytes + bytes > MAX_BYTES) this.clear();
    this.byKey.set(id, answer ?? null);
    this.bytes += bytes;
  }
}

const valueSize = (value: Uint8Array): number => value.length;
const entrySize = (entry: KvEntry): number => entry.key.length + entry.value.length;
const entriesSize = (entries: readonly KvEntry[]): number => entries.reduce((sum, entry) => sum + entrySize(entry), 0);

/**
 * A CommittedTable that answers get, first, last and forward walks from memory after the first
 * time. Iterators (ascending, descending) go to the table: they serve lookups that merge
 * uncommitted writes.
 * The owner reports what each commit wrote (`wrote`), and calls `invalidate` whenever the table's
 * committed content may have changed otherwise.
 */
export class CommittedReadCache implements CommittedTable {
  private readonly values = new Answers<Uint8Array>();
  private readonly firsts = new Answers<KvEntry>();
  private readonly lasts = new Answers<KvEntry>();
  private readonly forwards = new Answers<readonly KvEntry[]>();

  constructor(private readonly table: CommittedTable) {}

  get(key: Uint8Array, keyString = toBinaryString(key)): Uint8Array | undefined {
    return this.values.lookup(keyString, () => this.table.get(key), valueSize);
  }

  first(start: Uint8Array, startString = toBinaryString(start)): KvEntry | undefined {
    return this.firsts.lookup(startString, () => this.table.first(start), entrySize);
  }

  last(bound: Uint8Array | undefined, boundString = bound && toBinaryString(bound)): KvEntry | undefined {
    return this.lasts.lookup(boundString ?? NO_KEY, () => this.table.last(bound), entrySize);
  }

  /** A forward walk (a GraphQL page's rows, say) answered whole from memory after the first time. */
  forward(range: ForwardRange): readonly KvEntry[] {
    // Binary strings hold only characters 0-255: NO_KEY separates the parts.
    const id = `${toBinaryString(range.start)}${NO_KEY}${range.matchLength}${NO_KEY}${range.upper ? toBinaryString(range.upper) : NO_KEY}${NO_KEY}${range.maxRows}${NO_KEY}${range.maxBytes}`;
    return this.forwards.lookup(id, () => forwardByLookups((key) => {
      const entry = this.first(key);
      return entry && startsWithBytes(entry.key, range.start, range.matchLength) ? entry : undefined;
    }, range), entriesSize)!;
  }

  ascending(start: Uint8Array): Iterator<KvEntry> {
    return this.table.ascending(start);
  }

  descending(bound: Uint8Array | undefined): Iterator<KvEntry> {
    return this.table.descending(bound);
  }

  /**
   * A commit that succeeded wrote `rows` (by binary-string key; null: removed): point lookups of
   * them answer the new values (a row written in one block is often read in the next), and the
   * ordered lookups, which the writes may have changed, start over.
   */
  wrote(rows: ReadonlyMap<string, Uint8Array | null>): void {
    for (const [key, value] of rows) this.values.replace(key, value ?? undefined, valueSize);
    this.firsts.clear();
    this.lasts.clear();
    this.forwards.clear();
  }

  invalidate(): void {
    this.values.clear();
    this.firsts.clear();
    this.lasts.clear();
    this.forwards.clear();
  }
}
