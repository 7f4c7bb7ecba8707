// events: event tables over the event databases (docs/serving.md §4.7 "Event queries", §6). A table
// `<kind>.<service>.<event>` holds the events of that type the service wrote to the event db of
// that kind; other services query it from their serveSys with the SDK's EventQuery (an SQL
// condition with ? parameters and Connection paging), which calls `query` here. Nothing is
// indexed: the events are read by id, so a query sees every event up to the last transaction.
// It also answers the event index interface transact calls once it is registered with
// transact::regEvIdx (startBlock, sync), with nothing to do, and writes the events of services
// written for psibase's handle ABI, which emit through `event` (it is privileged for that). See
// docs/system-services.md.

import { AccountNumber, MethodNumber, account, check, getSender } from "../sdk/index";
import { EventPage, EventQuery, ServiceEvents } from "../sdk/events/index";
import { appendEvent } from "../sdk/service/events";
import { runQuery } from "./run-query";
import { serviceSchemaOf } from "./code-schema";
import { IndexRequest, eventDbOfPsibase, indexRequests } from "./emit";

@service("events")
export class Events {
  /** Runs an event query; errors are answered in the page, not aborted (queries and callbacks only). */
  @action
  query(query: EventQuery): EventPage {
    return runQuery(query);
  }

  /**
   * Writes event `type` of the sender, its arguments packed in `rawData`, to psibase's event db
   * `db` (0 history, 1 merkle: docs/host-abi.md §9's dbs 4 and 6; merkle events go into the
   * block's event merkle root). Returns the event's id.
   */
  @action
  event(db: u8, type: MethodNumber, rawData: Uint8Array): u64 {
    return appendEvent(eventDbOfPsibase(db), getSender(), type, rawData);
  }

  /**
   * Records a request for an index on column `column` of `service`'s event `event` (the sender
   * must be that service, and its schema must have the event and column).
   */
  @action
  addIndex(db: u8, service: AccountNumber, event: MethodNumber, column: u8): void {
    check(getSender() == service, "Wrong sender");
    const eventDb = eventDbOfPsibase(db);
    const schema = serviceSchemaOf(service);
    check(schema !== null, "Unknown event: the service has no schema");
    const events = new ServiceEvents(schema!);
    check(events.error.length == 0, "Unknown event: " + events.error);
    const type = events.find(eventDb, event);
    check(type !== null, "Unknown event");
    check(<i32>column < type!.fields.length, "Unknown column");
    indexRequests.put(new IndexRequest(db, service, event, column));
  }

  /**
   * Event index interface: a block starts. The event merkle root, which psibase's events resets
   * here, is the node's to derive (docs/chain.md §1.1), so nothing is kept to reset.
   */
  @action
  startBlock(): void {
    requireTransact();
  }

  /**
   * Event index interface: a transaction ended. Queries read the event dbs by id as they run, so
   * there is no index to bring up to date (and in a transaction events are write-only).
   */
  @action
  sync(): void {
    requireTransact();
  }
}

const TRANSACT = account("transact");

function requireTransact(): void {
  check(getSender() == TRANSACT, "wrong sender");
}

