// Event tables: `<kind>.<service>.<event>` (e.g. `history.tokens.transferred`) names the events
// of one type that one service wrote to the event db of that kind. Its columns are the event's
// fields, as the service's schema declares them.

import { AccountNumber, DbId, account, isValidAccountName } from "../sdk/index";
import { EventType, ServiceEvents, SchemaType, TypeKind, eventDbOf } from "../sdk/events/index";
import { serviceSchemaOf } from "./code-schema";

/** Integers (64-bit ones are decoded as decimal strings) compare as numbers in conditions. */
function isInteger(t: SchemaType): bool {
  if (t.kind == TypeKind.Int) return true;
  if (t.kind == TypeKind.Option) return isInteger(t.element);
  return t.kind == TypeKind.Custom && t.id != "AccountNumber" && t.id != "MethodNumber" && !t.id.startsWith("TimePoint") && isInteger(t.element);
}

export class EventTable {
  /** The field names, in declaration order. */
  columns: Array<string> = [];
  /** Per column: whether it holds integers. */
  integers: Array<bool> = [];

  constructor(public db: DbId, public service: AccountNumber, public event: EventType) {
    const fields = event.fields;
    for (let i = 0; i < fields.length; i++) {
      this.columns.push(fields[i].name);
      this.integers.push(isInteger(fields[i].type));
    }
  }
}

/** The table `name`, or the reason it does not exist (a string). */
export class TableLookup {
  table: EventTable | null = null;
  error: string = "";
}

export function findTable(name: string): TableLookup {
  const found = new TableLookup();
  const parts = name.split(".");
  const db = parts.length == 3 ? eventDbOf(parts[0]) : -1;
  if (db < 0 || !isValidAccountName(parts[1]) || parts[2].length == 0) {
    found.error = "unknown table \"" + name + "\": a table is named <history|ui|merkle>.<service>.<event>";
    return found;
  }
  const service = account(parts[1]);
  const schema = serviceSchemaOf(service);
  if (schema === null) {
    found.error = "unknown table \"" + name + "\": " + parts[1] + " has no service schema";
    return found;
  }
  const events = new ServiceEvents(schema);
  const event = events.error.length == 0 ? events.named(parts[0], parts[2]) : null;
  if (event === null) {
    found.error = "unknown table \"" + name + "\": " + (events.error.length > 0 ? events.error : parts[1] + " has no " + parts[0] + " event " + parts[2]);
    return found;
  }
  found.table = new EventTable(<DbId>db, service, event);
  return found;
}
