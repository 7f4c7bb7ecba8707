// A GraphQL error in a response (GraphQL spec §7.1.2): its message, where the field is in the
// query (line and column, counted as graphql-js counts them: UTF-16 units, lines ended by CRLF,
// LF or CR) and, for a field error, the response path.

import { jsonString } from "../json/encode";

export class FieldError {
  /** `start`: the field's offset in the query, -1 when the error has no location; `path`: JSON, null when none. */
  constructor(public message: string, public start: i32, public path: string | null) {}
}

/** `{"line":L,"column":C}` of a UTF-16 offset in `source`. */
function locationJson(source: string, offset: i32): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = source.charCodeAt(i);
    if (c == 0x0a || c == 0x0d) {
      if (c == 0x0d && i + 1 < offset && source.charCodeAt(i + 1) == 0x0a) i++;
      line++;
      lineStart = i + 1;
    }
  }
  return "{\"line\":" + line.toString() + ",\"column\":" + (offset - lineStart + 1).toString() + "}";
}

export function fieldErrorJson(error: FieldError, source: string): string {
  let json = "{\"message\":" + jsonString(error.message);
  if (error.start >= 0) json += ",\"locations\":[" + locationJson(source, error.start) + "]";
  const path = error.path;
  if (path !== null) json += ",\"path\":" + path;
  return json + "}";
}
