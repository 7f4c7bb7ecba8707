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
  // The lists are made on first use: most values are scalars, and services never free memory.
  private items_: Array<JsonValue> | null = null;
  private keys_: Array<string> | null = null;
  private values_: Array<JsonValue> | null = null;

  /** An array's items. */
  get items(): Array<JsonValue> {
    let items = this.items_;
    if (items === null) this.items_ = items = new Array<JsonValue>();
    return items;
  }

  /** An object's member names, in document order. */
  get keys(): Array<string> {
    let keys = this.keys_;
    if (keys === null) this.keys_ = keys = new Array<string>();
    return keys;
  }

  /** An object's member values, in the order of `keys`. */
  get values(): Array<JsonValue> {
    let values = this.values_;
    if (values === null) this.values_ = values = new Array<JsonValue>();
    return values;
  }

  /** The value of object member `key` (the last one if repeated), or null. */
  get(key: string): JsonValue | null {
    const keys = this.keys_;
    if (keys === null) return null;
    for (let i = keys.length - 1; i >= 0; i--) if (keys[i] == key) return this.values[i];
    return null;
  }
}
