// Writing JSON text: strings quoted and escaped per RFC 8259; parsed values written back.

import { JsonKind, JsonValue } from "./value";

const HEX = "0123456789abcdef";

export function jsonString(text: string): string {
  let out = "\"";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c == 0x22) out += "\\\"";
    else if (c == 0x5c) out += "\\\\";
    else if (c == 0x0a) out += "\\n";
    else if (c == 0x0d) out += "\\r";
    else if (c == 0x09) out += "\\t";
    else if (c < 0x20) out += "\\u00" + HEX.charAt(c >> 4) + HEX.charAt(c & 15);
    else out += String.fromCharCode(c);
  }
  return out + "\"";
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
