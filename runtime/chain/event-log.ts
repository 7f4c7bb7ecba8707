import { DbId, EVENT_DBS } from '../../host-api/abi/databases.js';
import { databaseStatusKey } from '../../host-api/abi/keys.js';
import { counterIndexOf, readCounter } from '../db/event-counters.js';
import type { Store } from '../db/store.js';

// The events a run wrote (docs/host-abi.md §9): the event databases' counters before it, then
// every event numbered from there on.

/** An event as written: its database (4 history, 5 ui, 6 merkle), its id and the packed value. */
export interface EmittedEvent {
  readonly db: number;
  readonly id: bigint;
  readonly value: Uint8Array;
}

/** The next event id of each event database. */
export type EventPosition = Readonly<Record<number, bigint>>;

const DATABASE_STATUS_KEY = databaseStatusKey();
const COUNTERS = EVENT_DBS.map((db) => [db, counterIndexOf(db)] as const);

/** Where the event databases stand now. */
export function eventPosition(store: Store): EventPosition {
  const row = store.get(DbId.native, DATABASE_STATUS_KEY);
  return Object.fromEntries(COUNTERS.map(([db, index]) => [db, readCounter(row, index)]));
}

/** Every event written since `before`, by database and id. */
export function eventsSince(store: Store, before: EventPosition): EmittedEvent[] {
  const after = eventPosition(store);
  const events: EmittedEvent[] = [];
  for (const db of EVENT_DBS) {
    for (let id = before[db]!; id < after[db]!; id++) {
      const value = store.getSequential(db, id);
      if (value) events.push({ db, id, value });
    }
  }
  return events;
}
