// File name patterns of the file logger (`filename`, `target`): `%N` is the logger's file
// counter, `%y %Y %m %d %H %M %S` are UTC time fields, `%%` is a percent sign. Fields may appear
// only in the last path component, so the log files of a pattern are the names in one directory
// that the pattern could have produced.

import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { LogError } from './errors.js';
import { TIME_FIELDS, splitPattern, type PatternPart } from './strftime.js';

const COUNTER = 'N';
const TIME_FIELD_WIDTHS: Readonly<Record<string, string>> = {
  y: '\\d{2}', Y: '\\d{4}', m: '\\d{2}', d: '\\d{2}', H: '\\d{2}', M: '\\d{2}', S: '\\d{2}',
};
const FILE_NAME_FIELDS = new Set([COUNTER, ...Object.keys(TIME_FIELD_WIDTHS)]);

export interface LogFileInfo {
  readonly path: string;
  readonly size: number;
  readonly modified: number;
  /** The `%N` value in the name, when the pattern has one. */
  readonly counter: number | undefined;
}

export class FileNamePattern {
  /** Absolute directory of the files. */
  readonly directory: string;
  private readonly parts: PatternPart[];
  private readonly matcher: RegExp;

  /** `pattern` is relative to `root` (the node's directory) unless absolute; throws LOG_BAD_CONFIG. */
  constructor(readonly pattern: string, root: string) {
    if (pattern === '') throw new LogError('LOG_BAD_CONFIG', 'a file name pattern must not be empty');
    if (dirname(pattern).includes('%')) {
      throw new LogError('LOG_BAD_CONFIG', `'${pattern}': % fields may only appear in the file name, not in its directories`);
    }
    this.directory = resolve(root, dirname(pattern));
    this.parts = splitPattern(basename(pattern), FILE_NAME_FIELDS, 'LOG_BAD_CONFIG');
    let source = '';
    let counterSeen = false;
    for (const part of this.parts) {
      if ('literal' in part) {
        source += escapeRegExp(part.literal);
      } else if (part.field === COUNTER) {
        // A repeated %N holds the same number as the first.
        source += counterSeen ? '\\k<counter>' : '(?<counter>\\d+)';
        counterSeen = true;
      } else {
        source += TIME_FIELD_WIDTHS[part.field];
      }
    }
    this.matcher = new RegExp(`^${source}$`);
  }

  /** The absolute path for a file opened at `time` as the `counter`-th. */
  render(time: Date, counter: number): string {
    const name = this.parts.map((part) =>
      'literal' in part ? part.literal : part.field === COUNTER ? String(counter) : TIME_FIELDS[part.field](time),
    );
    return join(this.directory, name.join(''));
  }

  /** Existing regular files whose names this pattern could have produced. */
  existingFiles(): LogFileInfo[] {
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch {
      return [];
    }
    const files: LogFileInfo[] = [];
    for (const name of names) {
      const match = this.matcher.exec(name);
      if (!match) continue;
      const path = join(this.directory, name);
      try {
        const stats = statSync(path);
        if (!stats.isFile()) continue;
        const counter = match.groups?.counter;
        files.push({ path, size: stats.size, modified: stats.mtimeMs, counter: counter === undefined ? undefined : Number(counter) });
      } catch {
        // Deleted between listing and stat: not a log file any more.
      }
    }
    return files;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
