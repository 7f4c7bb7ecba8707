// The event index service (regEvIdx), psibase's one registered indexer: transact tells it when a
// block starts and has it sync at the end of every transaction, inside the transaction.
// Registering another service replaces the one registered before.

import { AccountNumber, Table } from "../sdk/index";
import { EVENT_INDEXES_TABLE } from "./tables";

/**
 * The actions transact calls on an event index service: declared so the SDK generates
 * EventIndexInterfaceActor; the bodies never run here.
 */
@service("events")
class EventIndexInterface {
  /** A block starts (from transact::startBlock). */
  @action
  startBlock(): void {}

  /** Indexes the events of the transaction that just ran. */
  @action
  sync(): void {}
}

@fracpack
class EventIndexRow {
  constructor(public service: AccountNumber = 0) {}
}

/** One row, under the key 0 (psibase's singleton). */
const eventIndex = new Table<EventIndexRow, u8>(EVENT_INDEXES_TABLE, (row: EventIndexRow): u8 => 0);

export function registerEventIndex(service: AccountNumber): void {
  eventIndex.put(new EventIndexRow(service));
}

function registered(): EventIndexInterfaceActor | null {
  const row = eventIndex.get(0);
  return row !== null ? new EventIndexInterfaceActor(row.service) : null;
}

/** Calls `startBlock()` of the registered event index service, if any. */
export function startEventIndexBlock(): void {
  const index = registered();
  if (index !== null) index.startBlock();
}

/** Calls `sync()` of the registered event index service, if any. */
export function syncEventIndex(): void {
  const index = registered();
  if (index !== null) index.sync();
}
