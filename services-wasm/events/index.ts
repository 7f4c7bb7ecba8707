// events: event tables over the event databases (docs/serving.md §4.7 "Event queries", §6). A table
// `<kind>.<service>.<event>` holds the events of that type the service wrote to the event db of
// that kind; other services query it from their serveSys with the SDK's EventQuery (an SQL
// condition with ? parameters and Connection paging), which calls `query` here. Nothing is
// indexed: the events are read by id, so a query sees every event up to the last transaction.
// See docs/system-services.md.

import { EventPage, EventQuery } from "../sdk/events/index";
import { runQuery } from "./run-query";

@service("events")
export class Events {
  /** Runs an event query; errors are answered in the page, not aborted (queries and callbacks only). */
  @action
  query(query: EventQuery): EventPage {
    return runQuery(query);
  }
}
