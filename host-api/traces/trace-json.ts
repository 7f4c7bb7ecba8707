import { bytesToHex } from '../encoding/hex.js';
import { TsibaseError } from '../errors.js';
import { accountNumberFromName, methodNumberFromName } from '../names/index.js';
import type { Action } from '../types/index.js';

// A transaction's trace as a node answers it in JSON (docs/chain.md §6), and the search for one
// action in it: the transaction's actions run inside transact's processTransaction, so an action
// the client sent is a node below the top.

export interface ActionJson {
  readonly sender: string;
  readonly service: string;
  readonly method: string;
  /** Hex. */
  readonly rawData?: string;
}

/** One entry of an action's innerTraces: exactly one of the three is present. */
export interface InnerTraceJson {
  readonly inner: {
    readonly ActionTrace?: ActionTraceJson;
    readonly ConsoleTrace?: { readonly console: string };
    /** `data` is hex. */
    readonly EventTrace?: { readonly name: string; readonly data: string };
  };
}

export interface ActionTraceJson {
  readonly action: ActionJson;
  /** Hex. */
  readonly rawRetval: string;
  readonly innerTraces: readonly InnerTraceJson[];
  /** Nanoseconds, as a decimal string. */
  readonly totalTime?: string;
  readonly error: string | null;
}

export interface TransactionTraceJson {
  readonly actionTraces: readonly ActionTraceJson[];
  readonly error: string | null;
}

/** The actions `trace` called, in the order they ran. */
export function calledActions(trace: ActionTraceJson): ActionTraceJson[] {
  return trace.innerTraces.flatMap((t) => (t.inner.ActionTrace ? [t.inner.ActionTrace] : []));
}

/** `trace` and every action under it, depth first. */
export function actionsUnder(trace: ActionTraceJson): ActionTraceJson[] {
  return [trace, ...calledActions(trace).flatMap(actionsUnder)];
}

/** The first action (depth first, in run order) of `service` as `method`; names compare as numbers. */
export function findActionTrace(traces: readonly ActionTraceJson[], service: string, method: string): ActionTraceJson | undefined {
  const serviceNumber = accountNumberFromName(service);
  const methodNumber = methodNumberFromName(method);
  for (const t of traces) {
    if (accountNumberFromName(t.action.service) === serviceNumber && methodNumberFromName(t.action.method) === methodNumber) return t;
    const found = findActionTrace(calledActions(t), service, method);
    if (found) return found;
  }
  return undefined;
}

/**
 * The trace of each action a client sent, in the order sent. transact's pseudo-action
 * (`traces[0]`, docs/chain.md §6) runs them in order among the calls it makes itself (auth
 * checks, callbacks), so each is the next of its sender, service, method and data there.
 */
export function sentActionTraces(traces: readonly ActionTraceJson[], sent: readonly Action[]): ActionTraceJson[] {
  const called = traces[0] ? calledActions(traces[0]) : [];
  let from = 0;
  return sent.map((action, i) => {
    const data = bytesToHex(action.rawData).toLowerCase();
    const at = called.findIndex((t, j) => j >= from && accountNumberFromName(t.action.sender) === action.sender
      && accountNumberFromName(t.action.service) === action.service && methodNumberFromName(t.action.method) === action.method
      && t.action.rawData?.toLowerCase() === data);
    if (at < 0) throw new TsibaseError('CLI_TRACE_INCOMPLETE', `the transaction's trace holds no run of its action ${i}`);
    from = at + 1;
    return called[at]!;
  });
}
