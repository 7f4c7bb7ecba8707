// `tsibase/client`: a node as a program pushes to it, over the CLI's own chain client. With the
// typed clients 'tsibase codegen' writes: push their Actions, decode `retvals` with their results.
import { Action, hexToBytes, type KeyPair } from '../../host-api/index.js';
import { sentActionTraces } from '../../host-api/traces/trace-json.js';
import { ChainClient, type ActionInput, type PushOptions, type Pushed } from './chain-client.js';

export { readPrivateKey } from './key-arguments.js';
export type { ActionInput, Pushed } from './chain-client.js';
export type { TransactionTraceJson } from '../../host-api/traces/trace-json.js';

export interface ConnectOptions {
  /** The keys every transaction is signed with (claims for verify-sig): those of the senders' auth-sig accounts. */
  readonly keys?: readonly KeyPair[];
}

export interface PushResult extends Pushed {
  /** The return value of each action pushed, in the order given. */
  readonly retvals: Uint8Array[];
}

export interface Connection {
  /** The node's root URL, e.g. http://tsibase.localhost:8080. */
  readonly url: string;
  /** Signs and pushes one transaction of `actions`; a refused or failed transaction throws its error. */
  push(actions: readonly ActionInput[], options?: Omit<PushOptions, 'keys'>): Promise<PushResult>;
}

/** The node at `url`, pushing transactions signed with `keys`. */
export function connect(url: string, options: ConnectOptions = {}): Connection {
  const client = new ChainClient(url);
  return {
    url,
    async push(actions, pushOptions = {}) {
      const sent = actions.map((action) => Action.unpack(Action.pack(action)));
      const pushed = await client.push(sent, { ...pushOptions, keys: options.keys ?? [] });
      const traces = sentActionTraces(pushed.trace.actionTraces, sent);
      return { ...pushed, retvals: traces.map((t) => hexToBytes(t.rawRetval)) };
    },
  };
}
