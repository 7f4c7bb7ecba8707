// Names under `localhost` (RFC 6761): always the machine itself, and a secure context in browsers.

/** `localhost` or a name under it. */
export function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}
