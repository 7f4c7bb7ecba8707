import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CommittedReadCache } from '../../../../runtime/db/committed-read-cache.js';
import type { CommittedTable } from '../../../../runtime/db/ordered-lookup.js';
import type { KvEntry } from '../../../../runtime/db/store.js';
import { bytes, entryHex, hex } from './helpers.js';

/** A committed table over a sorted list, counting the lookups that reach it. */
class CountingTable implements CommittedTable {
  reads = 0;
  constructor(public entries: KvEntry[]) {}

  get(key: Uint8Array): Uint8Array | undefined {
    this.reads++;
    return this.entries.find((e) => Buffer.compare(e.key, key) === 0)?.value;
  }

  first(start: Uint8Array): KvEntry | undefined {
    this.reads++;
    return this.entries.find((e) => Buffer.compare(e.key, start) >= 0);
  }

  last(bound: Uint8Array | undefined): KvEntry | undefined {
    this.reads++;
    return [...this.entries].reverse().find((e) => bound === undefined || Buffer.compare(e.key, bound) < 0);
  }

  ascending(start: Uint8Array): Iterator<KvEntry> {
    return this.entries.filter((e) => Buffer.compare(e.key, start) >= 0)[Symbol.iterator]();
  }

  descending(bound: Uint8Array | undefined): Iterator<KvEntry> {
    return this.entries.filter((e) => bound === undefined || Buffer.compare(e.key, bound) < 0).reverse()[Symbol.iterator]();
  }
}

const entry = (key: number[], value: number[]): KvEntry => ({ key: Uint8Array.from(key), value: Uint8Array.from(value) });

test('get, first and last are answered by the table once, then from memory, misses included', () => {
  const table = new CountingTable([entry([1], [10]), entry([3], [30])]);
  const cache = new CommittedReadCache(table);
  for (let round = 0; round < 3; round++) {
    assert.is(hex(cache.get(bytes(1))), '0a');
    assert.is(cache.get(bytes(2)), undefined);
    assert.is(entryHex(cache.first(bytes(2))), entryHex(entry([3], [30])));
    assert.is(cache.first(bytes(4)), undefined);
    assert.is(entryHex(cache.last(bytes(3))), entryHex(entry([1], [10])));
    assert.is(cache.last(bytes(1)), undefined);
  }
  assert.is(table.reads, 6, 'each distinct lookup reached the table once');
});

test('an unbounded last and a last below the empty key are different lookups', () => {
  const table = new CountingTable([entry([1], [10]), entry([3], [30])]);
  const cache = new CommittedReadCache(table);
  assert.is(cache.last(new Uint8Array(0)), undefined);
  assert.is(entryHex(cache.last(undefined)), entryHex(entry([3], [30])));
});

test('invalidate makes the next lookups read the table again', () => {
  const table = new CountingTable([entry([1], [10])]);
  const cache = new CommittedReadCache(table);
  assert.is(hex(cache.get(bytes(1))), '0a');
  assert.is(entryHex(cache.first(bytes(0))), entryHex(entry([1], [10])));
  table.entries = [entry([0], [5]), entry([1], [11])];
  assert.is(hex(cache.get(bytes(1))), '0a', 'until invalidated the remembered answer stands');
  cache.invalidate();
  assert.is(hex(cache.get(bytes(1))), '0b');
  assert.is(entryHex(cache.first(bytes(0))), entryHex(entry([0], [5])));
  assert.is(entryHex(cache.last(undefined)), entryHex(entry([1], [11])));
});

test('a committed write is answered from memory; the ordered lookups read the table again', () => {
  const table = new CountingTable([entry([1], [10]), entry([2], [20])]);
  const cache = new CommittedReadCache(table);
  assert.is(hex(cache.get(bytes(1))), '0a');
  assert.is(entryHex(cache.first(bytes(0))), entryHex(entry([1], [10])));
  const reads = table.reads;
  // The commit: key 1 rewritten, key 2 removed, key 3 added.
  table.entries = [entry([1], [11]), entry([3], [30])];
  cache.wrote(new Map([['\x01', Uint8Array.of(11)], ['\x02', null], ['\x03', Uint8Array.of(30)]]));
  assert.is(hex(cache.get(bytes(1))), '0b', 'the rewritten value');
  assert.is(cache.get(bytes(2)), undefined, 'the removed key');
  assert.is(hex(cache.get(bytes(3))), '1e', 'the added key');
  assert.is(table.reads, reads, 'none of them read the table');
  assert.is(entryHex(cache.first(bytes(2))), entryHex(entry([3], [30])));
  assert.is(table.reads, reads + 1, 'first reads the table again');
});

test('a forward walk is answered whole from memory until a commit; it keeps to the match, the upper bound and the count', () => {
  const table = new CountingTable([entry([1, 1], [11]), entry([1, 2], [12]), entry([1, 3], [13]), entry([2, 0], [20])]);
  const cache = new CommittedReadCache(table);
  const keys = (start: number[], matchLength: number, upper: number[] | undefined, maxRows: number) =>
    cache.forward({ start: Uint8Array.from(start), matchLength, upper: upper && Uint8Array.from(upper), maxRows, maxBytes: 1 << 20 }).map((e) => entryHex(e));
  const all = [entry([1, 1], [11]), entry([1, 2], [12]), entry([1, 3], [13])].map((e) => entryHex(e));
  assert.equal(keys([1], 1, undefined, 10), all, 'within the match');
  assert.equal(keys([1], 0, undefined, 10), [...all, entryHex(entry([2, 0], [20]))], 'match 0: every key');
  assert.equal(keys([1, 2], 1, undefined, 10), all.slice(1));
  assert.equal(keys([1], 1, [1, 3], 10), all.slice(0, 2), 'below the upper bound');
  assert.equal(keys([1], 1, undefined, 2), all.slice(0, 2), 'at most maxRows');
  const reads = table.reads;
  assert.equal(keys([1], 1, undefined, 10), all);
  assert.is(table.reads, reads, 'the same walk again reads nothing');
  table.entries = [entry([1, 1], [11]), entry([1, 4], [14])];
  cache.wrote(new Map([['\x01\x02', null], ['\x01\x03', null], ['\x01\x04', Uint8Array.of(14)]]));
  assert.equal(keys([1], 1, undefined, 10), [entry([1, 1], [11]), entry([1, 4], [14])].map((e) => entryHex(e)), 'a commit starts it over');
});

test('a committed write too large to hold drops what was held for its key', () => {
  const big = new Uint8Array(64 * 1024).fill(7);
  const table = new CountingTable([entry([1], [10])]);
  const cache = new CommittedReadCache(table);
  assert.is(hex(cache.get(bytes(1))), '0a');
  table.entries = [{ key: bytes(1), value: big }];
  cache.wrote(new Map([['\x01', big]]));
  assert.is(cache.get(bytes(1))?.length, big.length);
  assert.is(table.reads, 2, 'read from the table, not the old answer');
});

test('large values are read through every time', () => {
  const big = new Uint8Array(64 * 1024).fill(7);
  const table = new CountingTable([{ key: bytes(1), value: big }]);
  const cache = new CommittedReadCache(table);
  assert.is(cache.get(bytes(1))?.length, big.length);
  assert.is(cache.get(bytes(1))?.length, big.length);
  assert.is(cache.first(bytes(0))?.value.length, big.length);
  assert.is(cache.first(bytes(0))?.value.length, big.length);
  assert.is(table.reads, 4);
});

test('what is held stays within its byte budget: past it, the oldest answers are read again', () => {
  const entries = Array.from({ length: 300 }, (_, i) => ({ key: Uint8Array.of(i >> 8, i & 0xff), value: new Uint8Array(10 * 1024).fill(i & 0xff) }));
  const table = new CountingTable(entries);
  const cache = new CommittedReadCache(table);
  for (const { key } of entries) cache.get(key);
  assert.is(table.reads, 300);
  cache.get(entries[299]!.key);
  assert.is(table.reads, 300, 'the latest answer is held');
  assert.is(cache.get(entries[0]!.key)?.[0], 0);
  assert.is(table.reads, 301, 'the first answer was dropped with the rest when 3 MiB of values passed the budget');
});

test('walks go to the table', () => {
  const table = new CountingTable([entry([1], [10]), entry([2], [20]), entry([3], [30])]);
  const cache = new CommittedReadCache(table);
  assert.equal([...{ [Symbol.iterator]: () => cache.ascending(bytes(2)) }].map((e) => hex(e.key)), ['02', '03']);
  assert.equal([...{ [Symbol.iterator]: () => cache.descending(bytes(3)) }].map((e) => hex(e.key)), ['02', '01']);
});

test.run();
