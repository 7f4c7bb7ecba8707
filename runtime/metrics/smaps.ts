// The parser of /proc/<pid>/smaps (proc(5)): one header line per mapping,
// `start-end perms offset dev inode [pathname]`, then `Key: value` lines of which only Rss is used.
// Unknown keys are skipped, so fields added by newer kernels do not matter.

import { MetricsError } from './errors.js';
import { parseDecimal } from './proc-text.js';

export interface Mapping {
  /** `r-xp` and the like: read, write, execute, private or shared. */
  readonly perms: string;
  /** The mapped file, a pseudo name like `[heap]`, or '' for an anonymous mapping. */
  readonly path: string;
  /** Resident bytes. */
  readonly rss: bigint;
}

// The pathname is the rest of the line: it may hold spaces and end with " (deleted)".
const HEADER = /^[0-9a-f]+-[0-9a-f]+\s+([r-][w-][x-][ps])\s+[0-9a-f]+\s+[0-9a-f]+:[0-9a-f]+\s+\d+(?:\s+(.*))?$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*:/;
const RSS = /^Rss:\s+(\S+) kB$/;

export function parseSmaps(text: string, source = 'smaps'): Mapping[] {
  const mappings: Mapping[] = [];
  let current: { perms: string; path: string; rss: bigint | undefined } | undefined;
  const finish = (line: number): void => {
    if (current === undefined) return;
    if (current.rss === undefined) throw new MetricsError('METRICS_BAD_PROC', `${source}:${line}: a mapping without an Rss line`);
    mappings.push({ perms: current.perms, path: current.path, rss: current.rss });
  };
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const where = `${source}:${index + 1}`;
    const header = HEADER.exec(line);
    if (header) {
      finish(index);
      current = { perms: header[1]!, path: (header[2] ?? '').trim(), rss: undefined };
    } else if (FIELD.test(line)) {
      if (current === undefined) throw new MetricsError('METRICS_BAD_PROC', `${where}: a field before the first mapping`);
      const rss = RSS.exec(line);
      if (rss) current.rss = parseDecimal(rss[1]!, where) * 1024n;
      else if (line.startsWith('Rss:')) throw new MetricsError('METRICS_BAD_PROC', `${where}: Rss is not in kB: '${line}'`);
    } else if (line !== '') {
      throw new MetricsError('METRICS_BAD_PROC', `${where}: neither a mapping nor a field: '${line}'`);
    }
  });
  finish(lines.length);
  return mappings;
}
