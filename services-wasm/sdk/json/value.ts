// A parsed JSON value (RFC 8259). Numbers keep their text, so 64-bit integers stay exact.

export enum JsonKind {
  Null,
  Bool,
  Number,
  String,
  Array,
  Object,
}

export class JsonValue {
  kind: JsonKind = JsonKind.Null;
  boolean: bool = false;
  /** A number's literal text, or a string's value. */
  text: string = "";
  /** An array's items. */
  items: Array<JsonValue> = [];
  /** An object's member names and values, in document order. */
  keys: Array<string> = [];
  values: Array<JsonValue> = [];

  /** The value of object member `key` (the last one if repeated), or null. */
  get(key: string): JsonValue | null {
    for (let i = this.keys.length - 1; i >= 0; i--) if (this.keys[i] == key) return this.values[i];
    return null;
  }
}
