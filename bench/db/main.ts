// State store benchmark: the block workload of docs/design.md decision 3, on the two rollback designs
// it names. Per transaction: 2 reads + 2 writes of 20-byte keys inside a checkpoint that is then
// released (every 10th transaction is rolled back instead); 10,000 transactions per block; one
// durable commit per block. Prints figures; asserts nothing.
//
//   overlay:   LmdbStore (write overlay with undo log over an LMDB read snapshot)
//   child txn: lmdb-js directly: one write transaction per block, one child transaction per
//              transaction (nested transactionSync; returning ABORT rolls it back)

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ABORT, open } from 'lmdb';
import { DbId } from '../../host-api/abi/databases.js';
import { LmdbStore } from '../../runtime/db/lmdb-store.js';

const ACCOUNTS = 100_000;
const TRANSACTIONS_PER_BLOCK = 10_000;
const BLOCKS = 8;
const WARMUP_BLOCKS = 2;
const OPS_PER_TRANSACTION = 4;

/** One transaction's work against either design. */
interface TransferState {
  read(key: Uint8Array): Uint8Array;
  write(key: Uint8Array, value: Uint8Array): void;
}

// Keys are written into two hot buffers, as the host sees them in wasm memory (a table of
// 100,000 separate key buffers would mostly measure cache misses on the benchmark's own data).
const fromKey = Buffer.alloc(20);
const toKey = Buffer.alloc(20);

function keyOf(account: number, into: Buffer): Buffer {
  into.write('746f6b656e730000', 0, 'hex'); // owner account
  into.writeUInt16BE(1, 8); // table
  into.writeUInt32BE(account, 16);
  return into;
}

function accounts(seed: number): () => number {
  let state = seed;
  return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) % ACCOUNTS;
}

function transfer(state: TransferState, next: () => number): void {
  const from = keyOf(next(), fromKey);
  const to = keyOf(next(), toKey);
  const fromValue = state.read(from);
  const toValue = state.read(to);
  state.write(from, fromValue);
  state.write(to, toValue);
}

interface BlockTimes {
  executeMs: number;
  commitMs: number;
}

function report(name: string, times: BlockTimes[]): void {
  const measured = times.slice(WARMUP_BLOCKS);
  const execute = measured.reduce((sum, t) => sum + t.executeMs, 0);
  const commit = measured.reduce((sum, t) => sum + t.commitMs, 0);
  const transactions = measured.length * TRANSACTIONS_PER_BLOCK;
  const perSecond = (count: number) => Math.round(count / ((execute + commit) / 1000)).toLocaleString('en-US');
  console.log(`${name.padEnd(10)} ${perSecond(transactions).padStart(9)} tx/s ` +
    `${perSecond(transactions * OPS_PER_TRANSACTION).padStart(10)} ops/s  ` +
    `(per block: execute ${(execute / measured.length).toFixed(1)} ms, ` +
    `commit ${(commit / measured.length).toFixed(1)} ms)`);
}

function rate(name: string, op: (account: number) => unknown): void {
  const count = 200_000;
  const next = accounts(2);
  const start = performance.now();
  for (let i = 0; i < count; i++) op(next());
  const perSecond = Math.round(count / ((performance.now() - start) / 1000));
  console.log(`  ${name.padEnd(36)} ${perSecond.toLocaleString('en-US').padStart(10)} ops/s`);
}

async function benchOverlay(dir: string): Promise<void> {
  const store = LmdbStore.open(dir);
  try {
    for (let a = 0; a < ACCOUNTS; a++) store.put(DbId.service, keyOf(a, fromKey), Buffer.alloc(16));
    store.commit();
    const state: TransferState = {
      read: (key) => store.get(DbId.service, key)!,
      write: (key, value) => store.put(DbId.service, key, value),
    };
    const next = accounts(1);
    const times: BlockTimes[] = [];
    for (let block = 0; block < BLOCKS; block++) {
      const start = performance.now();
      for (let t = 0; t < TRANSACTIONS_PER_BLOCK; t++) {
        const checkpoint = store.checkpoint();
        transfer(state, next);
        if (t % 10 === 9) store.rollback(checkpoint);
        else store.release(checkpoint);
      }
      const executed = performance.now();
      store.commit();
      times.push({ executeMs: executed - start, commitMs: performance.now() - executed });
    }
    report('overlay', times);

    // Single-operation rates, for sizing the host's per-import cost.
    const value = Buffer.alloc(16);
    rate('get, committed', (a) => store.get(DbId.service, keyOf(a, fromKey)));
    rate('greaterEqual, committed', (a) => store.greaterEqual(DbId.service, keyOf(a, fromKey), 8));
    for (let i = 0; i < 20_000; i++) store.put(DbId.service, keyOf(next(), fromKey), value);
    rate('get, 20k-entry overlay', (a) => store.get(DbId.service, keyOf(a, fromKey)));
    rate('greaterEqual, 20k-entry overlay', (a) => store.greaterEqual(DbId.service, keyOf(a, fromKey), 8));
    rate('lessThan, 20k-entry overlay', (a) => store.lessThan(DbId.service, keyOf(a, fromKey), 8));
    rate('put, 20k-entry overlay', (a) => store.put(DbId.service, keyOf(a, fromKey), value));
    store.abort();
  } finally {
    await store.close();
  }
}

async function benchChildTransactions(dir: string): Promise<void> {
  const root = open({ path: dir, maxDbs: 16, overlappingSync: false });
  const db = root.openDB<Uint8Array, Uint8Array>({ name: 'service', keyEncoding: 'binary', encoding: 'binary' });
  try {
    root.transactionSync(() => {
      for (let a = 0; a < ACCOUNTS; a++) db.putSync(keyOf(a, fromKey), Buffer.alloc(16));
    });
    const state: TransferState = {
      read: (key) => db.get(key)!,
      write: (key, value) => db.putSync(key, value),
    };
    const next = accounts(1);
    const times: BlockTimes[] = [];
    for (let block = 0; block < BLOCKS; block++) {
      const start = performance.now();
      let executed = start;
      root.transactionSync(() => {
        for (let t = 0; t < TRANSACTIONS_PER_BLOCK; t++) {
          root.transactionSync(() => {
            transfer(state, next);
            return t % 10 === 9 ? ABORT : undefined;
          });
        }
        executed = performance.now();
      });
      times.push({ executeMs: executed - start, commitMs: performance.now() - executed });
    }
    report('child txn', times);
  } finally {
    await root.close();
  }
}

async function inTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tsibase-bench-db-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`db: ${TRANSACTIONS_PER_BLOCK} transactions/block (2 reads, 2 writes, checkpoint; ` +
  `every 10th rolled back), ${ACCOUNTS} accounts, durable commit per block, ` +
  `${BLOCKS - WARMUP_BLOCKS} measured blocks`);
await inTempDir(benchOverlay);
await inTempDir(benchChildTransactions);
