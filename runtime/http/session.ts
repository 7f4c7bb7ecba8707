import { isLocalhostName } from '../../host-api/http/localhost.js';
import type { WireRequest } from './wire/index.js';

// The login session of a request (docs/http.md §1 step 6, §5): the token travels in
// `Authorization: Bearer` or in the `__Host-SESSION` cookie (docs/administration.md §5.2), on every host:
// browsers take a Secure cookie from http://localhost and *.localhost too (secure contexts).

const SESSION_COOKIE = '__Host-SESSION';

/**
 * The host name of a secure origin (https, or any localhost origin: browsers treat those as
 * secure contexts); undefined for any other origin.
 */
export function secureOriginHost(origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || isLocalhostName(url.hostname) ? url.hostname : undefined;
}

/** A Cookie header's pairs: name, value, and the pair as sent (trimmed). */
function cookiePairs(header: string): [string, string, string][] {
  return header.split(';').map((part) => {
    const pair = part.trim();
    const eq = pair.indexOf('=');
    return eq < 0 ? [pair, '', pair] : [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim(), pair];
  });
}

/** The login token a request carries: the bearer token, else the session cookie. */
export function sessionToken(req: WireRequest): string | undefined {
  const authorization = req.headers.authorization;
  const bearer = authorization && /^bearer\s+(\S+)\s*$/i.exec(authorization);
  if (bearer) return bearer[1];
  const cookie = req.headers.cookie;
  if (!cookie) return undefined;
  return cookiePairs(cookie).find(([n]) => n === SESSION_COOKIE)?.[1];
}

/**
 * A request header as services see it: `Authorization` is dropped, and so is the session cookie
 * from `Cookie` (other cookies stay). Returns undefined when nothing of the header is left.
 */
export function withoutSession(name: string, value: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower === 'authorization') return undefined;
  if (lower !== 'cookie') return value;
  const kept = cookiePairs(value).filter(([n, , pair]) => n !== SESSION_COOKIE && pair !== '');
  return kept.length > 0 ? kept.map(([, , pair]) => pair).join('; ') : undefined;
}
