// Chains in their own temporary LMDB directories, for the tests that produce blocks on one and
// apply them on another (apply-block.test.ts, revert-blocks.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import {
  SignedBlock, SignedTransaction, accountNumberFromName, bootTransactions, bytesToHex, compileSchema, methodNumberFromName, signDigest, taposReference,
  transactionId, unpackBundle, type KeyPair,
} from '../../../../host-api/index.js';
import { equalBytes } from '../../../../host-api/encoding/bytes.js';
import { Chain, type ChainOptions } from '../../../../runtime/chain/chain.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';
import type { KvReader } from '../../../../runtime/db/store.js';
import { Engine } from '../../../../runtime/wasm/engine.js';
import { Executor } from '../../../../runtime/wasm/executor.js';
import { testBundle } from '../../../lib/test-bundle.js';

export const AMOUNT = compileSchema({}).typeOf({ Object: { to: 'AccountNumber', amount: 'u64' } });
export const TRANSFER = compileSchema({}).typeOf({ Object: { to: 'AccountNumber', amount: 'u64', memo: 'string' } });
export const OWNER = compileSchema({}).typeOf({ Object: { owner: 'AccountNumber' } });
/** The chain databases (docs/host-abi.md §4): everything consensus covers, block log and signatures included. */
const CHAIN_DBS = [0, 1, 2, 3, 4, 5, 6, 7];

export type Failure = Error & { code?: string };

/** A chain in its own temporary LMDB directory. */
export interface Node {
  dir: string;
  store: LmdbStore;
  chain: Chain;
  /** The engine the chain runs on, which the tests' own queries share. */
  engine: Engine;
  blocks: string[];
  /** What the node does after each block, as consensus does on a new head. */
  afterBlock?: () => void;
}

/** `options` adds to or replaces the chain's (its clock, say). */
export function openNode(dir: string, producer: string, blockKey?: KeyPair, blocks: string[] = [], options: ChainOptions = {}): Node {
  const store = LmdbStore.open(dir);
  const engine = new Engine();
  const node: Partial<Node> = { dir, store, engine, blocks };
  node.chain = new Chain(store, engine, {
    producer,
    blockIntervalMs: 100,
    blockSigners: (claim) => (blockKey && equalBytes(claim.rawData, blockKey.publicKey) ? (digest) => signDigest(blockKey, digest) : undefined),
    committed: ({ blockId }) => {
      blocks.push(bytesToHex(blockId));
      node.afterBlock?.();
    },
    ...options,
  });
  return node as Node;
}

export function newNode(producer: string, blockKey?: KeyPair, options: ChainOptions = {}): Node {
  return openNode(mkdtempSync(join(tmpdir(), 'tsibase-chain-node-')), producer, blockKey, [], options);
}

export async function closeNode(node: Node, remove = true): Promise<void> {
  node.chain.stop();
  await node.store.close();
  if (remove) rmSync(node.dir, { recursive: true, force: true });
}

/** A transaction on top of the head, expiring in a minute. */
export function transaction(chain: Chain, actions: unknown[], claims: unknown[] = []) {
  const head = chain.head!;
  return {
    tapos: { expiration: BigInt(Math.floor(Date.now() / 1000) + 60), ...taposReference(head.header.blockNum, head.blockId), flags: 0 },
    actions,
    claims,
  };
}

/** Pushes transactions into the producer's open block and closes it (more, empty, blocks may come between). */
export async function inBlock(chain: Chain, signed: Uint8Array[]): Promise<void> {
  chain.start();
  for (const t of signed) {
    const trace = await chain.push(t, 'applied');
    assert.is(trace.error, null, 'a transaction of the producing chain');
  }
  chain.stop();
}

/** Waits until the chain has applied every pushed transaction (their proofs verified), and a turn more. */
export async function pushesApplied(chain: Chain): Promise<void> {
  while (chain.unprocessed > 0) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

/** The id of a packed SignedTransaction, in hex. */
export function signedTransactionId(signed: Uint8Array): string {
  return bytesToHex(transactionId(SignedTransaction.unpack(signed).transaction));
}

/** The ids of block `num`'s transactions, in hex; none when the chain has no such block. */
export function blockTransactionIds(chain: Chain, num: number): string[] {
  return chain.signedBlockAt(num)?.signed.block.transactions.map((t) => bytesToHex(transactionId(t.transaction))) ?? [];
}

/** Boots a producing chain and runs the rest of its boot. */
export async function bootedProducer(blockKey?: KeyPair, options: ChainOptions = {}): Promise<Node> {
  const node = newNode('prod', blockKey, options);
  const boot = bootTransactions(unpackBundle(await testBundle()), { producer: 'prod', blockKey: blockKey?.publicKey });
  assert.is(node.chain.boot(boot.pushBoot).error, null, 'push_boot');
  await inBlock(node.chain, boot.later);
  return node;
}

/** A SignedBlock of the producer as a peer receives it: packed and unpacked again. */
export function received(producer: Chain, num: number): SignedBlock {
  return SignedBlock.unpack(SignedBlock.pack(producer.signedBlockAt(num)!.signed));
}

/** The same block with a change made to a copy. */
export function tampered(block: SignedBlock, change: (copy: SignedBlock) => void): SignedBlock {
  const copy = SignedBlock.unpack(SignedBlock.pack(block));
  change(copy);
  return copy;
}

/** Every row of the chain databases, as `db:key` → value (hex). */
export function chainRows(store: KvReader): Map<string, string> {
  const rows = new Map<string, string>();
  for (const db of CHAIN_DBS) {
    for (let e = store.greaterEqual(db, new Uint8Array(0), 0); e; e = store.greaterEqual(db, Uint8Array.of(...e.key, 0), 0)) {
      rows.set(`${db}:${bytesToHex(e.key)}`, bytesToHex(e.value));
    }
  }
  return rows;
}

/** The keys whose rows differ between two stores (at most a few, to name in a failure). */
export function differingRows(a: KvReader, b: KvReader): string[] {
  const ra = chainRows(a);
  const rb = chainRows(b);
  const keys = new Set([...ra.keys(), ...rb.keys()]);
  return [...keys].filter((k) => ra.get(k) !== rb.get(k)).slice(0, 5);
}

/** Applies blocks `from`..`to` of the producer to the follower; each gives the producer's id. */
export async function applyRange(producer: Chain, follower: Chain, from: number, to: number): Promise<void> {
  for (let n = from; n <= to; n++) {
    const applied = await follower.applyBlock(received(producer, n));
    assert.is(bytesToHex(applied.blockId), bytesToHex(producer.blockIdAt(n)!), `block ${n} has the producer's id`);
  }
}

/** A token balance as the tokens service answers it (RPC, on the node's state). */
export function balance(node: Node, owner: string): bigint {
  const ret = new Executor(node.store, node.engine).call({
    mode: 'rpc',
    target: { action: { sender: 0n, service: accountNumberFromName('tokens'), method: methodNumberFromName('balance'), rawData: OWNER.pack({ owner }) } },
  });
  return new DataView(ret.buffer, ret.byteOffset, 8).getBigUint64(0, true);
}

