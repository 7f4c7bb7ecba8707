import { createRequire } from 'node:module';

// The ws library (websockets: the admin log stream, peer links) is loaded when the first
// websocket is opened or accepted: a node that no websocket reaches, a dev chain's, does not
// pay for loading it at start.

/** The library's CommonJS module, which holds what its ESM entry exports. */
type WsLibrary = typeof import('ws');

let ws: WsLibrary | undefined;

export function websocketLibrary(): WsLibrary {
  return (ws ??= createRequire(import.meta.url)('ws') as WsLibrary);
}
