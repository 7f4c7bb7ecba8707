import { accountNumberFromName, methodNumberFromName } from '../../host-api/index.js';

// A pushed transaction's trace as the node answers it in JSON (docs/chain.md §6), and the search
// for one action in it: the transaction's actions run inside transact's processTransaction, so an
// action the client sent is a node below the top.

export interface ActionTraceJson {
  readonly action: { readonly sender: string; readonly service: string; readonly method: string };
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
