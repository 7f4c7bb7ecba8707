import type { AddressInfo, Server, Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import { Connection, type ConnectionSettings, type WireHandlers } from './connection.js';

/** How often idle connections and slow requests are looked for. */
const SWEEP_MS = 250;

/**
 * An HTTP/1.1 listener on a net or TLS server: it owns the server's connections, their idle
 * timeout, and closing them.
 */
export class WireServer implements ConnectionSettings {
  keepAliveMs = 0;
  closing = false;
  private readonly connections = new Set<Connection>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly server: Server, readonly handlers: WireHandlers, readonly maxBodyBytes: number) {
    const event = server instanceof TlsServer ? 'secureConnection' : 'connection';
    server.on(event, (socket: Socket) => this.connections.add(new Connection(socket, this)));
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const connection of this.connections) connection.checkTimeouts(now);
    }, SWEEP_MS).unref();
  }

  release(connection: Connection): void {
    this.connections.delete(connection);
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
