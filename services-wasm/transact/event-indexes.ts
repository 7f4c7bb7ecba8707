// Event index services (regEvIdx): each registered service indexes the events of every
// transaction right after it runs, inside the transaction.

import { AccountNumber, Table } from "../sdk/index";
import { EVENT_INDEXES_TABLE } from "./tables";

/**
 * The action transact calls on an event index service: declared so the SDK generates
 * EventIndexInterfaceActor; the body never runs here.
 */
@service("events")
class EventIndexInterface {
  /** Indexes the events of the transaction that just ran. */
  @action
  sync(): void {}
}

@fracpack
class EventIndexRow {
  constructor(public service: AccountNumber = 0) {}
}

const eventIndexes = new Table<EventIndexRow, AccountNumber>(EVENT_INDEXES_TABLE, (row: EventIndexRow): AccountNumber => row.service);

export function registerEventIndex(service: AccountNumber): void {
  eventIndexes.put(new EventIndexRow(service));
}

/** Calls `sync()` of every registered event index service, in account order. */
export function syncEventIndexes(): void {
  const rows = eventIndexes.primary.first().rows();
  for (let i = 0; i < rows.length; i++) new EventIndexInterfaceActor(rows[i].service).sync();
}
