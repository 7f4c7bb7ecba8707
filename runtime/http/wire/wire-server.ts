import type { AddressInfo, Server, Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import { endWithReply } from './closing-socket.js';
import { Connection, type ConnectionSettings, type WireHandlers } from './connection.js';
import type { ConnectionLimit } from './connection-limit.js';
import { closingReply } from './response-head.js';

/** How often idle connections and slow requests are looked for. */
const SWEEP_MS = 250;
/** How long a refused connection is given to take its 503 before it is dropped. */
const REFUSAL_LINGER_MS = 2_000;
/** The time a request head may take until a listener is told otherwise (ConnectionSettings.requestTimeoutMs). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

const TOO_MANY_CONNECTIONS = closingReply(503, { 'Content-Type': 'text/plain', 'Retry-After': '1' }, 'the node has too many open connections; try again later\n');

/**
 * An HTTP/1.1 listener on a net or TLS server: it owns the server's connections, their idle and
 * request timeouts, their number (with a `limit`, shared with other listeners) and closing them.
 */
export class WireServer implements ConnectionSettings {
  keepAliveMs = 0;
  requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
  closing = false;
  private readonly connections = new Set<Connection>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly server: Server, readonly handlers: WireHandlers, readonly maxBodyBytes: number, private readonly limit?: ConnectionLimit) {
    // Connections are counted as TCP connections, open until their socket closes (an upgraded
    // one included). A TLS one past the limit is dropped before its handshake: no reply can be
    // sent before one, and the handshake is the costly part of a flood.
    if (server instanceof TlsServer) {
      server.on('connection', (socket: Socket) => {
        if (!this.admits(socket)) socket.destroy();
      });
      server.on('secureConnection', (socket: Socket) => this.connections.add(new Connection(socket, this)));
      // A handshake that fails, or outlasts the server's handshakeTimeout, is reported here and
      // its socket left open (Node.js 20): dropped, or a client could hold it by never finishing.
      server.on('tlsClientError', (_err: Error, socket: Socket) => socket.destroy());
    } else {
      server.on('connection', (socket: Socket) => {
        if (this.admits(socket)) this.connections.add(new Connection(socket, this));
        // Answered without reading its request; the 503 should reach a client still sending.
        else endWithReply(socket, TOO_MANY_CONNECTIONS, REFUSAL_LINGER_MS);
      });
    }
    // A turn of the event loop runs its timers before it reads the sockets that became readable
    // while it was busy: judged then, a request that came in time on a kept-alive connection
    // would be taken for silence and the connection closed under it. So the deadlines are judged
    // after that turn's reads (setImmediate runs after them).
    this.sweep = setInterval(() => setImmediate(() => {
      const now = Date.now();
      for (const connection of this.connections) connection.checkTimeouts(now);
    }), SWEEP_MS).unref();
  }

  release(connection: Connection): void {
    this.connections.delete(connection);
  }

  /** Counts a new TCP connection in until it closes; false past the limit. */
  private admits(socket: Socket): boolean {
    if (!this.limit) return true;
    if (!this.limit.take()) return false;
    const limit = this.limit;
    socket.once('close', () => limit.release());
    return true;
  }

  /** Listens on a TCP port, or a local socket path; resolves to the address it got. */
  listen(where: { port: number; address: string } | { path: string }): Promise<AddressInfo | string> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      const done = () => {
        this.server.off('error', reject);
        resolve(this.server.address()!);
      };
      if ('path' in where) this.server.listen(where.path, done);
      else this.server.listen(where.port, where.address, done);
    });
  }

  /** Stops listening; resolves when every connection has closed. Idle ones close now, busy ones after their reply, or now with `force`. */
  close(force: boolean): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const connection of this.connections) {
      if (force) connection.destroy();
      else connection.closeWhenIdle();
    }
    return closed.finally(() => clearInterval(this.sweep));
  }

  /** Drops every connection at once. */
  dropConnections(): void {
    for (const connection of this.connections) connection.destroy();
  }
}
