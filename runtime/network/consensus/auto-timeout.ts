// psibase's self-adjusting election timeout (docs/p2p.md §4): T grows x1.5 at each expiry that
// happens while a quorum is reachable, up to 5 minutes, and every 30 minutes comes down to twice
// the longest interval seen between resets (the network's observed pace), if that is less. Time
// is passed in, so the simulator's virtual clock drives it as the node's real one does.

const GROWTH = 1.5;
const MAX_MS = 5 * 60 * 1000;
const WINDOW_MS = 30 * 60 * 1000;

export class AutoTimeout {
  private current: number;
  private lastReset: number;
  private longest = 0;
  private nextCheck: number;

  constructor(initialMs: number, now: number) {
    this.current = initialMs;
    this.lastReset = now;
    this.nextCheck = now + WINDOW_MS;
  }

  /** T in milliseconds. */
  get ms(): number {
    return this.current;
  }

  /** The timer expired while a quorum was reachable. */
  increase(): void {
    this.current = Math.min(this.current * GROWTH, MAX_MS);
  }

  /** A sign of a live network (a header of the current term, a commit, a vote): the timer restarts. */
  reset(now: number): void {
    this.longest = Math.max(this.longest, now - this.lastReset);
    this.lastReset = now;
    if (now >= this.nextCheck) {
      this.current = Math.min(this.current, this.longest * 2);
      this.longest = 0;
      this.nextCheck = now + WINDOW_MS;
    }
  }
}
