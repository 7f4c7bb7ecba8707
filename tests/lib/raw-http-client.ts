// Raw TCP clients of a test node's http listener, for tests of what the wire does with clients
// that send slowly, never read or never close (tests/integration/http/*).
import { connect, type Socket } from 'node:net';
import type { RunningNode } from './node-process.js';

/** A guard against waiting for ever on a node that never closes a connection (never reached when it works). */
export const GIVE_UP_MS = 60_000;

export interface RawClient {
  readonly socket: Socket;
  /** Everything the node sent. */
  received(): string;
  /** Settles when the connection closes, with when (ms). */
  readonly closed: Promise<number>;
  /** Settles once the connection is open, with when (ms): no earlier than the node's deadlines start. */
  readonly connected: Promise<number>;
}

export interface RawClientOptions {
  /** Read what the node sends (default); when false nothing is read. */
  readonly reads?: boolean;
  /**
   * Keep the client's side open after the node ends its own, and go on sending a byte every
   * 250 ms (a client that never closes; its writes are what tell it when the node has dropped it).
   */
  readonly staysOpen?: boolean;
}

/** A connection to `node`'s listener. */
export function rawClient(node: Pick<RunningNode, 'port'>, options: RawClientOptions = {}): RawClient {
  const reads = options.reads ?? true;
  const socket = connect({ port: Number(node.port), host: '127.0.0.1', allowHalfOpen: options.staysOpen ?? false });
  let received = '';
  if (reads) socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  else socket.pause();
  socket.on('error', () => {});
  if (options.staysOpen) {
    socket.once('end', () => {
      const writes = setInterval(() => socket.write('x'), 250);
      socket.once('close', () => clearInterval(writes));
    });
  }
  const connected = new Promise<number>((resolve) => socket.once('connect', () => resolve(Date.now())));
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  return { socket, received: () => received, closed, connected };
}

/** Settles when the node has closed `client`, with when (ms); fails if it keeps it open past GIVE_UP_MS. */
export async function closedByNode(client: RawClient): Promise<number> {
  let guard: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    guard = setTimeout(() => reject(new Error(`the node kept the connection open; it sent ${JSON.stringify(client.received())}`)), GIVE_UP_MS);
  });
  try {
    return await Promise.race([client.closed, gaveUp]);
  } finally {
    clearTimeout(guard);
  }
}

/** Writes `prefix`, then one byte of `drip` every `everyMs` until the connection closes (or the drip runs out). */
export function drip(client: RawClient, prefix: string, drip: string, everyMs = 100): void {
  client.socket.write(prefix);
  let at = 0;
  const timer = setInterval(() => {
    if (client.socket.destroyed || client.socket.writableEnded || at >= drip.length) return clearInterval(timer);
    client.socket.write(drip[at++]!);
  }, everyMs);
  client.socket.once('close', () => clearInterval(timer));
}

/** The status of the first reply in `received`. */
export const statusOf = (received: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1]);
