import type { ActionJson, ActionTraceJson, InnerTraceJson, TransactionTraceJson } from './trace-json.js';

// A transaction's trace as text for people (docs/chain.md §6 gives the JSON it reads). It takes the
// JSON a node answers and nothing else, so the CLI, TestChain and the node's log print traces alike.
// The formats are psibase's: `error` is the message alone, `stack` the chain of actions that
// failed down to the one that failed first, then the message, `full` the whole tree of actions
// with their console output, events and return values, `json` the trace itself.

export type TraceFormat = 'error' | 'stack' | 'full' | 'json';

export const TRACE_FORMATS: readonly TraceFormat[] = ['error', 'stack', 'full', 'json'];

/** Bytes of return values and event data shown in full; longer ones are cut there. */
const SHOWN_BYTES = 32;

const INDENT = '  ';

/** `trace` in `format`, without a final newline; the empty string when there is nothing to say (`error`, `stack` of a success). */
export function renderTrace(trace: TransactionTraceJson, format: TraceFormat): string {
  switch (format) {
    case 'error':
      return trace.error ?? '';
    case 'stack':
      return trace.error === null ? '' : [...failingPath(trace.actionTraces).map((t, depth) => line(depth, actionLine(t, isFailure(t)))), trace.error].join('\n');
    case 'full': {
      const lines: string[] = [];
      for (const t of trace.actionTraces) writeAction(t, 0, lines);
      if (trace.error !== null) lines.push(labelled(0, 'error', trace.error));
      return lines.join('\n');
    }
    case 'json':
      return JSON.stringify(trace, null, 2);
  }
}

/** All console output of the trace, in the order it was written. */
export function traceConsole(trace: TransactionTraceJson): string {
  let out = '';
  const visit = (t: ActionTraceJson) => {
    for (const { inner } of t.innerTraces) {
      if (inner.ConsoleTrace) out += inner.ConsoleTrace.console;
      else if (inner.ActionTrace) visit(inner.ActionTrace);
    }
  };
  trace.actionTraces.forEach(visit);
  return out;
}

/**
 * The actions that failed, outermost first, down to the one that failed first: the error
 * unwinds every caller, so each on the path carries it. The transaction's own entry (method 0,
 * see isTransactionEntry) is left out.
 */
export function failingPath(traces: readonly ActionTraceJson[]): ActionTraceJson[] {
  const path: ActionTraceJson[] = [];
  for (let failed = lastFailed(traces); failed; failed = lastFailed(calledOf(failed))) {
    if (!isTransactionEntry(failed.action)) path.push(failed);
  }
  return path;
}

/** The last action of `traces` that failed (a transaction stops at its first failure, so it is the only one). */
function lastFailed(traces: readonly ActionTraceJson[]): ActionTraceJson | undefined {
  for (let i = traces.length - 1; i >= 0; i--) if (traces[i]!.error !== null) return traces[i];
  return undefined;
}

/**
 * The pseudo-action a transaction's actions run under (docs/chain.md §6: method 0, named ""):
 * printed through its contents, which are what the transaction did.
 */
function isTransactionEntry(action: ActionJson): boolean {
  return action.method === '';
}

function calledOf(t: ActionTraceJson): ActionTraceJson[] {
  return t.innerTraces.flatMap(({ inner }) => (inner.ActionTrace ? [inner.ActionTrace] : []));
}

/** The action where the error arose: it failed and no action it called did. */
function isFailure(t: ActionTraceJson): boolean {
  return t.error !== null && !calledOf(t).some((c) => c.error !== null);
}

/** `sender → service::method`. */
export function actionName({ sender, service, method }: ActionJson): string {
  return `${sender} → ${service}::${method}`;
}

function actionLine(t: ActionTraceJson, failedHere: boolean): string {
  return `${actionName(t.action)}${failedHere ? '  (failed here)' : ''}`;
}

function writeAction(t: ActionTraceJson, depth: number, lines: string[]): void {
  if (isTransactionEntry(t.action)) {
    writeInner(t.innerTraces, depth, lines);
    return;
  }
  const failedHere = isFailure(t);
  lines.push(line(depth, actionLine(t, failedHere)));
  if (t.rawRetval !== '') lines.push(labelled(depth + 1, 'retval', shownHex(t.rawRetval)));
  writeInner(t.innerTraces, depth + 1, lines);
  if (failedHere) lines.push(labelled(depth + 1, 'error', t.error!));
}

function writeInner(inner: readonly InnerTraceJson[], depth: number, lines: string[]): void {
  for (const { inner: entry } of inner) {
    if (entry.ActionTrace) writeAction(entry.ActionTrace, depth, lines);
    else if (entry.ConsoleTrace) lines.push(labelled(depth, 'console', entry.ConsoleTrace.console.replace(/\n$/, '')));
    else if (entry.EventTrace) lines.push(labelled(depth, 'event', eventText(entry.EventTrace)));
  }
}

function eventText({ name, data }: { name: string; data: string }): string {
  const shown = name === '' ? '(no name)' : name;
  return data === '' ? shown : `${shown} ${shownHex(data)}`;
}

function line(depth: number, text: string): string {
  return INDENT.repeat(depth) + text;
}

/** `label: text`, the lines of a multi-line text aligned under its first. */
function labelled(depth: number, label: string, text: string): string {
  const head = `${INDENT.repeat(depth)}${label}: `;
  return head + text.split('\n').join(`\n${' '.repeat(head.length)}`);
}

/** Hex of at most SHOWN_BYTES bytes, and the length when it was cut. */
function shownHex(hex: string): string {
  const bytes = hex.length / 2;
  if (bytes <= SHOWN_BYTES) return hex;
  return `${hex.slice(0, SHOWN_BYTES * 2)}… (${bytes} bytes)`;
}
