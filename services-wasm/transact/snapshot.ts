// Scheduled snapshots (docs/chain.md §8): every `snapshotInterval` seconds of block time startBlock
// writes a native scheduled-snapshot row, which nodes snapshot and producers sign.

import { DbId, TimePointUSec, kv, pack } from "../sdk/index";
import { blockTimeOf } from "./block-time";
import { getStatus, nativeKeyOf, NativeTable, StatusRow } from "../sdk/native/index";
import { SingletonTable, SNAPSHOT_INFO_TABLE } from "./tables";

@fracpack
class SnapshotInfo {
  constructor(public lastSnapshot: TimePointUSec = 0, public snapshotInterval: u32 = 0) {}
}

/** The native scheduled-snapshot row (docs/chain.md §1.4). */
@fracpack
export class ScheduledSnapshotRow {
  constructor(public blockNum: u32 = 0) {}
}

const snapshotInfo = new SingletonTable<SnapshotInfo>(SNAPSHOT_INFO_TABLE);

/** The row as first created: snapshots off, counted from the head block (or the current one). */
function initialInfo(status: StatusRow): SnapshotInfo {
  const head = status.head;
  return new SnapshotInfo(head !== null ? head.header.time : status.current.time, 0);
}

/** 0 disables snapshots. */
export function setSnapshotInterval(seconds: u32): void {
  const row = snapshotInfo.get();
  const info = row !== null ? row : initialInfo(getStatus());
  info.snapshotInterval = seconds;
  snapshotInfo.put(info);
}

/** startBlock: schedules a snapshot of `status.current` when the interval has passed. */
export function scheduleSnapshot(status: StatusRow): void {
  const row = snapshotInfo.get();
  if (row === null) {
    snapshotInfo.put(initialInfo(status));
    return;
  }
  const current = status.current;
  if (row.snapshotInterval == 0 || current.time - row.lastSnapshot < blockTimeOf(<i64>row.snapshotInterval)) return;
  kv.put(DbId.native, nativeKeyOf(NativeTable.scheduledSnapshot, current.blockNum), pack<ScheduledSnapshotRow>(new ScheduledSnapshotRow(current.blockNum)));
  row.lastSnapshot = current.time;
  snapshotInfo.put(row);
}
