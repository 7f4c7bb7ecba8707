// A strict reader of OpenMetrics 1.0 text for the tests (no parser is installed): it checks the
// line grammar (metric and label names, escaped label values, numbers), that a family's
// descriptors come before its samples and at most once, that families do not interleave, that
// sample names fit the family's type and `# EOF` ends the text; then returns what it read.

export interface ParsedSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: string;
}

export interface ParsedFamily {
  type?: string;
  unit?: string;
  help?: string;
  readonly samples: ParsedSample[];
}

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL_NAME = '[a-zA-Z_][a-zA-Z0-9_]*';
const ESCAPED = '(?:[^"\\\\\\n]|\\\\[\\\\"n])*';
const NUMBER = '[+-]?(?:(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?|Inf|inf|\\+Inf|NaN)';
const DESCRIPTOR = new RegExp(`^# (TYPE|UNIT|HELP) (${METRIC_NAME}) (.*)$`);
const SAMPLE = new RegExp(`^(${METRIC_NAME})(?:\\{(.*)\\})? (${NUMBER})(?: (${NUMBER}))?$`);
const LABEL = new RegExp(`^(${LABEL_NAME})="(${ESCAPED})"(?:,|$)`);
const TYPES = new Set(['counter', 'gauge', 'histogram', 'gaugehistogram', 'stateset', 'info', 'summary', 'unknown']);
const SUFFIXES: Record<string, readonly string[]> = {
  counter: ['_total', '_created'], gauge: [''], unknown: [''], info: ['_info'], stateset: [''],
  histogram: ['_bucket', '_count', '_sum', '_created'], gaugehistogram: ['_bucket', '_gcount', '_gsum'],
  summary: ['', '_count', '_sum', '_created'],
};

function unescape(text: string): string {
  return text.replace(/\\([\\"n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

function parseLabels(text: string, fail: (why: string) => never): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const label = LABEL.exec(rest);
    if (!label) fail(`bad label syntax at '${rest}'`);
    if (label[1]! in labels) fail(`label ${label[1]} twice`);
    labels[label[1]!] = unescape(label[2]!);
    rest = rest.slice(label[0].length);
    if (label[0].endsWith(',') && rest === '') fail('trailing comma in labels');
  }
  return labels;
}

/** The families of `text` by name, in order; throws with the line number on the first violation. */
export function parseOpenMetrics(text: string): Map<string, ParsedFamily> {
  if (!text.endsWith('# EOF\n') && !text.endsWith('# EOF')) throw new Error('the text does not end with # EOF');
  const lines = text.replace(/\n$/, '').split('\n');
  const families = new Map<string, ParsedFamily>();
  let current: string | undefined;
  let sampled = false;
  lines.forEach((line, index) => {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1} '${line}': ${why}`);
    };
    if (line === '# EOF') {
      if (index !== lines.length - 1) fail('# EOF before the end');
      return;
    }
    const startFamily = (name: string): ParsedFamily => {
      if (name !== current) {
        if (families.has(name)) fail(`family ${name} interleaved with another`);
        families.set(name, { samples: [] });
        current = name;
        sampled = false;
      }
      return families.get(name)!;
    };
    const descriptor = DESCRIPTOR.exec(line);
    if (descriptor) {
      const [, kind, name, value] = descriptor as unknown as [string, 'TYPE' | 'UNIT' | 'HELP', string, string];
      const family = startFamily(name);
      if (sampled) fail(`${kind} after samples of ${name}`);
      const key = kind.toLowerCase() as 'type' | 'unit' | 'help';
      if (family[key] !== undefined) fail(`second ${kind} of ${name}`);
      if (kind === 'TYPE' && !TYPES.has(value)) fail(`unknown type ${value}`);
      if (kind === 'UNIT' && !name.endsWith(`_${value}`)) fail(`${name} does not end with its unit ${value}`);
      if (kind === 'HELP' && !new RegExp(`^${ESCAPED}$`).test(value)) fail('bad escape in HELP');
      family[key] = kind === 'HELP' ? unescape(value) : value;
      if (kind === 'TYPE' && value === 'counter' && name.endsWith('_total')) fail('a counter family named _total');
      return;
    }
    if (line.startsWith('#')) fail('not a descriptor');
    const sample = SAMPLE.exec(line);
    if (!sample) fail('not a sample');
    const [, sampleName, labelText, value] = sample!;
    if (current === undefined) fail('a sample before any TYPE');
    const family = families.get(current!)!;
    if (family.type === undefined) fail(`no TYPE for ${current}`);
    if (!SUFFIXES[family.type!]!.some((suffix) => sampleName === current + suffix)) fail(`${sampleName} is not a sample name of ${family.type} ${current}`);
    const labels = parseLabels(labelText ?? '', fail);
    const identity = `${sampleName}${JSON.stringify(Object.entries(labels).sort())}`;
    if (family.samples.some((s) => `${s.name}${JSON.stringify(Object.entries(s.labels).sort())}` === identity)) fail('a label set twice');
    if (family.type === 'counter' && (value!.startsWith('-') || value === 'NaN')) fail('a negative or NaN counter');
    family.samples.push({ name: sampleName!, labels, value: value! });
    sampled = true;
  });
  if (lines[lines.length - 1] !== '# EOF') throw new Error('the last line is not # EOF');
  return families;
}
