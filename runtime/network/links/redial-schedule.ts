// Which peer URLs are dialled again, and when (docs/p2p.md §1.5, psibase's x-peers `addUrl`,
// `removeUrl`, `onTimer`). Each URL counts the links that carry it. When the last one of an
// autoconnect URL ends, the URL is dialled at once if that link outlived the URL's retry time
// (and the timeout goes back to the base); otherwise at the retry time, each such wait adding
// `stepMs` to the timeout, up to `maxMs`.

export interface RedialTimes {
  readonly baseMs: number;
  readonly stepMs: number;
  readonly maxMs: number;
}

/** psibase's numbers: 30 s, +30 s a failure, at most 300 s. */
export const PSIBASE_REDIAL_TIMES: RedialTimes = { baseMs: 30_000, stepMs: 30_000, maxMs: 300_000 };

/** The times for a base (a test's small one): psibase's proportions, step = base, max = 10 × base. */
export function redialTimesOf(baseMs: number): RedialTimes {
  return { baseMs, stepMs: baseMs, maxMs: 10 * baseMs };
}

export interface RedialClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const realClock: RedialClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

interface UrlRow {
  /** Links (and dials under way) that carry the URL. */
  links: number;
  autoconnect: boolean;
  timeoutMs: number;
  retryAt: number;
  timer?: unknown;
}

export class RedialSchedule {
  private readonly rows = new Map<string, UrlRow>();

  constructor(
    /** Dials the URL; the dial calls `carried` for it. */
    private readonly dial: (url: string) => void,
    private readonly times: RedialTimes = PSIBASE_REDIAL_TIMES,
    private readonly clock: RedialClock = realClock,
  ) {}

  /** A dial of the URL begins, or a link takes over the URL from another. */
  carried(url: string): void {
    const row = this.rows.get(url) ?? this.newRow(false);
    this.stopTimer(row);
    row.links++;
    this.rows.set(url, row);
  }

  /** A dial failed or a link carrying the URL ended. */
  released(url: string): void {
    const row = this.rows.get(url);
    if (!row || --row.links > 0) return;
    if (!row.autoconnect) {
      this.rows.delete(url);
      return;
    }
    const now = this.clock.now();
    if (now < row.retryAt) {
      row.timer = this.clock.setTimeout(() => {
        row.timer = undefined;
        row.timeoutMs = Math.min(row.timeoutMs + this.times.stepMs, this.times.maxMs);
        row.retryAt += row.timeoutMs;
        this.dial(url);
      }, row.retryAt - now);
      return;
    }
    row.timeoutMs = this.times.baseMs;
    row.retryAt = now + row.timeoutMs;
    this.dial(url);
  }

  /** Sets the URLs to keep linked (config `peers` and `autoconnect`); new ones are dialled now. */
  setAutoconnect(urls: readonly string[]): void {
    const wanted = new Set(urls);
    for (const [url, row] of this.rows) {
      if (wanted.has(url) || !row.autoconnect) continue;
      if (row.links > 0) {
        row.autoconnect = false;
      } else {
        this.stopTimer(row);
        this.rows.delete(url);
      }
    }
    for (const url of wanted) {
      const row = this.rows.get(url);
      if (row) {
        row.autoconnect = true;
        continue;
      }
      this.rows.set(url, this.newRow(true));
      this.dial(url);
    }
  }

  /**
   * The URL's peer is banned for `ms` more (peer-conduct.ts): an autoconnect URL that no link
   * carries is dialled again when the ban ends, not before.
   */
  deferFor(url: string, ms: number): void {
    const row = this.rows.get(url);
    if (!row?.autoconnect || row.links > 0) return;
    this.stopTimer(row);
    row.timer = this.clock.setTimeout(() => {
      row.timer = undefined;
      this.dial(url);
    }, ms);
  }

  /** Cancels every wait (the node stops). */
  stop(): void {
    for (const row of this.rows.values()) this.stopTimer(row);
    this.rows.clear();
  }

  private newRow(autoconnect: boolean): UrlRow {
    return { links: 0, autoconnect, timeoutMs: this.times.baseMs, retryAt: this.clock.now() + this.times.baseMs };
  }

  private stopTimer(row: UrlRow): void {
    if (row.timer === undefined) return;
    this.clock.clearTimeout(row.timer);
    row.timer = undefined;
  }
}
