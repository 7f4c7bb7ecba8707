// The event decoding result of docs/serving.md §2 for a service's query root: `event(db: Float!, id:
// String!)` looks the event up and decodes it when (§6 rule 3) it is in that event db, this
// service wrote it and its type is one of this service's event types of that db's kind. Its
// fields are `event_db`, `event_id`, `event_found`, `event_service`, `event_supported_service`,
// `event_type`, `event_unpack_ok`, `event_all_content` (every field as JSON text) and any field
// of the decoded event (null when the event has no such field or was not decoded).

import { acceptArguments, integerValue } from "../graphql/arguments";
import { Execution, FieldRequest, GqlObject } from "../graphql/execute";
import { jsonText } from "../json/encode";
import { JsonValue } from "../json/value";
import { accountName } from "../names/account";
import { methodName } from "../names/method";
import { getService } from "../service/context";
import { DbId } from "../tables/db";
import { decodeEventData, EventHeader, readEvent } from "./event-record";
import { JsonObject } from "./json-object";
import { eventKindOf, ServiceEvents } from "./service-events";

/** The GraphQL type name of the result. */
export const EVENT_DECODING_TYPE = "EventDecoding";

class EventDecoding extends GqlObject {
  found: bool = false;
  service: string = "";
  supported: bool = false;
  type: string = "";
  /** The decoded fields, or null when the event was not decoded. */
  fields: JsonValue | null = null;

  constructor(public db: u32, public id: u64) {
    super();
  }

  typeName(): string {
    return EVENT_DECODING_TYPE;
  }

  resolve(field: FieldRequest, exec: Execution): bool {
    const name = field.name;
    const fields = this.fields;
    if (name == "event_db") exec.writeFloat(<f64>this.db);
    else if (name == "event_id") exec.writeString(this.id.toString());
    else if (name == "event_found") exec.writeBool(this.found);
    else if (name == "event_service") exec.writeString(this.service);
    else if (name == "event_supported_service") exec.writeBool(this.supported);
    else if (name == "event_type") exec.writeString(this.type);
    else if (name == "event_unpack_ok") exec.writeBool(fields !== null);
    else if (name == "event_all_content") {
      if (fields !== null) exec.writeString(jsonText(fields));
      else exec.writeNull();
    } else if (fields !== null) return new JsonObject(EVENT_DECODING_TYPE, fields).resolve(field, exec);
    else exec.writeNull();
    return true;
  }
}

/** Looks event `id` up in `db` and decodes it with `events` when the rules allow. */
function decodeEvent(db: u32, id: u64, events: ServiceEvents): EventDecoding {
  const result = new EventDecoding(db, id);
  // Only event dbs may be read by id; an id in any other db is simply not found.
  const record = eventKindOf(<DbId>db).length > 0 ? readEvent(<DbId>db, id) : null;
  if (record === null) return result;
  result.found = true;
  const header = EventHeader.of(record);
  if (header === null) return result;
  result.service = accountName(header.service);
  result.supported = header.service == getService();
  const type = header.hasType ? events.find(<DbId>db, header.type) : null;
  result.type = type !== null ? type.name : header.hasType ? methodName(header.type) : "";
  if (result.supported && type !== null) result.fields = decodeEventData(record, type).value;
  return result;
}

/**
 * Resolves the event decoding field `field` (arguments `db: Float!` and `id: String!`, the
 * event id as a decimal u64) of the query root of `service`, the @service instance whose
 * generated `__eventSchema()` lists its events.
 */
export function writeEventDecoding<S>(service: S, field: FieldRequest, exec: Execution): void {
  if (!acceptArguments(field, exec, "Query." + field.name, ["db", "id"], ["Float!", "String!"])) return;
  const db = integerValue<u32>(field.argument("db")!, "db", exec);
  const id = integerValue<u64>(field.argument("id")!, "id", exec);
  if (exec.failed) return;
  const events = new ServiceEvents(service.__eventSchema());
  exec.writeObject(decodeEvent(db, id, events));
}
