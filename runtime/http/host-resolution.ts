import { isValidAccountName } from '../../host-api/names/index.js';

// docs/http.md §1 steps 1-3: which configured root a request's Host names, and which service
// subdomain (one label that is a valid account name) it addresses.

export type ResolvedHost =
  /** The root domain itself. */
  | { kind: 'root'; root: string }
  /** `<label>.<root>` with a valid account name as its single label. */
  | { kind: 'service'; root: string; service: string }
  /** Anything else: redirect to the root (matched, or the first configured host). */
  | { kind: 'other'; root: string }
  /** No hosts configured. */
  | { kind: 'none' };

/** The host name of a Host header value, lowercased, without port (IPv6 literals kept whole). */
export function hostName(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  const colon = value.lastIndexOf(':');
  return colon >= 0 ? value.slice(0, colon) : value;
}

/** The port of a Host header value, if it names one. */
export function hostPort(header: string): string | undefined {
  const value = header.trim();
  const end = value.startsWith('[') ? value.indexOf(']') + 1 : 0;
  const colon = value.indexOf(':', end);
  return colon >= 0 ? value.slice(colon + 1) : undefined;
}

export function resolveHost(hostHeader: string, hosts: readonly string[]): ResolvedHost {
  if (hosts.length === 0) return { kind: 'none' };
  const name = hostName(hostHeader);
  // The longest configured host equal to the name or a dot-suffix of it.
  let root: string | undefined;
  for (const h of hosts) {
    const host = h.toLowerCase();
    if ((name === host || name.endsWith(`.${host}`)) && (root === undefined || host.length > root.length)) root = host;
  }
  if (root === undefined) return { kind: 'other', root: hosts[0]!.toLowerCase() };
  if (name === root) return { kind: 'root', root };
  const label = name.slice(0, name.length - root.length - 1);
  // `name` is lower case already, and a valid account name holds no dot: one label.
  if (isValidAccountName(label)) return { kind: 'service', root, service: label };
  return { kind: 'other', root };
}
