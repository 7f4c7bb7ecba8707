// Writing JSON text: strings quoted and escaped per RFC 8259.

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
