import { createServer, type Server } from 'node:tls';
import type { TlsSpec } from '../config/server-config.js';
import { readTlsFiles, withTlsContext } from '../config/tls-context.js';

// The server of an https listener, from the configuration's `tls` files, read at start (TLS
// changes take effect at the next start, docs/http.md §6). The configuration refuses https without a
// certificate and a key; what only the files can tell is refused naming the field.

export function createHttpsServer(baseDir: string, tls: TlsSpec, handshakeTimeoutMs: number): Server {
  const options = readTlsFiles(baseDir, tls);
  // The server makes the files' TLS context itself: it is made (and checked) once.
  return withTlsContext(() => createServer({ ALPNProtocols: ['http/1.1'], handshakeTimeout: handshakeTimeoutMs, ...options }));
}
