import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import { websocketLibrary } from '../http/websocket-library.js';
import { hasForeignOrigin, isAdminRequest } from '../http/admin-access.js';
import { closingReply, endWithReply, type WireRequest } from '../http/wire/index.js';
import { LogWebSocketSession, type LogSubscriptions } from '../log/index.js';

const LOG_PATH = '/native/admin/log';

/** A refusal written on the upgrade socket itself, which has no WireResponse. */
function refuse(socket: Duplex, status: number, body: string): void {
  endWithReply(socket, closingReply(status, { 'Content-Type': 'text/html' }, body));
}

/**
 * The log websocket (docs/administration.md §4.1 rule 5, docs/http.md §8): admins only; an `Origin`, when sent, must
 * be the node's own (`<scheme>://<Host>`). Each connection is a LogWebSocketSession; the node
 * ends them all when it stops (1001) or restarts (1012).
 */
export class LogSockets {
  /** Made at the first upgrade (websocket-library.ts says why). */
  private server: WebSocketServer | undefined;
  private readonly sessions = new Set<LogWebSocketSession>();

  constructor(private readonly logging: LogSubscriptions) {}

  /** Takes an upgrade request for the log path; false for any other path. */
  upgrade(req: WireRequest, socket: Duplex, head: Buffer): boolean {
    if (new URL(req.url, 'http://host').pathname !== LOG_PATH) return false;
    if (!isAdminRequest(req)) {
      refuse(socket, 401, 'Not authorized');
      return true;
    }
    if (hasForeignOrigin(req)) {
      refuse(socket, 400, 'Cross origin request refused');
      return true;
    }
    // ws reads the request's method, url and headers, which a WireRequest has as Node's does.
    this.server ??= new (websocketLibrary().WebSocketServer)({ noServer: true });
    this.server.handleUpgrade(req as unknown as IncomingMessage, socket, head, (ws) => {
      const session = new LogWebSocketSession(this.logging, ws);
      this.sessions.add(session);
      ws.on('message', (data) => session.receive(data.toString()));
      ws.on('close', () => {
        session.detach();
        this.sessions.delete(session);
      });
    });
    return true;
  }

  /** Ends every session: 1012 when the node restarts, 1001 when it stops. */
  closeAll(restart: boolean): void {
    for (const session of this.sessions) {
      if (restart) session.restart();
      else session.shutdown();
    }
    this.sessions.clear();
  }
}
