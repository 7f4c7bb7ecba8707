// The OpenMetrics exposition: valid under a strict reading of the format, carrying exactly the
// figures of the JSON report, with the node's extra gauges checked before they are written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MetricsError } from '../../../../runtime/metrics/errors.js';
import { OPENMETRICS_CONTENT_TYPE, renderOpenMetrics, type ExtraGauge } from '../../../../runtime/metrics/open-metrics.js';
import { collectPerfReport, type PerfReport } from '../../../../runtime/metrics/perf-report.js';
import { TransactionCounters } from '../../../../runtime/metrics/transaction-counters.js';
import { assertFails } from '../../../lib/assert-error.js';
import { parseOpenMetrics, type ParsedFamily } from './open-metrics-checker.js';

const REPORT: PerfReport = {
  timestamp: '1700000000000000',
  transactions: { total: '12', unprocessed: '3', succeeded: '7', failed: '1', skipped: '1' },
  network: { links: '1', blocksReceived: '40', blocksApplied: '39', blocksRefused: '1' },
  memory: { database: '4096', code: '20480', data: '8192', wasmMemory: '33554432', wasmCode: '1024', unclassified: '0' },
  tasks: [
    { id: 100, group: 'main', user: '1234567', system: '5', pageFaults: '9007199254740993', read: '8192', written: '4096' },
    { id: 101, group: 'odd "name" \\ with\nbreak', user: '0', system: '1000000', pageFaults: '0', read: '0', written: '18446744073709551615' },
  ],
};

function family(families: Map<string, ParsedFamily>, name: string): ParsedFamily {
  const found = families.get(name);
  assert.ok(found, `family ${name}`);
  return found!;
}

/** The value of the one sample whose labels include `labels`. */
function valueOf(families: Map<string, ParsedFamily>, name: string, labels: Record<string, string> = {}): string {
  const matching = family(families, name).samples.filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.is(matching.length, 1, `one sample of ${name} ${JSON.stringify(labels)}`);
  return matching[0]!.value;
}

/** Seconds as OpenMetrics shows them, back to exact microseconds. */
function microsOf(seconds: string): string {
  const [whole, fraction = ''] = seconds.split('.');
  return String(BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6)));
}

/** Every figure of the report, read back out of the exposition. */
function assertSameFigures(text: string, report: PerfReport): void {
  const families = parseOpenMetrics(text);
  assert.is(valueOf(families, 'tsibase_transactions_received'), report.transactions.total);
  assert.is(valueOf(families, 'tsibase_transactions_unprocessed'), report.transactions.unprocessed);
  for (const result of ['succeeded', 'failed', 'skipped'] as const) {
    assert.is(valueOf(families, 'tsibase_transactions_handled', { result }), report.transactions[result]);
  }
  for (const [category, bytes] of Object.entries(report.memory)) {
    assert.is(valueOf(families, 'tsibase_memory_bytes', { category }), bytes);
  }
  assert.is(family(families, 'tsibase_memory_bytes').samples.length, 6);
  for (const task of report.tasks) {
    const labels = { thread: String(task.id), group: task.group };
    assert.is(microsOf(valueOf(families, 'tsibase_cpu_user_seconds', labels)), task.user);
    assert.is(microsOf(valueOf(families, 'tsibase_cpu_system_seconds', labels)), task.system);
    assert.is(valueOf(families, 'tsibase_page_faults', labels), task.pageFaults);
    assert.is(valueOf(families, 'tsibase_read_bytes', labels), task.read);
    assert.is(valueOf(families, 'tsibase_written_bytes', labels), task.written);
  }
}

test('the content type of OpenMetrics 1.0', () => {
  assert.is(OPENMETRICS_CONTENT_TYPE, 'application/openmetrics-text; version=1.0.0; charset=utf-8');
});

test('a fixed report: valid text with its exact figures, 64-bit values and escaped labels included', () => {
  const text = renderOpenMetrics(REPORT);
  assertSameFigures(text, REPORT);
  const families = parseOpenMetrics(text);
  assert.is(family(families, 'tsibase_cpu_user_seconds').type, 'counter');
  assert.is(family(families, 'tsibase_cpu_user_seconds').unit, 'seconds');
  assert.is(family(families, 'tsibase_memory_bytes').type, 'gauge');
  assert.is(family(families, 'tsibase_memory_bytes').unit, 'bytes');
  assert.is(valueOf(families, 'tsibase_cpu_user_seconds', { thread: '100' }), '1.234567');
  assert.ok(text.includes('group="odd \\"name\\" \\\\ with\\nbreak"'), 'escaped as the format says');
  assert.ok(text.endsWith('\n# EOF\n'));
});

test('a live report: the same figures as its JSON', () => {
  const counters = new TransactionCounters(() => 2);
  counters.received();
  counters.received();
  const report = collectPerfReport({ transactions: counters, network: () => ({ links: 0, blocksReceived: 0, blocksApplied: 0, blocksRefused: 0 }), databaseFiles: [], wasm: () => ({ wasmMemory: 65536, wasmCode: 300 }) });
  assertSameFigures(renderOpenMetrics(report), report);
});

test('extra gauges of the node follow the report', () => {
  const gauges: ExtraGauge[] = [
    { name: 'tsibase_head_block_number', help: 'Number of the head block.', value: 42n },
    { name: 'tsibase_peer_latency_seconds', help: 'Mean peer latency.', value: 0.25, unit: 'seconds' },
  ];
  const families = parseOpenMetrics(renderOpenMetrics(REPORT, gauges));
  assert.is(valueOf(families, 'tsibase_head_block_number'), '42');
  assert.is(family(families, 'tsibase_head_block_number').type, 'gauge');
  assert.is(family(families, 'tsibase_head_block_number').help, 'Number of the head block.');
  assert.is(valueOf(families, 'tsibase_peer_latency_seconds'), '0.25');
  assert.is(family(families, 'tsibase_peer_latency_seconds').unit, 'seconds');
  assert.equal([...families.keys()].slice(-2), ['tsibase_head_block_number', 'tsibase_peer_latency_seconds']);
});

test('extra gauges: invalid, reserved or taken names and non-finite values are refused', () => {
  const refused = (gauge: Partial<ExtraGauge>, part: string) =>
    assertFails(() => renderOpenMetrics(REPORT, [{ name: 'tsibase_x', help: 'x', value: 1, ...gauge }]), MetricsError, 'METRICS_BAD_GAUGE', [part]);
  refused({ name: 'head_block' }, 'tsibase_');
  refused({ name: 'tsibase_Head' }, 'lower case');
  refused({ name: 'tsibase_blocks_total' }, 'reserved');
  refused({ name: 'tsibase_memory_bytes' }, 'already in use');
  refused({ name: 'tsibase_x', unit: 'bytes' }, '_bytes');
  refused({ value: Number.NaN }, 'not finite');
  assertFails(() => renderOpenMetrics(REPORT, [
    { name: 'tsibase_x', help: 'x', value: 1 }, { name: 'tsibase_x', help: 'again', value: 2 },
  ]), MetricsError, 'METRICS_BAD_GAUGE', ['already in use']);
});

test('the checker refuses what the format forbids', () => {
  const good = '# TYPE a counter\n# HELP a h\na_total 1\n# EOF\n';
  assert.is(parseOpenMetrics(good).size, 1);
  const bad: [string, string][] = [
    ['# TYPE a counter\na_total 1\n', 'EOF'],
    ['# TYPE a counter\na_total 1\n# EOF\n# TYPE b gauge\n# EOF\n', 'EOF'],
    ['# TYPE a counter\na 1\n# EOF\n', 'not a sample name'],
    ['# TYPE a gauge\na_total 1\n# EOF\n', 'not a sample name'],
    ['a 1\n# EOF\n', 'before any TYPE'],
    ['# TYPE a gauge\na 1\n# HELP a late\n# EOF\n', 'after samples'],
    ['# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\n# TYPE a gauge\n# EOF\n', 'interleaved'],
    ['# TYPE a gauge\na{x="1",x="2"} 1\n# EOF\n', 'twice'],
    ['# TYPE a gauge\na{x="1"} 1\na{x="1"} 2\n# EOF\n', 'label set twice'],
    ['# TYPE a gauge\na{x=1} 1\n# EOF\n', 'label syntax'],
    ['# TYPE a gauge\na{x="\\t"} 1\n# EOF\n', 'label syntax'],
    ['# TYPE a gauge\na{x="1",} 1\n# EOF\n', 'trailing comma'],
    ['# TYPE a gauge\na 1x\n# EOF\n', 'not a sample'],
    ['# TYPE a_bytes gauge\n# UNIT a_bytes seconds\n# EOF\n', 'unit'],
    ['# TYPE a_total counter\n# EOF\n', '_total'],
    ['# TYPE a counter\na_total -1\n# EOF\n', 'negative'],
    ['# TYPE a gauge\n\na 1\n# EOF\n', 'not a sample'],
  ];
  for (const [text, part] of bad) {
    try {
      parseOpenMetrics(text);
    } catch (error) {
      assert.ok((error as Error).message.includes(part), `${JSON.stringify(text)}: ${(error as Error).message}`);
      continue;
    }
    assert.unreachable(`accepted ${JSON.stringify(text)}`);
  }
});

test.run();
