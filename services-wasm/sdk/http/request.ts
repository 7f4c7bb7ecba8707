// The request a service's serveSys receives (docs/serving.md §2), with its derived accessors.

import { HttpHeader } from "./header";
import { decodePercent, equalsIgnoreCase, trimSpaces } from "./text";
import { decodeUtf8 } from "../utf8";

/** One `name=value` pair of a query string. */
export class QueryParam {
  constructor(public name: string, public value: string) {}
}

/** The non-empty `&`-separated pairs of a target's query, undecoded. */
function queryPairs(target: string): Array<string> {
  const out = new Array<string>();
  const q = target.indexOf("?");
  if (q < 0) return out;
  const pairs = target.substring(q + 1).split("&");
  for (let i = 0; i < pairs.length; i++) if (pairs[i].length > 0) out.push(pairs[i]);
  return out;
}

/** The name of a query pair: the part before its `=` (all of it without one). */
function pairName(pair: string): string {
  const eq = pair.indexOf("=");
  return eq < 0 ? pair : pair.substring(0, eq);
}

/** The value of a query pair with %XX escapes decoded ("" without an `=`). */
function pairValue(pair: string): string {
  const eq = pair.indexOf("=");
  return eq < 0 ? "" : decodePercent(pair.substring(eq + 1));
}

/** A cookie of a Cookie header (`text` is its `name=value` as sent). */
class Cookie {
  constructor(public name: string, public value: string, public text: string) {}
}

function parseCookies(header: string): Array<Cookie> {
  const out = new Array<Cookie>();
  const parts = header.split(";");
  for (let i = 0; i < parts.length; i++) {
    const text = trimSpaces(parts[i]);
    if (text.length == 0) continue;
    const eq = text.indexOf("=");
    const name = eq < 0 ? text : trimSpaces(text.substring(0, eq));
    out.push(new Cookie(name, eq < 0 ? "" : trimSpaces(text.substring(eq + 1)), text));
  }
  return out;
}

@fracpack
export class HttpRequest {
  constructor(
    /** Fully-qualified domain name. */
    public host: string = "",
    /** GET, POST, OPTIONS or HEAD. */
    public method: string = "",
    /** Absolute path, optionally with a query. */
    public target: string = "",
    public contentType: string = "",
    public headers: Array<HttpHeader> = [],
    public body: Uint8Array = new Uint8Array(0),
  ) {}

  /** The path component of the target. */
  path(): string {
    const q = this.target.indexOf("?");
    return q < 0 ? this.target : this.target.substring(0, q);
  }

  /** The body decoded as UTF-8. */
  bodyText(): string {
    return decodeUtf8(this.body.dataStart, this.body.length);
  }

  /** The query's `key=value` pairs in order; values have %XX escapes decoded. */
  query(): Array<QueryParam> {
    const out = new Array<QueryParam>();
    const pairs = queryPairs(this.target);
    for (let i = 0; i < pairs.length; i++) out.push(new QueryParam(pairName(pairs[i]), pairValue(pairs[i])));
    return out;
  }

  /** The decoded value of the first query parameter `name`, or null (only that value is decoded). */
  queryParam(name: string): string | null {
    const pairs = queryPairs(this.target);
    for (let i = 0; i < pairs.length; i++) if (pairName(pairs[i]) == name) return pairValue(pairs[i]);
    return null;
  }

  /** The first header named `name` (any case), as sent; null when absent. */
  header(name: string): string | null {
    for (let i = 0; i < this.headers.length; i++) {
      if (equalsIgnoreCase(this.headers[i].name, name)) return this.headers[i].value;
    }
    return null;
  }

  /** Every value of every header named `name` (any case), split at commas and trimmed. */
  headerValues(name: string): Array<string> {
    const out = new Array<string>();
    for (let i = 0; i < this.headers.length; i++) {
      if (!equalsIgnoreCase(this.headers[i].name, name)) continue;
      const values = this.headers[i].value.split(",");
      for (let j = 0; j < values.length; j++) out.push(trimSpaces(values[j]));
    }
    return out;
  }

  /** The values of every cookie named `name`, in order, as sent. */
  cookies(name: string): Array<string> {
    const out = new Array<string>();
    for (let i = 0; i < this.headers.length; i++) {
      if (!equalsIgnoreCase(this.headers[i].name, "cookie")) continue;
      const cookies = parseCookies(this.headers[i].value);
      for (let j = 0; j < cookies.length; j++) if (cookies[j].name == name) out.push(cookies[j].value);
    }
    return out;
  }

  /** Removes every header named `name` (any case). */
  removeHeader(name: string): void {
    const kept = new Array<HttpHeader>();
    for (let i = 0; i < this.headers.length; i++) if (!equalsIgnoreCase(this.headers[i].name, name)) kept.push(this.headers[i]);
    this.headers = kept;
  }

  /** Removes every cookie named `name` from the Cookie headers (dropping headers left empty). */
  removeCookie(name: string): void {
    const kept = new Array<HttpHeader>();
    for (let i = 0; i < this.headers.length; i++) {
      const header = this.headers[i];
      if (!equalsIgnoreCase(header.name, "cookie")) {
        kept.push(header);
        continue;
      }
      const cookies = parseCookies(header.value);
      const rest = new Array<string>();
      for (let j = 0; j < cookies.length; j++) {
        if (cookies[j].name != name) rest.push(cookies[j].text);
      }
      if (rest.length > 0) kept.push(new HttpHeader(header.name, rest.join("; ")));
    }
    this.headers = kept;
  }
}
