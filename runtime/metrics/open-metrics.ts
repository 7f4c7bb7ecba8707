// The figures of the perf report as OpenMetrics 1.0 text (/native/admin/metrics): one family per
// figure, descriptors before samples, counters sampled as `<name>_total`, `# EOF` last.

import { MEMORY_CATEGORIES } from './memory-categories.js';
import { MetricsError } from './errors.js';
import type { PerfReport, PerfTask } from './perf-report.js';

export const OPENMETRICS_CONTENT_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

/** A figure of the node's own, e.g. `tsibase_head_block_number`. */
export interface ExtraGauge {
  /** `tsibase_` then lower case letters, digits and underscores; ends with `_<unit>` when a unit is given. */
  readonly name: string;
  readonly help: string;
  readonly value: number | bigint;
  readonly unit?: string;
}

interface Sample {
  readonly labels: readonly (readonly [string, string])[];
  readonly value: string;
}

interface Family {
  readonly name: string;
  readonly type: 'counter' | 'gauge';
  readonly unit?: string;
  readonly help: string;
  readonly samples: readonly Sample[];
}

// Label values and HELP text share one escaping: backslash, double quote, line feed.
function escaped(text: string): string {
  return text.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

function familyText({ name, type, unit, help, samples }: Family): string {
  const sampleName = type === 'counter' ? `${name}_total` : name;
  const lines = [`# TYPE ${name} ${type}`];
  if (unit !== undefined) lines.push(`# UNIT ${name} ${unit}`);
  lines.push(`# HELP ${name} ${escaped(help)}`);
  for (const { labels, value } of samples) {
    const labelText = labels.length === 0 ? '' : `{${labels.map(([k, v]) => `${k}="${escaped(v)}"`).join(',')}}`;
    lines.push(`${sampleName}${labelText} ${value}`);
  }
  return lines.map((line) => `${line}\n`).join('');
}

/** Exact seconds from a decimal count of microseconds. */
function secondsOf(microseconds: string): string {
  const us = BigInt(microseconds);
  return `${us / 1_000_000n}.${String(us % 1_000_000n).padStart(6, '0')}`;
}

function perTask(report: PerfReport, value: (task: PerfTask) => string): Sample[] {
  return report.tasks.map((task) => ({ labels: [['thread', String(task.id)], ['group', task.group]], value: value(task) }));
}

function reportFamilies(report: PerfReport): Family[] {
  const { transactions } = report;
  return [
    {
      name: 'tsibase_transactions_received', type: 'counter',
      help: 'Transactions pushed to this node (not those seen only in blocks).',
      samples: [{ labels: [], value: transactions.total }],
    },
    {
      name: 'tsibase_transactions_handled', type: 'counter',
      help: 'Transactions taken from the queue, by result; skipped ones were flushed while the node did not accept transactions.',
      samples: (['succeeded', 'failed', 'skipped'] as const).map((result) => ({ labels: [['result', result]], value: transactions[result] })),
    },
    {
      name: 'tsibase_transactions_unprocessed', type: 'gauge',
      help: 'Transactions waiting in the queue.',
      samples: [{ labels: [], value: transactions.unprocessed }],
    },
    {
      name: 'tsibase_memory_bytes', type: 'gauge', unit: 'bytes',
      help: 'Resident memory by category; wasm figures are the bytes the engine holds.',
      samples: MEMORY_CATEGORIES.map((category) => ({ labels: [['category', category]], value: report.memory[category] })),
    },
    {
      name: 'tsibase_cpu_user_seconds', type: 'counter', unit: 'seconds',
      help: 'CPU time in user mode, by thread.',
      samples: perTask(report, (t) => secondsOf(t.user)),
    },
    {
      name: 'tsibase_cpu_system_seconds', type: 'counter', unit: 'seconds',
      help: 'CPU time in kernel mode, by thread.',
      samples: perTask(report, (t) => secondsOf(t.system)),
    },
    {
      name: 'tsibase_page_faults', type: 'counter',
      help: 'Minor and major page faults, by thread.',
      samples: perTask(report, (t) => t.pageFaults),
    },
    {
      name: 'tsibase_read_bytes', type: 'counter', unit: 'bytes',
      help: 'Bytes fetched from storage, by thread.',
      samples: perTask(report, (t) => t.read),
    },
    {
      name: 'tsibase_written_bytes', type: 'counter', unit: 'bytes',
      help: 'Bytes sent to storage, by thread.',
      samples: perTask(report, (t) => t.written),
    },
  ];
}

const GAUGE_NAME = /^tsibase_[a-z0-9_]+$/;
// Sample suffixes of other metric types: a parser would take such a gauge for part of another family.
const RESERVED_SUFFIX = /_(total|created|count|sum|bucket|gcount|gsum|info)$/;

function extraFamily(gauge: ExtraGauge, taken: ReadonlySet<string>): Family {
  const { name, help, value, unit } = gauge;
  const refuse = (why: string): never => {
    throw new MetricsError('METRICS_BAD_GAUGE', `gauge '${name}': ${why}`);
  };
  if (!GAUGE_NAME.test(name)) refuse('the name must be tsibase_ followed by lower case letters, digits and underscores');
  if (RESERVED_SUFFIX.test(name)) refuse('the name ends with a suffix reserved for other metric types');
  if (taken.has(name)) refuse('the name is already in use');
  if (unit !== undefined && (!/^[a-z0-9_]+$/.test(unit) || !name.endsWith(`_${unit}`))) refuse(`the name must end with _${unit}, its unit`);
  if (typeof value === 'number' && !Number.isFinite(value)) refuse(`the value ${value} is not finite`);
  return { name, type: 'gauge', unit, help, samples: [{ labels: [], value: String(value) }] };
}

/** The report's figures and the node's extra gauges as one OpenMetrics exposition. */
export function renderOpenMetrics(report: PerfReport, extraGauges: readonly ExtraGauge[] = []): string {
  const families = reportFamilies(report);
  const taken = new Set(families.map((f) => f.name));
  for (const gauge of extraGauges) {
    families.push(extraFamily(gauge, taken));
    taken.add(gauge.name);
  }
  return `${families.map(familyText).join('')}# EOF\n`;
}
