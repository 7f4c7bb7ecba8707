// A constant GraphQL value as GraphQL text, the way graphql-js reports a default value in
// introspection (`__InputValue.defaultValue`): numbers as JavaScript prints them (`1.0` is `1`),
// strings quoted with control characters escaped, lists and objects with `, ` between items.

import { Value, ValueKind } from "./ast";
import { floatText } from "./float";

const HEX = "0123456789ABCDEF";

/** A string literal: `"` and `\` escaped, control characters (C0, DEL, C1) as escapes. */
export function stringLiteral(text: string): string {
  let out = "\"";
  let chunk = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c != 0x22 && c != 0x5c && (c < 0x7f || c > 0x9f)) continue;
    out += text.substring(chunk, i);
    chunk = i + 1;
    if (c == 0x22) out += "\\\"";
    else if (c == 0x5c) out += "\\\\";
    else if (c == 0x08) out += "\\b";
    else if (c == 0x09) out += "\\t";
    else if (c == 0x0a) out += "\\n";
    else if (c == 0x0c) out += "\\f";
    else if (c == 0x0d) out += "\\r";
    else out += "\\u00" + HEX.charAt(c >> 4) + HEX.charAt(c & 15);
  }
  return out + text.substring(chunk) + "\"";
}

export function valueText(v: Value): string {
  if (v.kind == ValueKind.Int || v.kind == ValueKind.Float) return floatText(parseFloat(v.text));
  if (v.kind == ValueKind.String) return stringLiteral(v.text);
  if (v.kind == ValueKind.Boolean) return v.boolean ? "true" : "false";
  if (v.kind == ValueKind.Enum) return v.text;
  if (v.kind == ValueKind.List) {
    const items = new Array<string>(v.items.length);
    for (let i = 0; i < v.items.length; i++) items[i] = valueText(v.items[i]);
    return "[" + items.join(", ") + "]";
  }
  if (v.kind == ValueKind.Object) {
    const fields = new Array<string>(v.fields.length);
    for (let i = 0; i < v.fields.length; i++) fields[i] = v.fields[i].name + ": " + valueText(v.fields[i].value);
    return "{" + fields.join(", ") + "}";
  }
  return "null";
}
