// How far behind a syncing node is, and how fast it catches up (docs/p2p.md §6.2): a line at most
// every few seconds while it is behind the best block its peers have shown it (blocks behind,
// blocks/s, the time left at that rate), one when it has caught up, and the same figures for the
// admin API (`GET /native/admin/status?sync`, `tsibase info`, x-admin). A snapshot received from a
// peer before that (docs/p2p.md §7.4) is reported alike: rows and bytes so far, and how fast.

import { snapshotReceiveText, syncText, type SnapshotReceiveState, type SyncState } from '../../host-api/http/sync-status.js';

interface Receiving {
  readonly startedAt: number;
  block: number;
  rows: number;
  bytes: number;
}


const REPORT_EVERY_MS = 5_000;

export class SyncProgress {
  private best = 0;
  private num = 0;
  private syncing = false;
  /** When, and at which block, this sync began and the last line while syncing was written. */
  private startedAt = 0;
  private startedNum = 0;
  private reportedAt = 0;
  private receiving: Receiving | undefined;
  private snapshotReportedAt = 0;

  constructor(private readonly report: (text: string) => void, private readonly now: () => number) {}

  /** A peer has block `num` (a hello or a block it sent). */
  peerHas(num: number): void {
    this.best = Math.max(this.best, num);
  }

  /** The head is now `num`. */
  head(num: number): void {
    this.num = num;
    const behind = this.best - num;
    if (behind <= 1) {
      const was = this.syncing;
      this.syncing = false;
      if (was) this.report(syncText(this.state()));
      return;
    }
    const now = this.now();
    if (!this.syncing) {
      this.syncing = true;
      this.startedAt = now;
      this.startedNum = num;
      this.report(syncText(this.state()));
    } else if (now - this.reportedAt >= REPORT_EVERY_MS) {
      this.report(syncText(this.state()));
    } else {
      return;
    }
    this.reportedAt = now;
  }

  /** A snapshot from a peer has come this far: `rows` and `bytes` in all, of `block` (0 before its header). */
  snapshotReceived(block: number, rows: number, bytes: number): void {
    const now = this.now();
    const first = !this.receiving;
    if (first) this.receiving = { startedAt: now, block, rows, bytes };
    else Object.assign(this.receiving!, { block, rows, bytes });
    if (first || now - this.snapshotReportedAt >= REPORT_EVERY_MS) {
      this.snapshotReportedAt = now;
      this.report(snapshotReceiveText(this.snapshotState()!));
    }
  }

  /** The snapshot being received was loaded or given up. */
  snapshotEnded(): void {
    this.receiving = undefined;
  }

  private snapshotState(): SnapshotReceiveState | null {
    const r = this.receiving;
    if (!r) return null;
    const elapsed = this.now() - r.startedAt;
    return { block: r.block, rows: r.rows, bytes: r.bytes, bytesPerSecond: elapsed > 0 ? Math.round((r.bytes * 1000) / elapsed) : null };
  }

  state(): SyncState {
    const behind = Math.max(0, this.best - this.num);
    const elapsed = this.now() - this.startedAt;
    const rate = this.syncing && elapsed > 0 && this.num > this.startedNum ? ((this.num - this.startedNum) * 1000) / elapsed : null;
    return {
      syncing: this.syncing,
      head: this.num,
      best: Math.max(this.best, this.num),
      behind: this.syncing ? behind : 0,
      blocksPerSecond: rate === null ? null : Math.round(rate * 10) / 10,
      secondsLeft: rate === null ? null : Math.round(behind / rate),
      snapshot: this.snapshotState(),
    };
  }
}
