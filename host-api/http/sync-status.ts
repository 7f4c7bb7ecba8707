// The block sync's figures as the admin API serves them (`GET /native/admin/status?sync`,
// docs/http.md §7) and the line a person reads them in: the node's log, `tsibase info` and the
// x-admin app (which loads this file from /lib/host-api) say it alike.

/** The sync figures a person reads: where the node is, how far behind, how fast it catches up. */
export interface SyncState {
  /** Behind its peers' best block by more than one block. */
  readonly syncing: boolean;
  /** The node's head block number. */
  readonly head: number;
  /** The highest block number a peer has shown this node. */
  readonly best: number;
  readonly behind: number;
  /** Blocks applied per second since the sync began (null until there is a measure). */
  readonly blocksPerSecond: number | null;
  /** The time left at that rate, in seconds (null without a rate). */
  readonly secondsLeft: number | null;
  /** A snapshot being received from a peer (docs/p2p.md §7.4), before the blocks after it; null when none. */
  readonly snapshot?: SnapshotReceiveState | null;
}

/** How far a snapshot from a peer has come: its size is not told ahead, so what arrived and how fast. */
export interface SnapshotReceiveState {
  /** The block the snapshot is of (0 until its header came). */
  readonly block: number;
  readonly rows: number;
  readonly bytes: number;
  /** Bytes per second since it began (null until there is a measure). */
  readonly bytesPerSecond: number | null;
}

const MIB = 1024 * 1024;

/** The line of a snapshot being received. */
export function snapshotReceiveText(state: SnapshotReceiveState): string {
  const rate = state.bytesPerSecond === null ? '' : ` at ${(state.bytesPerSecond / MIB).toFixed(1)} MiB/s`;
  const block = state.block > 0 ? ` of block ${state.block}` : '';
  return `receiving the snapshot${block}: ${state.rows} rows, ${(state.bytes / MIB).toFixed(1)} MiB so far${rate}`;
}

/** `1 h 5 min`, `3 min 20 s`, `12 s`: a time left as a person reads it. */
export function durationText(seconds: number): string {
  const s = Math.round(seconds);
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/** The sync line of the log, `tsibase info` and x-admin. */
export function syncText(state: SyncState): string {
  if (state.snapshot) return snapshotReceiveText(state.snapshot);
  if (!state.syncing) return `synced: at block ${state.head}, the head of the peers`;
  const rate = state.blocksPerSecond === null ? '' : `, ${state.blocksPerSecond.toFixed(1)} blocks/s`;
  const left = state.secondsLeft === null ? '' : `, about ${durationText(state.secondsLeft)} left`;
  return `syncing: at block ${state.head}, ${state.behind} blocks behind the peers (${state.best})${rate}${left}`;
}
