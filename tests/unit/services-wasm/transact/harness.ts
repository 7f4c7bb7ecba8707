// The transact service on the in-process test chain with the accounts service, a test auth
// service (auth-test) that reports every checkAuthSys call and refuses what it is told to, and a
// runner test service deployed as several accounts. Every account the tests use is set up with
// auth-test; auth stays off until a test runs finishBoot. Tests set the native status row
// themselves to play the node's current and head blocks.
import * as assert from 'uvu/assert';
import { DbId } from '../../../../host-api/abi/databases.js';
import { statusKey } from '../../../../host-api/abi/keys.js';
import {
  Transaction, accountNumberFromName, compileSchema, methodNumberFromName, transactionId,
  type Action, type Claim, type Tapos,
} from '../../../../host-api/index.js';
import { ProcessTransactionArgs, StatusRow } from '../../../../host-api/types/native.js';
import { TestChain, type RunOptions, type RunResult } from '../../../../runtime/testing/test-chain.js';
import { compiledEntry, compiledService, type CompiledService } from '../program.js';
import { ServiceCodec, type ServiceSchema } from '../../../../host-api/client/service-codec.js';

const SERVICES_DIR = 'tests/unit/services-wasm/transact/services';
const PRIVILEGED = 1n;
export const SECOND = 1_000_000n;
/** Block time of the tests' current block unless they set another: 2025-01-01T00:00:00Z. */
export const NOW = 1_735_689_600n;

/** Accounts running the runner service. */
export const RUNNERS = ['runner', 'svc-a', 'svc-b'] as const;
/** Accounts without code. */
export const USERS = ['alice', 'bob', 'carol'] as const;

const eventHeader = compileSchema({}).typeOf({ Object: { service: 'AccountNumber', type: { Option: 'MethodNumber' } } });

export interface DecodedEvent {
  service: string;
  name: string;
  data: Record<string, unknown>;
}

export interface StatusInput {
  /** The block being built. */
  blockNum: number;
  /** Its time in seconds. */
  time: bigint;
  /** The last completed block, if any. */
  head?: { blockNum: number; time: bigint; suffix: number };
}

/** A block id whose TaPoS suffix (last 4 bytes, little-endian) is `suffix`. */
export function blockId(blockNum: number, suffix: number): Uint8Array {
  const id = new Uint8Array(32).fill(0xab);
  const view = new DataView(id.buffer);
  view.setUint32(0, blockNum, false);
  view.setUint32(28, suffix, true);
  return id;
}

function header(blockNum: number, seconds: bigint, previous: Uint8Array = new Uint8Array(32)) {
  const zero = new Uint8Array(32);
  return {
    previous, blockNum, time: seconds * SECOND, producer: 'prod', term: 1, commitNum: blockNum,
    consensusState: zero, trxMerkleRoot: zero, eventMerkleRoot: zero, newConsensus: null, authCode: null,
  };
}

const CONSENSUS = {
  current: {
    data: { CftConsensus: { producers: [{ name: 'prod', auth: { service: 0n, rawData: new Uint8Array(0) } }] } },
    services: [],
    wasmConfig: { numExecutionMemories: 32, vmOptions: { maxMutableGlobalBytes: 1024, maxPages: 512, maxTableElements: 8192, maxStackBytes: 1 << 20 } },
  },
  next: null,
};

let built: Promise<Record<string, ServiceCodec & { binary: Uint8Array }>> | undefined;

function withBinary(compiled: CompiledService) {
  return Object.assign(new ServiceCodec(compiled.schema as ServiceSchema), { binary: compiled.binary });
}

/** transact and the test services, compiled once per process. */
function services() {
  built ??= (async () => {
    const compile = async (name: string) => withBinary(await compiledEntry(`${SERVICES_DIR}/${name}.as.ts`));
    return {
      transact: withBinary(await compiledService('transact')),
      accounts: withBinary(await compiledService('accounts')),
      'auth-test': await compile('auth-test'),
      runner: await compile('runner'),
    };
  })();
  return built;
}

export interface PushOptions extends RunOptions {
  speculative?: boolean;
}

export class TransactChain {
  private made = 0;

  private constructor(
    readonly chain: TestChain,
    private readonly codecs: Record<string, ServiceCodec>,
  ) {}

  /** A fresh chain with everything deployed; block 2 is being built, no head yet. */
  static async open(): Promise<TransactChain> {
    const codecs = await services();
    const chain = TestChain.open();
    chain.deploy('transact', codecs.transact.binary, PRIVILEGED);
    chain.deploy('accounts', codecs.accounts.binary, PRIVILEGED);
    chain.deploy('auth-test', codecs['auth-test'].binary);
    for (const runner of RUNNERS) chain.deploy(runner, codecs.runner.binary);
    const t = new TransactChain(chain, codecs);
    t.setStatus({ blockNum: 2, time: NOW });
    t.setUpAccounts();
    return t;
  }

  /** Every deployed service and user account authenticated by auth-test. */
  private setUpAccounts(): void {
    assertOk(this.call('runner', 'accounts', 'init'));
    for (const user of USERS) assertOk(this.call('runner', 'accounts', 'newAccount', { name: user, authService: 'auth-test', requireMatch: true }));
    for (const service of ['transact', ...RUNNERS]) assertOk(this.call(service, 'accounts', 'setAuthServ', { authService: 'auth-test' }));
  }

  /** Runs finishBoot as a transaction: auth is on from then on. */
  finishBoot(): void {
    assertOk(this.push(this.transaction([this.action('transact', 'transact', 'finishBoot')])));
  }

  close(): Promise<void> {
    return this.chain.close();
  }

  /** The codec of the service running at `account`. */
  codec(account: string): ServiceCodec {
    const codec = this.codecs[(RUNNERS as readonly string[]).includes(account) ? 'runner' : account];
    if (!codec) throw new Error(`no service at ${account}`);
    return codec;
  }

  /** Writes the native status row as the node would before running transactions. */
  setStatus(status: StatusInput): void {
    const head = status.head
      ? { header: header(status.head.blockNum, status.head.time), blockId: blockId(status.head.blockNum, status.head.suffix) }
      : null;
    const current = header(status.blockNum, status.time, head ? head.blockId : undefined);
    this.chain.store.put(DbId.native, statusKey(), StatusRow.pack({ chainId: new Uint8Array(32), current, head, consensus: CONSENSUS }));
    this.chain.store.commit();
  }

  action(sender: string | bigint, service: string, method: string, args: unknown = {}): Action {
    const toAccount = (a: string | bigint) => (typeof a === 'string' ? accountNumberFromName(a) : a);
    return { sender: toAccount(sender), service: toAccount(service), method: methodNumberFromName(method), rawData: this.codec(service).args(method, args) };
  }

  /**
   * A packed Transaction. TaPoS defaults to the zero reference and an expiration a minute or so
   * after NOW, a second later for each transaction, so that equal actions still make distinct
   * transactions.
   */
  transaction(actions: Action[], tapos: Partial<Tapos> = {}, claims: Claim[] = []): Uint8Array {
    const expiration = NOW + 60n + BigInt(this.made++);
    return Transaction.pack({
      tapos: { expiration, refBlockSuffix: 0, flags: 0, refBlockIndex: 0, ...tapos },
      actions,
      claims,
    });
  }

  /** The node's processTransaction call for a packed transaction. */
  push(transaction: Uint8Array, options: PushOptions = {}): RunResult {
    const rawData = ProcessTransactionArgs.pack({ transaction, id: transactionId(transaction), speculative: options.speculative ?? false });
    return this.chain.runExport('transact', 'processTransaction', rawData, { mode: options.speculative ? 'speculative' : 'transaction', ...options });
  }

  /** Runs one action directly (not as a transaction); `value` is its decoded result. */
  call(sender: string | bigint, service: string, method: string, args: unknown = {}, options: RunOptions = {}): RunResult & { value?: unknown } {
    const result = this.chain.run(this.action(sender, service, method, args), options);
    return { ...result, value: this.codec(service).valueOf(method, result) };
  }

  /** The events a run emitted, decoded by the schema of the service that emitted each. */
  events(result: RunResult): DecodedEvent[] {
    return result.events.map(({ value }) => {
      const { service, type } = eventHeader.unpack(value, { compat: true }) as { service: bigint; type: bigint };
      const account = Object.keys(this.codecs).concat(RUNNERS).find((a) => accountNumberFromName(a) === service);
      if (!account) throw new Error(`an event of an unknown service ${service}`);
      const codec = this.codec(account);
      const name = codec.eventNames().find((n) => methodNumberFromName(n) === type)!;
      return { service: account, name, data: codec.event(name, value) as Record<string, unknown> };
    });
  }
}

/** Asserts that a run failed with an error that contains `text`. */
export function assertFails(result: RunResult, text: string): void {
  assert.ok(result.error?.includes(text), `expected an error with "${text}", got: ${result.error ?? 'success'}`);
}

/** Asserts that a run succeeded. */
export function assertOk(result: RunResult): void {
  assert.is(result.error, undefined, `unexpected error: ${result.error}`);
}
