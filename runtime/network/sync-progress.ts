// How far behind a syncing node is, and how fast it catches up (docs/p2p.md §6.2): a line at most
// every few seconds while it is behind the best block its peers have shown it, and one when it
// has caught up.

const REPORT_EVERY_MS = 5_000;

export class SyncProgress {
  /** The highest block number a peer has said it has or sent. */
  private best = 0;
  private syncing = false;
  /** When, and at which block, the last line while syncing was written. */
  private reportedAt = 0;
  private reportedNum = 0;

  constructor(private readonly report: (text: string) => void, private readonly now: () => number) {}

  /** A peer has block `num` (a hello or a block it sent). */
  peerHas(num: number): void {
    this.best = Math.max(this.best, num);
  }

  /** The head is now `num`. */
  head(num: number): void {
    const behind = this.best - num;
    if (behind <= 1) {
      if (this.syncing) this.report(`synced: at block ${num}, the head of the peers`);
      this.syncing = false;
      return;
    }
    const now = this.now();
    if (!this.syncing) {
      this.syncing = true;
      this.report(`syncing: at block ${num}, ${behind} blocks behind the peers (${this.best})`);
    } else if (now - this.reportedAt >= REPORT_EVERY_MS) {
      const rate = ((num - this.reportedNum) * 1000) / (now - this.reportedAt);
      this.report(`syncing: at block ${num}, ${behind} blocks behind the peers (${this.best}), ${rate.toFixed(1)} blocks/s`);
    } else {
      return;
    }
    this.reportedAt = now;
    this.reportedNum = num;
  }
}
