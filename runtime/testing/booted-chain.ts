import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TsibaseError } from '../../host-api/errors.js';
import { equalBytes } from '../../host-api/encoding/bytes.js';
import {
  DO_NOT_BROADCAST, SignedTransaction, Transaction, accountNumberFromName, bytesToHex, deployActions, keySignedTransaction, loginAction, newAccountAction, signDigest,
  taposReference, transactionId, type Action, type ActionTrace, type Bundle, type Claim, type KeyPair, type NewAccountAuth, type TransactionTrace,
} from '../../host-api/index.js';
import type { BlockSigners } from '../chain/block-signing.js';
import type { QueryThreadFigures } from '../chain/query-threads.js';
import { Chain } from '../chain/chain.js';
import type { EmittedEvent } from '../chain/event-log.js';
import { bootInProcess } from '../chain/in-process-boot.js';
import type { ChainHead } from '../chain/interface.js';
import { LmdbStore } from '../db/lmdb-store.js';
import type { Routes } from '../http/routes.js';
import { NodeHttpServer } from '../http/server.js';
import { SessionTokens } from '../http/session-tokens.js';
import { HttpSockets } from '../http/sockets.js';
import { Engine } from '../wasm/engine.js';
import { defaultAdmittedCodeDir } from '../wasm/admitted-code-cache.js';
import { consoleOf } from '../wasm/trace.js';
import type { ActionInput } from './action-input.js';
import { inMemoryExchange, type TestHttpReply, type TestHttpRequest } from './in-memory-http.js';
import { serviceCode, testBundle, type ExtraService } from './test-bundle.js';
import { TestClock, parseIsoTime } from './test-clock.js';

// A whole chain in the test's process (TestChain.boot): a bundle booted into a temporary store,
// transactions through the node's admission, auth and block path (the Chain facade), blocks on
// demand, a clock of its own, and HTTP through the node's handler without a socket.

/** The keys of a secure chain, as `tsibase boot --account-key --block-key` gives them. */
export interface TestChainKeys {
  /** Every account the boot creates authenticates with auth-sig and this key. */
  readonly account: KeyPair;
  /** The producer signs its blocks with this key (verify-sig); unsigned blocks without it. */
  readonly block?: KeyPair;
}

export interface TestBootOptions {
  /** The bundle to boot: a path or a bundle; the default bundle (the system services) unless given. */
  readonly bundle?: string | Bundle;
  /** Services of the test's own, installed by the same boot after the bundle's. */
  readonly services?: readonly ExtraService[];
  /** A secure chain; without keys, a development chain (anyone may act as any system account). */
  readonly keys?: TestChainKeys;
  /** The producer's account (default prod). */
  readonly producer?: string;
  /** The chain's time at boot, ISO 8601 (default now). */
  readonly time?: string;
  /** The root host requests go to (default tsibase.localhost). */
  readonly rootHost?: string;
  /** Where errors of subjective callbacks go (they never fail a transaction); stderr by default. */
  readonly onCallbackError?: (error: Error) => void;
  /** Threads that answer HTTP queries off the chain's thread (docs/serving.md §10); none by default. */
  readonly queryThreads?: number;
}

export interface TestPushOptions {
  /** The key pair(s) the transaction claims (verify-sig) and is signed with; unsigned without. */
  readonly sign?: KeyPair | readonly KeyPair[];
  /** Seconds from the chain's time to the transaction's expiration (default 10). */
  readonly expiresIn?: number;
}

export interface TestDeployOptions {
  /** Create the account first (default true): with auth-sig and the chain's account key, or auth-any on a development chain. */
  readonly create?: boolean;
  /** The existing account that creates it (default root). */
  readonly creator?: string;
  /** Serve the account's subdomain with its serveSys. */
  readonly registerServer?: boolean;
  /** Run the service's init() action, sent by the account. */
  readonly init?: boolean;
  /** The schema stored with packages::setSchema (default the build's); null stores none. */
  readonly schema?: string | null;
  /** Who signs (default the chain's account key; none on a development chain). */
  readonly sign?: KeyPair | readonly KeyPair[];
}

/** A pushed transaction's outcome. */
export interface PushedTransaction {
  /** The transaction id (hex). */
  readonly id: string;
  readonly trace: TransactionTrace;
  /** Why it failed (then nothing of it is in a block), or null. */
  readonly error: string | null;
  /**
   * The traces of the transaction's own actions, in order (those that ran: a failed one is the
   * last), taken from under transact's processTransaction beside its auth calls and callbacks.
   * Each has its `rawRetval`.
   */
  readonly actions: readonly ActionTrace[];
  /** Each of those actions' console output (its inner calls' included). */
  readonly console: readonly string[];
  /** The events it emitted (none when it failed). */
  readonly events: readonly EmittedEvent[];
}

/** What a chain and its forks share: the keys, names and tokens of one boot. */
interface Setup {
  readonly keys: TestChainKeys | undefined;
  readonly producer: string;
  readonly rootHost: string;
  readonly tokens: SessionTokens;
  readonly onCallbackError: (error: Error) => void;
  readonly queryThreads: number;
}

const DEFAULT_EXPIRES_IN = 10;
/**
 * The engine of every booted chain of the process: it keeps compiled modules by code hash and
 * knows no chain, so a second boot of the same services admits and compiles nothing.
 */
const ENGINE = new Engine({ admittedCodeDir: defaultAdmittedCodeDir() });
const VERIFY_SIG = accountNumberFromName('verify-sig');
/** A test chain serves no admin API: its state is the test's to set up. */
const NO_ADMIN_ROUTES: Routes = { serve: async () => false };

function keyList(sign: KeyPair | readonly KeyPair[] | undefined): readonly KeyPair[] {
  if (sign === undefined) return [];
  return 'publicKey' in sign ? [sign as KeyPair] : (sign as readonly KeyPair[]);
}

/** Signs blocks for a verify-sig claim of the block key's public key. */
function blockSignersOf(block: KeyPair | undefined): BlockSigners {
  return (claim: Claim) => (block && claim.service === VERIFY_SIG && equalBytes(claim.rawData, block.publicKey) ? (digest) => signDigest(block, digest) : undefined);
}

function sameAction(a: Action, b: Action): boolean {
  return a.sender === b.sender && a.service === b.service && a.method === b.method && equalBytes(a.rawData, b.rawData);
}

/**
 * The traces of `actions` under the trace's processTransaction (docs/chain.md §6: its inner
 * traces are the auth calls, the user's actions and the callbacks, in the order they ran).
 */
function ownActionTraces(trace: TransactionTrace, actions: readonly Action[]): ActionTrace[] {
  const own: ActionTrace[] = [];
  for (const { inner } of trace.actionTraces[0]?.innerTraces ?? []) {
    const next = actions[own.length];
    if (next && 'ActionTrace' in inner && sameAction(inner.ActionTrace.action, next)) own.push(inner.ActionTrace);
  }
  return own;
}

function temporaryDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'tsibase-chain-'));
}

export class BootedChain {
  private autoBlocks = true;
  /** Pushes run one at a time, so each one's events are its own. */
  private pushes: Promise<unknown> = Promise.resolve();

  private constructor(
    /** The temporary directory of the chain's store, which close removes. */
    readonly directory: string,
    private readonly store: LmdbStore,
    private readonly chain: Chain,
    private readonly server: NodeHttpServer,
    private readonly clock: TestClock,
    private readonly setup: Setup,
  ) {}

  /** Boots `options.bundle` (the default bundle) and the test's services into a temporary store. */
  static async boot(options: TestBootOptions = {}): Promise<BootedChain> {
    const bundle = testBundle(options.bundle, options.services ?? []);
    const clock = new TestClock(options.time === undefined ? Date.now() : parseIsoTime(options.time));
    const setup: Setup = {
      keys: options.keys,
      producer: options.producer ?? 'prod',
      rootHost: options.rootHost ?? 'tsibase.localhost',
      tokens: SessionTokens.withRandomKey(),
      onCallbackError: options.onCallbackError ?? ((err) => console.error(`TestChain: a subjective callback failed: ${err.message}`)),
      queryThreads: options.queryThreads ?? 0,
    };
    const chain = BootedChain.assemble(temporaryDirectory(), clock, setup);
    try {
      await bootInProcess(chain.chain, bundle, {
        producer: setup.producer, accountKey: setup.keys?.account.publicKey, blockKey: setup.keys?.block?.publicKey, now: clock.seconds(),
      });
      // The block that holds the boot transactions after push_boot's.
      chain.produceBlock();
    } catch (err) {
      await chain.close();
      throw err;
    }
    return chain;
  }

  /** A chain over the store in `directory`, served by the node's HTTP handler. */
  private static assemble(directory: string, clock: TestClock, setup: Setup): BootedChain {
    // A temporary store: nothing in it must outlive a crash, so commits are not synced to disk.
    const store = LmdbStore.open(directory, { durable: false });
    const sockets = new HttpSockets();
    const chain = new Chain(store, ENGINE, {
      producer: setup.producer, now: clock.now, manualBlocks: true, sockets,
      blockSigners: blockSignersOf(setup.keys?.block), onCallbackError: setup.onCallbackError, queryThreads: setup.queryThreads,
    });
    const server = new NodeHttpServer(chain, { sockets, tokens: setup.tokens, localHosts: new Map(), adminRoutes: NO_ADMIN_ROUTES });
    server.configure({ hosts: [setup.rootHost], services: [], httpTimeoutUs: null, maxConnections: undefined }, directory);
    return new BootedChain(directory, store, chain, server, clock, setup);
  }

  /** The head block (its header, id and the last irreversible block number). */
  get head(): ChainHead {
    return this.chain.head!;
  }

  /** What the query threads did (queryThreads), or undefined without any. */
  get queryFigures(): QueryThreadFigures | undefined {
    return this.chain.queryFigures;
  }

  /** The chain's time, ISO 8601. */
  get time(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** The root host requests go to by default. */
  get rootHost(): string {
    return this.setup.rootHost;
  }

  /** A block per push (true, the default), or blocks only when produceBlock says (false). */
  autoBlock(on: boolean): void {
    this.autoBlocks = on;
  }

  /** Closes the open block now, or produces an empty one; the clock moves on to its time if it was before. */
  produceBlock(): void {
    this.chain.produceBlock();
    this.clock.atLeast(Number(this.head.header.time / 1000n));
  }

  /** Sets the chain's time (ISO 8601); the next block's time follows. Going back is refused. */
  setTime(iso: string): void {
    this.clock.set(iso);
  }

  /** Moves the chain's time `ms` milliseconds on. */
  advance(ms: number): void {
    this.clock.advance(ms);
  }

  /**
   * A packed signed transaction of `actions`: TaPoS of the head block, expiring `expiresIn`
   * seconds from the chain's time, claimed and signed by `sign`. Pushed later with pushTransaction.
   */
  transaction(actions: readonly ActionInput[], options: TestPushOptions = {}): Uint8Array {
    return keySignedTransaction(this.tapos(options.expiresIn ?? DEFAULT_EXPIRES_IN, 0), actions, keyList(options.sign)).signed;
  }

  /** Pushes a transaction of `actions` (see transaction) as push_transaction does; into a block of its own unless autoBlock(false). */
  push(actions: readonly ActionInput[], options: TestPushOptions = {}): Promise<PushedTransaction> {
    return this.pushTransaction(this.transaction(actions, options));
  }

  /**
   * Pushes a packed SignedTransaction through the node's admission, proofs, auth and block path.
   * A transaction the node refuses before it runs (undecodable, a proof that fails) rejects
   * with the ChainError; one that fails running answers with its error.
   */
  pushTransaction(signed: Uint8Array): Promise<PushedTransaction> {
    const pushed = this.pushes.then(() => this.pushNow(signed));
    this.pushes = pushed.catch(() => undefined);
    return pushed;
  }

  /** Answers `request` through the node's HTTP handler (host resolution, /common, serveSys, sites, the root domain). */
  http(request: TestHttpRequest): Promise<TestHttpReply> {
    const { req, res, reply } = inMemoryExchange(request, this.setup.rootHost);
    this.server.answer(req, res);
    return reply;
  }

  /** POSTs `query` to `service`'s /graphql; the reply's JSON (`data`, and `errors` if any). A non-200 reply throws. */
  async graphql(service: string, query: string, token?: string): Promise<{ data?: Record<string, unknown>; errors?: { message: string }[] }> {
    const r = await this.http({
      method: 'POST', host: `${service}.${this.setup.rootHost}`, path: '/graphql', body: query,
      headers: { 'Content-Type': 'application/graphql', ...(token !== undefined ? { Authorization: `Bearer ${token}` } : {}) },
    });
    if (r.status !== 200) throw new TsibaseError('TESTCHAIN_HTTP_FAILED', `${service} /graphql: ${r.status} ${r.text()}`);
    return r.json() as { data?: Record<string, unknown>; errors?: { message: string }[] };
  }

  /**
   * A bearer token for `account` (docs/chain.md §7): a login transaction signed with `key`,
   * checked by the node's login at transact's /login. chain.http takes it in `Authorization: Bearer`.
   */
  async login(account: string, key?: KeyPair | readonly KeyPair[]): Promise<string> {
    const { signed } = keySignedTransaction(this.tapos(DEFAULT_EXPIRES_IN, DO_NOT_BROADCAST), [loginAction(account, this.setup.rootHost)], keyList(key));
    const r = await this.http({
      method: 'POST', host: `transact.${this.setup.rootHost}`, path: '/login', body: signed, headers: { 'Content-Type': 'application/octet-stream' },
    });
    if (r.status !== 200) throw new TsibaseError('TESTCHAIN_LOGIN_FAILED', `login of ${account} refused: ${r.status} ${r.text()}`);
    return (r.json() as { access_token: string }).access_token;
  }

  /**
   * Installs `code` (the module, or a build's `.wasm` path) as `account`'s service in one
   * transaction, as `tsibase deploy` does (setcode::setCode, the schema, the options' actions).
   * A failed deploy throws TESTCHAIN_DEPLOY_FAILED with the transaction's error.
   */
  async deploy(account: string, code: Uint8Array | string, options: TestDeployOptions = {}): Promise<PushedTransaction> {
    const built = serviceCode(code);
    const actions = deployActions(account, built.code, {
      create: options.create === false ? undefined : this.newAccountAuth(), creator: options.creator, registerServer: options.registerServer, init: options.init,
      schema: options.schema === undefined ? built.schema : options.schema,
    });
    const pushed = await this.push(actions, { sign: options.sign ?? this.setup.keys?.account });
    if (pushed.error !== null) throw new TsibaseError('TESTCHAIN_DEPLOY_FAILED', `deploying ${account}: ${pushed.error}`);
    return pushed;
  }

  /**
   * Creates `account` (sent by `creator`, default root): with auth-sig and `key` (the chain's
   * account key by default) on a secure chain, with auth-any on a development chain. Signed with
   * the chain's account key. A failure throws TESTCHAIN_ACCOUNT_FAILED.
   */
  async newAccount(account: string, options: { readonly creator?: string; readonly key?: Uint8Array } = {}): Promise<PushedTransaction> {
    const auth = options.key !== undefined ? { key: options.key } : this.newAccountAuth();
    const pushed = await this.push([newAccountAction(options.creator ?? 'root', account, auth)], { sign: this.setup.keys?.account });
    if (pushed.error !== null) throw new TsibaseError('TESTCHAIN_ACCOUNT_FAILED', `creating account ${account}: ${pushed.error}`);
    return pushed;
  }

  /**
   * A copy of the whole chain in a new temporary store, at the same time, with the same keys
   * and logins: what is pushed to one is not seen by the other. The open block must be
   * produced first (TESTCHAIN_BLOCK_OPEN).
   */
  async fork(): Promise<BootedChain> {
    await this.pushes;
    const directory = temporaryDirectory();
    try {
      await this.store.copyTo(directory);
    } catch (err) {
      rmSync(directory, { recursive: true, force: true });
      if ((err as TsibaseError).code === 'DB_UNCOMMITTED_WRITES') {
        throw new TsibaseError('TESTCHAIN_BLOCK_OPEN', 'a chain with an open block cannot be forked: produceBlock() first');
      }
      throw err;
    }
    const fork = BootedChain.assemble(directory, new TestClock(this.clock.now()), this.setup);
    fork.autoBlocks = this.autoBlocks;
    return fork;
  }

  /** Stops the chain, closes its store and removes its directory. */
  async close(): Promise<void> {
    await this.pushes;
    await this.chain.close();
    await this.server.close();
    await this.store.close();
    rmSync(this.directory, { recursive: true, force: true });
  }

  /** How accounts this chain creates authenticate: the chain's account key, or auth-any on a development chain. */
  private newAccountAuth(): NewAccountAuth {
    const key = this.setup.keys?.account;
    return key ? { key: key.publicKey } : { insecure: true };
  }

  /** TaPoS of the head block, expiring `expiresIn` seconds from the chain's time. */
  private tapos(expiresIn: number, flags: number) {
    const { header, blockId } = this.head;
    return { ...taposReference(header.blockNum, blockId), flags, expiration: BigInt(this.clock.seconds() + expiresIn) };
  }

  private async pushNow(signed: Uint8Array): Promise<PushedTransaction> {
    // The block is open before the push, so its start's events are not the transaction's.
    this.chain.openBlock();
    const before = this.chain.eventPosition();
    const trace = await this.chain.push(signed, 'applied');
    const events = trace.error === null ? this.chain.eventsSince(before) : [];
    if (this.autoBlocks) this.produceBlock();
    const packed = SignedTransaction.unpack(signed).transaction;
    const actions = ownActionTraces(trace, Transaction.unpack(packed).actions);
    return { id: bytesToHex(transactionId(packed)), trace, error: trace.error, actions, console: actions.map(consoleOf), events };
  }
}
