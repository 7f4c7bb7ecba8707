// Signed token transfers pushed through HTTP push_transaction, shared by bench/chain (its rate
// within a window), bench/sync (a chain of them for a follower to sync) and bench/consensus (a
// producer network's rate, and how long a transfer takes to be final).
// Needs build/services/tokens.wasm (make services).
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool, type Dispatcher } from 'undici';
import {
  SignedTransaction, Transaction, TransactionTrace, compileSchema, generateKeyPair, privateKeyToPkcs8, systemAction,
} from '../../host-api/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { serviceUrl } from '../../runtime/cli/client.js';
import { deployActions } from '../../host-api/boot/deploy-actions.js';

export const ACCOUNTS = 32;
export const CONNECTIONS = 16;
export const PIPELINING = 4;
/** Transfers in flight at once: every connection's pipeline full. */
export const CONCURRENCY = CONNECTIONS * PIPELINING;
const TRANSFER = compileSchema({}).typeOf({ Object: { to: 'AccountNumber', amount: 'u64', memo: 'string' } });
const MINT = compileSchema({}).typeOf({ Object: { to: 'AccountNumber', amount: 'u64' } });

/**
 * Sets the node's chain up for transfers (accounts with P-256 keys, created by root, whose dev
 * auth service approves anything; the token service deployed from its .wasm; a balance for every
 * account) and signs `count` transfers among them, up front: node:crypto signs, the benchmarks
 * measure the node. The packed SignedTransactions, in the order to push them.
 */
export async function preparedTransfers(api: string, count: number): Promise<Uint8Array[]> {
  const client = new ChainClient(api);
  const keys = Array.from({ length: ACCOUNTS }, () => generateKeyPair());
  const users = keys.map((_, i) => `user${i}`);
  await client.push([
    ...keys.map((k, i) => systemAction('root', 'auth-sig.newAccount', { name: users[i], key: k.publicKey })),
    ...deployActions('tokens', new Uint8Array(readFileSync(join(process.cwd(), 'build', 'services', 'tokens.wasm'))), { create: { insecure: true }, init: true }),
  ], { waitFor: 'applied' });
  await client.push(users.map((to) => ({
    sender: 'tokens', service: 'tokens', method: 'mint', rawData: MINT.pack({ to, amount: 1_000_000_000n }),
  })), { waitFor: 'applied' });
  const tapos = await client.tapos(300);
  const privateKeys = keys.map((k) => createPrivateKey({ key: Buffer.from(privateKeyToPkcs8(k)), format: 'der', type: 'pkcs8' }));
  return Array.from({ length: count }, (_, i) => {
    const who = i % ACCOUNTS;
    const transaction = Transaction.pack({
      tapos,
      actions: [{ sender: users[who], service: 'tokens', method: 'transfer', rawData: TRANSFER.pack({ to: users[(who + 1) % ACCOUNTS], amount: BigInt(1 + i), memo: '' }) }],
      claims: [{ service: 'verify-sig', rawData: keys[who]!.publicKey }],
    });
    const proof = sign('sha256', transaction, { key: privateKeys[who]!, dsaEncoding: 'ieee-p1363' });
    return SignedTransaction.pack({ transaction, proofs: [proof], subjectiveData: null });
  });
}

export interface TransferPusher {
  /** Pushes the next prepared transfer and checks it succeeded; throws once none is left. */
  push(): Promise<void>;
  /** How many were pushed so far. */
  pushed(): number;
  close(): Promise<void>;
}

export interface PushOptions {
  /** When the node answers: the transfer applied (default), or its block final. */
  readonly waitFor?: 'applied' | 'final';
  /** Requests in flight on one connection (default PIPELINING); 1 when each answer's own time counts. */
  readonly pipelining?: number;
}

/** Pushes `bodies` in order to the node at `api` over pipelined keep-alive connections. */
export function transferPusher(api: string, bodies: readonly Uint8Array[], options: PushOptions = {}): TransferPusher {
  const url = pushUrl(api, options.waitFor ?? 'applied');
  // The client shares this machine's two cores with the node: keep it cheap (fracpack traces,
  // a few pipelined keep-alive connections).
  const pool = new Pool(`http://127.0.0.1:${url.port}`, { connections: CONNECTIONS, pipelining: options.pipelining ?? PIPELINING });
  let next = 0;
  return {
    push: async () => {
      const body = bodies[next++];
      if (!body) throw new Error(`all ${bodies.length} prepared transfers were pushed`);
      const answer = await postTransaction(pool, url, body);
      // A failed transfer makes the figure meaningless: stop the run.
      if (answer.error !== null) throw new Error(`transfer failed (${answer.status}): ${answer.error}`);
    },
    pushed: () => Math.min(next, bodies.length),
    close: () => pool.close(),
  };
}

/** A push's answer: its HTTP status, and the trace's error (or the body's text when it is no trace). */
export interface PushAnswer {
  readonly status: number;
  readonly error: string | null;
}

/**
 * POSTs one packed transaction to `url` (push_transaction with its query) through `pool`; a
 * refused or dropped connection rejects.
 */
export async function postTransaction(pool: Dispatcher, url: URL, body: Uint8Array): Promise<PushAnswer> {
  // Pipelined for real: undici holds a POST until the connection is idle unless it is marked
  // idempotent (a transaction is: the chain refuses a duplicate) and non-blocking.
  const r = await pool.request({
    path: `${url.pathname}${url.search}`, method: 'POST', idempotent: true, blocking: false, body,
    headers: { 'content-type': 'application/octet-stream', accept: 'application/octet-stream', host: url.host },
  });
  const bytes = new Uint8Array(await r.body.arrayBuffer());
  if (r.statusCode !== 200) return { status: r.statusCode, error: new TextDecoder().decode(bytes) };
  return { status: r.statusCode, error: TransactionTrace.unpack(bytes).error };
}

/** The URL of push_transaction on the node at `api`, answering once the transaction is `waitFor`. */
export function pushUrl(api: string, waitFor: 'applied' | 'final'): URL {
  return new URL(serviceUrl(api, 'transact', `/push_transaction?wait_for=${waitFor}`));
}

/** Pushes every prepared transfer with CONCURRENCY in flight; transfers per second over the whole run. */
export async function pushAll(api: string, bodies: readonly Uint8Array[]): Promise<number> {
  const pusher = transferPusher(api, bodies);
  const start = performance.now();
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (pusher.pushed() < bodies.length) await pusher.push();
    }));
  } finally {
    await pusher.close();
  }
  return bodies.length / ((performance.now() - start) / 1000);
}
