/** Where the logging subsystem reads the time; tests pass a clock they move by hand. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };
