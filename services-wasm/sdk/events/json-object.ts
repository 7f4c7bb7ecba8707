// Decoded event data as GraphQL output: an object answers any field name with the member of
// that name (null when it has none: requested fields that do not match the event are ignored,
// docs/serving.md §6 rule 3), numbers as Float, 64-bit integers, names and times as String, nested
// objects and lists as such.

import { Execution, FieldRequest, GqlObject } from "../graphql/execute";
import { JsonKind, JsonValue } from "../json/value";

/** Writes one decoded value with the writer its JSON kind calls for. */
export function writeJsonValue(exec: Execution, value: JsonValue | null, typeName: string): void {
  if (value === null || value.kind == JsonKind.Null) {
    exec.writeNull();
  } else if (value.kind == JsonKind.Bool) {
    exec.writeBool(value.boolean);
  } else if (value.kind == JsonKind.Number) {
    exec.writeFloat(parseFloat(value.text));
  } else if (value.kind == JsonKind.String) {
    exec.writeString(value.text);
  } else if (value.kind == JsonKind.Array) {
    exec.beginList(false);
    for (let i = 0; i < value.items.length; i++) {
      if (i) exec.nextItem();
      writeJsonValue(exec, value.items[i], typeName);
    }
    exec.endList();
  } else {
    exec.writeObject(new JsonObject(typeName, value));
  }
}

/** A decoded Object (an event's fields, or a record inside them) as a GraphQL object of type `name`. */
export class JsonObject extends GqlObject {
  constructor(private name: string, readonly value: JsonValue) {
    super();
  }

  typeName(): string {
    return this.name;
  }

  resolve(field: FieldRequest, exec: Execution): bool {
    writeJsonValue(exec, this.value.get(field.name), this.name);
    return true;
  }
}
