import type { Action, ActionTrace, InnerTrace } from '../../host-api/types/index.js';

const EMPTY = new Uint8Array(0);

/** A fresh trace node for an action about to run. */
export function newActionTrace(action: Action): ActionTrace {
  return { action, rawRetval: EMPTY, innerTraces: [], totalTime: 0n, error: null };
}

/** Appends console output; adjacent writes merge into one ConsoleTrace (docs/chain.md §6). */
export function appendConsole(trace: ActionTrace, text: string): void {
  const last = trace.innerTraces[trace.innerTraces.length - 1];
  if (last && 'ConsoleTrace' in last.inner) last.inner.ConsoleTrace.console += text;
  else trace.innerTraces.push({ inner: { ConsoleTrace: { console: text } } } as InnerTrace);
}

export function appendAction(trace: ActionTrace, inner: ActionTrace): void {
  trace.innerTraces.push({ inner: { ActionTrace: inner } });
}

/** All console output of a trace tree, in execution order. */
export function consoleOf(trace: ActionTrace): string {
  let out = '';
  for (const { inner } of trace.innerTraces) {
    if ('ConsoleTrace' in inner) out += inner.ConsoleTrace.console;
    else if ('ActionTrace' in inner) out += consoleOf(inner.ActionTrace);
  }
  return out;
}
