import { accountNumberFromName, bytesToHex, methodNumberFromName, type Action } from '../../host-api/index.js';
import { TsibaseError } from '../../host-api/errors.js';

// A pushed transaction's trace as the node answers it in JSON (docs/chain.md §6), and the search
// for one action in it, or for each action a client sent: the transaction's actions run inside
// transact's processTransaction, so an action the client sent is a node below the top.

export interface ActionTraceJson {
  readonly action: { readonly sender: string; readonly service: string; readonly method: string; readonly rawData: string };
  /** Hex. */
  readonly rawRetval: string;
  readonly innerTraces: readonly { readonly inner: { readonly ActionTrace?: ActionTraceJson } }[];
  readonly error: string | null;
}

/** The actions `trace` called, in the order they ran. */
export function calledActions(trace: ActionTraceJson): ActionTraceJson[] {
  return trace.innerTraces.flatMap((t) => (t.inner.ActionTrace ? [t.inner.ActionTrace] : []));
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
      && t.action.rawData.toLowerCase() === data);
    if (at < 0) throw new TsibaseError('CLI_TRACE_INCOMPLETE', `the transaction's trace holds no run of its action ${i}`);
    from = at + 1;
    return called[at]!;
  });
}
