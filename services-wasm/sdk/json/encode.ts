// Writing JSON text: strings quoted and escaped per RFC 8259; parsed values written back.

import { JsonKind, JsonValue } from "./value";

const HEX = "0123456789abcdef";

/** The escape of a character that cannot stand in a JSON string as itself, or null. */
function escapeOf(c: i32): string | null {
  if (c == 0x22) return "\\\"";
  if (c == 0x5c) return "\\\\";
  if (c >= 0x20) return null;
  if (c == 0x0a) return "\\n";
  if (c == 0x0d) return "\\r";
  if (c == 0x09) return "\\t";
  return "\\u00" + HEX.charAt(c >> 4) + HEX.charAt(c & 15);
}

/** `text` quoted as a JSON string; the runs between escapes are copied whole. */
export function jsonString(text: string): string {
  let out = "\"";
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const escape = escapeOf(text.charCodeAt(i));
    if (escape === null) continue;
    out += text.substring(run, i) + escape!;
    run = i + 1;
  }
  return out + text.substring(run) + "\"";
}

/** A JSON value as compact JSON text (numbers as their text, members in order). */
export function jsonText(value: JsonValue): string {
  if (value.kind == JsonKind.Null) return "null";
  if (value.kind == JsonKind.Bool) return value.boolean ? "true" : "false";
  if (value.kind == JsonKind.Number) return value.text;
  if (value.kind == JsonKind.String) return jsonString(value.text);
  const parts = new Array<string>();
  if (value.kind == JsonKind.Array) {
    for (let i = 0; i < value.items.length; i++) parts.push(jsonText(value.items[i]));
    return "[" + parts.join(",") + "]";
  }
  for (let i = 0; i < value.keys.length; i++) parts.push(jsonString(value.keys[i]) + ":" + jsonText(value.values[i]));
  return "{" + parts.join(",") + "}";
}
