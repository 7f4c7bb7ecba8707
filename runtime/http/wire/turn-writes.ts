// Replies leave together at the end of the event-loop turn that wrote them (setImmediate runs
// right after the turn's I/O callbacks). A write that wakes an idle client costs the sender far
// more than one to a client already awake, and all of a connection's replies of a turn
// (pipelined requests) leave in one write.

/** Something with bytes to write at the end of the turn. */
export interface TurnWriter {
  scheduled: boolean;
  write(): void;
}

let writers: TurnWriter[] = [];

function writeAll(): void {
  const batch = writers;
  writers = [];
  for (const writer of batch) {
    writer.scheduled = false;
    writer.write();
  }
}

/** Has `writer` write at the end of this turn (once, however often asked). */
export function writeAtTurnEnd(writer: TurnWriter): void {
  if (writer.scheduled) return;
  writer.scheduled = true;
  if (writers.length === 0) setImmediate(writeAll);
  writers.push(writer);
}
