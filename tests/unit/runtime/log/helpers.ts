// Shared by the logging tests: a clock moved by hand, temp directories, captured stderr, and
// waiting for output that another process or socket delivers.

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../../runtime/log/clock.js';
import { Logging } from '../../../../runtime/log/logging.js';

export class ManualClock implements Clock {
  constructor(private time: number) {}

  now(): number {
    return this.time;
  }

  set(isoTime: string): void {
    this.time = Date.parse(isoTime);
  }

  advance(ms: number): void {
    this.time += ms;
  }
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'tsibase-log-'));
}

export function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
}

export function sortedFiles(directory: string): string[] {
  return readdirSync(directory).sort();
}

/** A Logging over `directory` whose stderr (console loggers, failure reports) is captured. */
export function captureLogging(
  loggers: unknown, directory: string, clock?: Clock, closeGraceMs = 2000,
): { logging: Logging; stderr: string[] } {
  const stderr: string[] = [];
  const logging = new Logging(loggers, {
    directory, clock, host: 'node.example', process: 'tsibase', processId: 42,
    writeStderr: (text) => void stderr.push(text), closeGraceMs,
  });
  return { logging, stderr };
}

/** Polls until `condition` holds; fails after `limitMs` (a bound on a hang, not a timing assertion). */
export async function waitFor(condition: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > limitMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
