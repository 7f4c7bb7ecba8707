// ASCII text helpers for HTTP fields (header names are case-insensitive ASCII).

import { hexDigitValue } from "../hex";

function lowerAscii(c: i32): i32 {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

export function equalsIgnoreCase(a: string, b: string): bool {
  if (a.length != b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (lowerAscii(a.charCodeAt(i)) != lowerAscii(b.charCodeAt(i))) return false;
  }
  return true;
}

function isSpace(c: i32): bool {
  return c == 0x20 || c == 0x09;
}

/** `s` without leading and trailing spaces and tabs. */
export function trimSpaces(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isSpace(s.charCodeAt(start))) start++;
  while (end > start && isSpace(s.charCodeAt(end - 1))) end--;
  return s.substring(start, end);
}

/** Decodes `%XX` escapes (a `%` not followed by two hex digits stays as it is). */
export function decodePercent(s: string): string {
  if (s.indexOf("%") < 0) return s;
  const text = String.UTF8.encode(s);
  const input = Uint8Array.wrap(text);
  const out = new Uint8Array(input.length);
  let n = 0;
  for (let i = 0; i < input.length; i++) {
    const c = <i32>input[i];
    if (c == 0x25 && i + 2 < input.length) {
      const hi = hexDigitValue(input[i + 1]);
      const lo = hexDigitValue(input[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out[n++] = <u8>((hi << 4) | lo);
        i += 2;
        continue;
      }
    }
    out[n++] = <u8>c;
  }
  return String.UTF8.decodeUnsafe(out.dataStart, n);
}

/** `s` made safe inside an HTML body: `& < > " '` become character references. */
export function escapeHtml(s: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let ref = "";
    if (c == 0x26) ref = "&amp;";
    else if (c == 0x3c) ref = "&lt;";
    else if (c == 0x3e) ref = "&gt;";
    else if (c == 0x22) ref = "&quot;";
    else if (c == 0x27) ref = "&#39;";
    else continue;
    out += s.substring(from, i) + ref;
    from = i + 1;
  }
  return from == 0 ? s : out + s.substring(from);
}
