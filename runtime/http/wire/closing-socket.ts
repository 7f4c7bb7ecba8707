import type { Duplex } from 'node:stream';

/** How long a closing socket reads on for the client to take the last reply. */
export const LINGER_MS = 5_000;

/**
 * Writes a closing reply on a socket no Connection serves (one refused at the connection limit,
 * an upgrade refused), ends the node's side and reads on, discarding, until the client closes
 * (RFC 9112 §9.6: a client still sending would otherwise get a reset instead of the reply) or
 * `lingerMs` have passed, whichever comes first: a client that never closes cannot hold it.
 */
export function endWithReply(socket: Duplex, reply: Buffer, lingerMs = LINGER_MS): void {
  socket.on('error', () => {});
  socket.end(reply);
  socket.resume();
  const linger = setTimeout(() => socket.destroy(), lingerMs).unref();
  socket.once('close', () => clearTimeout(linger));
}
