// Chaos schedules one after another, seed after seed, each on a network of its own (so that a
// seed replays alone), until a count or a time is reached.
import { runSchedule } from './run-schedule.js';
import { drawSchedule } from './schedule.js';

export interface RunOptions {
  readonly first: number;
  readonly count: number;
  /** No schedule starts after this time (Date.now()). */
  readonly untilMs: number;
  /** How long each schedule's faults last. */
  readonly windowMs: number;
  /** The boot bundle of every schedule's chain. */
  readonly bundle: Uint8Array;
  readonly log: (line: string) => void;
  /** The nodes log debug records too. */
  readonly debugLogs?: boolean;
}

export interface RunSummary {
  readonly schedules: number;
  readonly failures: readonly number[];
}

export async function runSchedules(options: RunOptions): Promise<RunSummary> {
  const failures: number[] = [];
  let schedules = 0;
  for (let seed = options.first; schedules < options.count && Date.now() < options.untilMs; seed++, schedules++) {
    const result = await runSchedule(drawSchedule(seed, { windowMs: options.windowMs }), options.bundle, options.log, { debugLogs: options.debugLogs });
    if (result.violations.length > 0) failures.push(seed);
  }
  return { schedules, failures };
}
