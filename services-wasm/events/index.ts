// events: event tables over the event databases (docs/serving.md §4.7 "Event queries", §6). A table
// `<kind>.<service>.<event>` holds the events of that type the service wrote to the event db of
// that kind; other services query it from their serveSys with the SDK's EventQuery (an SQL
// condition with ? parameters and Connection paging), which calls `query` here. Nothing is
// indexed: the events are read by id, so a query sees every event up to the last transaction.
// It also answers the event index interface transact calls once it is registered with
// transact::regEvIdx (startBlock, sync), with nothing to do. See docs/system-services.md.

import { account, check, getSender } from "../sdk/index";
import { EventPage, EventQuery } from "../sdk/events/index";
import { runQuery } from "./run-query";

@service("events")
export class Events {
  /** Runs an event query; errors are answered in the page, not aborted (queries and callbacks only). */
  @action
  query(query: EventQuery): EventPage {
    return runQuery(query);
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

