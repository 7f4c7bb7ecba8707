// Shared by the /proc readers: kernel counters are unsigned 64-bit decimals, parsed exactly (bigint),
// and files that vanish or are closed to us are told apart from real failures.

import { readdirSync, readFileSync } from 'node:fs';
import { MetricsError } from './errors.js';

const DECIMAL = /^\d+$/;

/** An unsigned decimal from `source` (a file name and line, for the message). */
export function parseDecimal(text: string, source: string): bigint {
  if (!DECIMAL.test(text)) throw new MetricsError('METRICS_BAD_PROC', `${source}: '${text}' is not an unsigned decimal`);
  return BigInt(text);
}

// Not Linux (ENOENT, ENOTDIR), a thread that ended between listing and reading (ENOENT, ESRCH),
// or a sandbox that hides the file (EACCES, EPERM).
const UNAVAILABLE = new Set(['ENOENT', 'ENOTDIR', 'ESRCH', 'EACCES', 'EPERM']);

function unlessUnavailable<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (UNAVAILABLE.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
}

/** The file's text, or undefined when it does not exist or may not be read. */
export function readProcFile(path: string): string | undefined {
  return unlessUnavailable(() => readFileSync(path, 'utf8'));
}

/** The directory's entries, or undefined when it does not exist or may not be read. */
export function listProcDir(path: string): string[] | undefined {
  return unlessUnavailable(() => readdirSync(path));
}
