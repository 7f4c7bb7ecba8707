import { readFileSync } from 'node:fs';
import { replaceFile } from './atomic-file.js';

// The node's own JSON files in its directory (config.json, keys.json): absent until first written,
// replaced whole, indented for people who look at them.

/** The JSON value in `file`; undefined when there is no such file. `bad` makes the error for text that is not JSON. */
export function readJsonFile(file: string, bad: (problem: string) => Error): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw bad((err as Error).message);
  }
}

/** Replaces `file` with `value` as JSON (see replaceFile). */
export function writeJsonFile(file: string, value: unknown, mode?: number): void {
  replaceFile(file, `${JSON.stringify(value, null, 2)}\n`, mode);
}
