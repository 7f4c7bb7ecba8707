import { TsibaseError } from '../../host-api/errors.js';
import { bytesToHex, keySignedTransaction, loginAction, type Action, type KeyPair } from '../../host-api/index.js';
import { DO_NOT_BROADCAST, type TaposReference } from '../../host-api/chain/index.js';
import { isSystemAction, systemAction } from '../../host-api/boot/index.js';
import type { TransactionTraceJson } from '../../host-api/traces/trace-json.js';
import { httpRequest, serviceUrl, type HttpReply } from './client.js';

// What the client commands share: TaPoS from the node, signing, pushing and reporting failures.

export const DEFAULT_API = 'http://tsibase.localhost:8080';

/** An action as packing takes it: numbers, or names (and hex for rawData). */
export type ActionInput = Action | { sender: string; service: string; method: string; rawData: Uint8Array | string };

export interface PushOptions {
  readonly keys?: readonly KeyPair[];
  /** `final` (default) answers once the block holding the transaction is final. */
  readonly waitFor?: 'applied' | 'final';
  /** Seconds until the transaction expires (default 10). */
  readonly expiresIn?: number;
}

export interface Pushed {
  /** The transaction id (hex). */
  readonly id: string;
  readonly trace: TransactionTraceJson;
}

/** A pushed transaction that the chain ran and refused: its trace says where it failed. */
export class TransactionFailed extends TsibaseError {
  constructor(readonly id: string, readonly trace: TransactionTraceJson) {
    super('CLI_TRANSACTION_FAILED', `transaction ${id} failed: ${trace.error}`);
  }
}

/** The text of a node's answer to chain requests while it has no chain (runtime/http/server.ts). */
const NO_CHAIN_TEXT = 'not connected to any psibase network';

/**
 * The error for a node's redirect or no-chain answer to a chain request (runtime/http/server.ts):
 * a node redirects requests for a host it does not serve (an address, `localhost`) to its root
 * domain, and chain requests to x-admin while it has no chain. Following the redirect would lose
 * the service subdomain a request was for, so the CLI says what to pass instead.
 */
function misdirected(api: string, r: HttpReply): TsibaseError | undefined {
  const location = r.headers.location;
  if (r.status >= 300 && r.status < 400 && typeof location === 'string') {
    const target = new URL(location, api);
    if (r.text().includes(NO_CHAIN_TEXT)) return noChain(api, target.origin);
    const root = new URL(target.origin);
    return new TsibaseError('CLI_WRONG_HOST', `the node at ${api} serves its chain at ${root.origin}, not at ${new URL(api).host}: pass -a ${root.origin}`);
  }
  if (r.status === 503 && r.text().includes(NO_CHAIN_TEXT)) return noChain(api, undefined);
  return undefined;
}

function noChain(api: string, admin: string | undefined): TsibaseError {
  const setup = admin ? ` or open ${admin}/ in a browser` : '';
  return new TsibaseError('CLI_NO_CHAIN', `the node at ${api} has no chain yet: boot one with 'tsibase boot -a ${api}'${setup}`);
}

export class ChainClient {
  constructor(readonly api: string = DEFAULT_API) {}

  /** A request to the node: its redirect or no-chain answer throws what to do instead. */
  private async request(url: string, init: Parameters<typeof httpRequest>[1] = {}): Promise<HttpReply> {
    const r = await httpRequest(url, init);
    const error = misdirected(this.api, r);
    if (error) throw error;
    return r;
  }

  /** The JSON a GET of `path` on the node's root domain answers; a non-200 reply throws. */
  async getJson(path: string): Promise<unknown> {
    const r = await this.request(new URL(path, this.api).toString());
    if (r.status !== 200) throw new TsibaseError('CLI_NODE_ERROR', `GET ${path}: ${r.status} ${r.text()}`);
    return r.json();
  }

  /** The `data` of a GraphQL query to `service`'s /graphql; an error reply or GraphQL errors throw. */
  async graphql(service: string, query: string): Promise<Record<string, unknown>> {
    const r = await this.request(serviceUrl(this.api, service, '/graphql'), {
      method: 'POST',
      headers: { 'content-type': 'application/graphql' },
      body: new TextEncoder().encode(query),
    });
    if (r.status !== 200) throw new TsibaseError('CLI_NODE_ERROR', `${service} /graphql: ${r.status} ${r.text()}`);
    const reply = r.json() as { data?: Record<string, unknown>; errors?: { message: string }[] };
    if (reply.errors?.length) throw new TsibaseError('CLI_NODE_ERROR', `${service} /graphql: ${reply.errors.map((e) => e.message).join('; ')}`);
    return reply.data ?? {};
  }

  /** The reference to the head block a transaction's TaPoS uses (docs/serving.md §4.2 /common/tapos/head). */
  async headReference(): Promise<TaposReference> {
    return (await this.getJson('/common/tapos/head')) as TaposReference;
  }

  /** TaPoS of the head block and an expiration `expiresIn` seconds away. */
  async tapos(expiresIn: number) {
    return { expiration: BigInt(Math.floor(Date.now() / 1000) + expiresIn), ...(await this.headReference()), flags: 0 };
  }

  /** The action arguments `data` packed by the service's own /pack_action/<method> helper. */
  async packAction(service: string, method: string, data: unknown): Promise<Uint8Array> {
    const r = await this.request(serviceUrl(this.api, service, `/pack_action/${method}`), {
      method: 'POST', body: new TextEncoder().encode(JSON.stringify(data)), headers: { 'content-type': 'application/json' },
    });
    const name = `${service}.${method}`;
    if (r.status === 404 && isSystemAction(name)) {
      // System services without /pack_action (transact, setcode, ...): their arguments are known here.
      try {
        return systemAction(service, name, data as Record<string, unknown>).rawData;
      } catch (err) {
        throw new TsibaseError('CLI_BAD_INPUT', `the arguments of ${service}::${method}: ${(err as Error).message}`);
      }
    }
    if (r.status !== 200) throw new TsibaseError('CLI_NODE_ERROR', `${service} cannot pack ${method}: ${r.status} ${r.text()}`);
    return r.body;
  }

  /** Signs and pushes one transaction; a failed transaction throws TransactionFailed. */
  async push(actions: readonly ActionInput[], options: PushOptions = {}): Promise<Pushed> {
    const { id, signed } = await this.sign(actions, options.keys ?? [], options.expiresIn ?? 10, 0);
    const r = await this.post(`/push_transaction?wait_for=${options.waitFor ?? 'final'}`, signed);
    if (r.status !== 200) throw new TsibaseError('CLI_TRANSACTION_FAILED', `transaction refused: ${r.text()}`);
    const trace = r.json() as TransactionTraceJson;
    if (trace.error !== null) throw new TransactionFailed(id, trace);
    return { id, trace };
  }

  /**
   * A bearer token for `user` on this node (docs/chain.md §7): a login transaction signed with
   * `keys`, checked by the node and never executed.
   */
  async login(user: string, keys: readonly KeyPair[], expiresIn = 10): Promise<string> {
    const rootHost = (await this.getJson('/common/rootdomain')) as string;
    const { signed } = await this.sign([loginAction(user, rootHost)], keys, expiresIn, DO_NOT_BROADCAST);
    const r = await this.post('/login', signed);
    if (r.status !== 200) throw new TsibaseError('CLI_LOGIN_FAILED', `login refused: ${r.status} ${r.text()}`);
    return (r.json() as { access_token: string }).access_token;
  }

  private async sign(actions: readonly ActionInput[], keys: readonly KeyPair[], expiresIn: number, flags: number) {
    const tapos = { ...(await this.tapos(expiresIn)), flags };
    const { id, signed } = keySignedTransaction(tapos, actions, keys);
    return { id: bytesToHex(id), signed };
  }

  /** POSTs a packed signed transaction to transact's `target`. */
  private post(target: string, signed: Uint8Array) {
    return this.request(serviceUrl(this.api, 'transact', target), { method: 'POST', body: signed, headers: { 'content-type': 'application/octet-stream' } });
  }
}
