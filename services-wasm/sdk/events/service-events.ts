// The event types a service declares, from its schema JSON (the `ui`, `history` and `merkle`
// members, each mapping an event name to the Object type of its arguments): what decodes the
// events of one service, whether the schema was embedded by the transform or read from
// another service's code.

import { JsonKind, JsonValue } from "../json/value";
import { parseJson } from "../json/parse";
import { MethodNumber } from "../names/types";
import { methodNumber } from "../names/method";
import { DbId } from "../tables/db";
import { Member, SchemaType, TypeResolver } from "./schema-type";

/** The schema member listing the event types stored in event db `db`, or "" for other dbs. */
export function eventKindOf(db: DbId): string {
  if (db == DbId.historyEvent) return "history";
  if (db == DbId.uiEvent) return "ui";
  if (db == DbId.merkleEvent) return "merkle";
  return "";
}

/** The event db of an event kind (`history`, `ui`, `merkle`); -1 for other names. */
export function eventDbOf(kind: string): i32 {
  if (kind == "history") return DbId.historyEvent;
  if (kind == "ui") return DbId.uiEvent;
  if (kind == "merkle") return DbId.merkleEvent;
  return -1;
}

/**
 * An event's type as a schema declares it: psibase's current schemas write `{type, access}`,
 * earlier ones the type alone (a type object's one key is its kind, never `type`).
 */
function declaredType(declared: JsonValue): JsonValue {
  if (declared.kind == JsonKind.Object) {
    const type = declared.get("type");
    if (type !== null) return type;
  }
  return declared;
}

export class EventType {
  /** The stored record of this type (event-record.ts), built on first use. */
  record: SchemaType | null = null;

  constructor(
    public name: string,
    public number: MethodNumber,
    /** The Object of the event's arguments: its members are the event's fields. */
    public data: SchemaType,
  ) {}

  get fields(): Array<Member> {
    return this.data.members;
  }
}

export class ServiceEvents {
  /** Why the schema could not be read ("" when it was). */
  error: string = "";
  private kinds: Map<string, Array<EventType>> = new Map<string, Array<EventType>>();

  /** The events of a service schema (JSON text; malformed JSON aborts); check `error`. */
  constructor(schemaJson: string) {
    this.error = this.load(parseJson(schemaJson));
  }

  /** Reads the event types of each kind; the reason they cannot be read, or "". */
  private load(schema: JsonValue): string {
    if (schema.kind != JsonKind.Object) return "the service schema is not a JSON object";
    const resolver = new TypeResolver(schema.get("types"));
    const kinds = ["history", "ui", "merkle"];
    for (let k = 0; k < kinds.length; k++) {
      const list = new Array<EventType>();
      const declared = schema.get(kinds[k]);
      if (declared !== null && declared.kind == JsonKind.Object) {
        for (let i = 0; i < declared.keys.length; i++) {
          const data = resolver.resolve(declaredType(declared.values[i]));
          if (data === null) return "event " + declared.keys[i] + ": " + resolver.error;
          list.push(new EventType(declared.keys[i], methodNumber(declared.keys[i]), data));
        }
      }
      this.kinds.set(kinds[k], list);
    }
    return "";
  }

  /** The event type of db `db` whose method number is `type`, or null. */
  find(db: DbId, type: MethodNumber): EventType | null {
    const list = this.list(eventKindOf(db));
    for (let i = 0; i < list.length; i++) if (list[i].number == type) return list[i];
    return null;
  }

  /** The event type `name` of kind `kind`, or null. */
  named(kind: string, name: string): EventType | null {
    const list = this.list(kind);
    for (let i = 0; i < list.length; i++) if (list[i].name == name) return list[i];
    return null;
  }

  private list(kind: string): Array<EventType> {
    return this.kinds.has(kind) ? this.kinds.get(kind) : [];
  }
}
