// Traces as text against golden outputs: every golden/<name>.trace.json (traces as a node answers
// them, docs/chain.md §6) in every format, and its console output, must print exactly as
// golden/<name>.<format>.txt. After a deliberate change of the text, UPDATE_GOLDEN=1 rewrites the
// golden files from the renderer; review their diff before committing it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { failingPath, renderTrace, traceConsole, TRACE_FORMATS } from '../../../../host-api/traces/render-trace.js';
import type { TransactionTraceJson } from '../../../../host-api/traces/trace-json.js';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'tests', 'unit', 'host-api', 'traces', 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const traces = readdirSync(GOLDEN).filter((f) => f.endsWith('.trace.json')).map((f) => f.slice(0, -'.trace.json'.length));

function checkGolden(file: string, actual: string): void {
  const path = join(GOLDEN, file);
  if (UPDATE) writeFileSync(path, actual);
  assert.fixture(actual, readFileSync(path, 'utf8'), file);
}

test('the golden traces are there', () => {
  assert.equal(traces.sort(), ['expired', 'nested-failure', 'success']);
});

for (const name of traces) {
  const trace = JSON.parse(readFileSync(join(GOLDEN, `${name}.trace.json`), 'utf8')) as TransactionTraceJson;
  for (const format of TRACE_FORMATS) {
    test(`${name} in format ${format}`, () => {
      const text = renderTrace(trace, format);
      checkGolden(`${name}.${format}.txt`, text === '' ? '' : `${text}\n`);
    });
  }
  test(`${name}: console output`, () => checkGolden(`${name}.console.txt`, traceConsole(trace)));
}

test('the failing path runs from the user action down to the action that failed, without the transaction entry', () => {
  const trace = JSON.parse(readFileSync(join(GOLDEN, 'nested-failure.trace.json'), 'utf8')) as TransactionTraceJson;
  assert.equal(failingPath(trace.actionTraces).map((t) => `${t.action.service}::${t.action.method}`), ['shop::buy', 'ledger::debit']);
  assert.equal(failingPath([]), []);
});

test('json is the trace itself', () => {
  const trace = JSON.parse(readFileSync(join(GOLDEN, 'success.trace.json'), 'utf8')) as TransactionTraceJson;
  assert.equal(JSON.parse(renderTrace(trace, 'json')), trace);
});

test.run();
