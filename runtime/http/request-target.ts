// The path and query of a request target, as the WHATWG URL parser gives them. Most targets
// have nothing for the parser to change, and building a URL costs microseconds per request, so
// those are split directly; anything the parser would rewrite (dot segments, percent escapes,
// backslashes, fragments, characters it escapes) goes through URL.

export interface RequestTarget {
  /** e.g. `/push_transaction` */
  readonly path: string;
  /** `?` and what follows, or '' */
  readonly query: string;
}

/** Path characters the URL parser leaves as they are (`//` at the start would name a host). */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9/._~!$&'()*+,;=:@-]*$/;
/** A `.` or `..` segment, which the parser removes. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
/** Query characters the URL parser leaves as they are (it escapes spaces, quotes, <, > and non-ASCII). */
const PLAIN_QUERY = /^\?[A-Za-z0-9/._~!$&()*+,;=:@?%-]*$/;

/** `target` starts with `/` (origin form). */
export function parseTarget(target: string): RequestTarget {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q);
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path) && (query === '' || (query.length > 1 && PLAIN_QUERY.test(query)))) {
    return { path, query };
  }
  const url = new URL(target, 'http://host');
  return { path: url.pathname, query: url.search };
}
