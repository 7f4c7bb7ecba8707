import { TsibaseError } from '../../host-api/errors.js';

// A booted test chain's clock: block times, TaPoS expirations and login checks read it instead
// of the wall clock, and a test moves it (setTime, advance). Block times only increase, so the
// clock never goes back.

/** Milliseconds since 1970 of `iso` (ISO 8601); TESTCHAIN_BAD_TIME when it is none. */
export function parseIsoTime(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new TsibaseError('TESTCHAIN_BAD_TIME', `'${iso}' is not an ISO 8601 time (e.g. 2030-01-01T00:00:00Z)`);
  return ms;
}

export class TestClock {
  private ms: number;

  constructor(startMs: number) {
    this.ms = Math.floor(startMs);
  }

  /** Milliseconds since 1970, as ChainOptions' `now` takes them. */
  readonly now = (): number => this.ms;

  /** Seconds since 1970 (TaPoS expirations). */
  seconds(): number {
    return Math.floor(this.ms / 1000);
  }

  /** Sets the time to `iso` (an ISO 8601 date and time); one before the current time is refused. */
  set(iso: string): void {
    this.moveTo(parseIsoTime(iso));
  }

  /** Moves the time `ms` milliseconds on. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new TsibaseError('TESTCHAIN_BAD_TIME', `advance takes a number of milliseconds >= 0, not ${ms}`);
    this.moveTo(this.ms + ms);
  }

  /** Moves the time to `ms` unless it is there already or past it (a block's time the clock catches up with). */
  atLeast(ms: number): void {
    if (ms > this.ms) this.ms = Math.floor(ms);
  }

  private moveTo(ms: number): void {
    if (ms < this.ms) {
      throw new TsibaseError('TESTCHAIN_TIME_BACKWARDS', `the chain's time is ${new Date(this.ms).toISOString()} and cannot go back to ${new Date(ms).toISOString()} (block times only increase)`);
    }
    this.ms = Math.floor(ms);
  }
}
