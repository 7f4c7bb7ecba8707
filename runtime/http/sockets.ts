import { randomInt } from 'node:crypto';
import { FracpackError } from '../../host-api/fracpack/index.js';
import { HttpReply } from '../../host-api/types/index.js';
import type { ContextSocketHost, SocketRegistry } from '../wasm/host-state.js';
import { escapeHtml, reply, text } from './replies.js';
import type { WireResponse } from './wire/index.js';

const EBADF = 8;
const EINVAL = 28;

/**
 * Requests waiting for a service's reply, as the sockets privileged services write to
 * (docs/host-abi.md §3 socketSend / socketAutoClose). A socket is the response of one request; it goes
 * away when it is answered or the client disconnects.
 */
export class HttpSockets implements SocketRegistry {
  private readonly open = new Map<number, WireResponse>();
  // Socket numbers continue from a random start so a number a service kept from before a
  // restart (a deferred reply in its subjective tables) does not name a new request.
  private next = randomInt(1, 2 ** 30);

  /** A socket for `res`, until it is answered; one that outlives its context must be `watch`ed. */
  add(res: WireResponse): number {
    const fd = this.next;
    this.next = this.next >= 2 ** 31 - 1 ? 1 : this.next + 1;
    this.open.set(fd, res);
    return fd;
  }

  /**
   * The socket stays open after the context that received it (a deferred reply): it goes away
   * if its client does. Most requests are answered within their context and never need the
   * listener this costs.
   */
  watch(fd: number): void {
    const res = this.open.get(fd);
    if (!res) return;
    if (res.destroyed) this.open.delete(fd);
    else res.onClose(() => this.open.delete(fd));
  }

  isOpen(fd: number): boolean {
    return this.open.has(fd);
  }

  /** Answers the request with a packed HttpReply; 0, EBADF (no such socket) or EINVAL (not a reply). */
  sendReply(fd: number, packed: Uint8Array): number {
    const res = this.open.get(fd);
    if (!res) return EBADF;
    let value: HttpReply;
    try {
      value = HttpReply.unpack(packed);
    } catch (err) {
      if (err instanceof FracpackError) return EINVAL;
      throw err;
    }
    this.open.delete(fd);
    if (value.status < 200 || value.status > 599) {
      text(res, 500, 'Invalid status code');
      return 0;
    }
    const headers: Record<string, string | string[]> = {};
    for (const { name, value: v } of value.headers) {
      const existing = headers[name];
      headers[name] = existing === undefined ? v : [...(Array.isArray(existing) ? existing : [existing]), v];
    }
    try {
      reply(res, value.status, value.contentType || undefined, value.body, headers);
    } catch (err) {
      // A header field that would break the head (a line break in a value would end it early).
      text(res, 500, `Invalid reply header: ${escapeHtml((err as Error).message)}`);
    }
    return 0;
  }

  /** Answers with an error of the node's own (500 with a text/html body) if still open. */
  fail(fd: number, message: string): void {
    const res = this.open.get(fd);
    if (!res) return;
    this.open.delete(fd);
    text(res, 500, message);
  }

  /** The sockets as one execution context sees them (what it owns is answered when it ends). */
  forContext(owned: readonly number[] = []): ContextSockets {
    return new ContextSockets(this, owned);
  }
}

/**
 * An execution context's use of the sockets. A socket the context owns (auto-close on) and has
 * not answered when it ends gets 500 `service did not send a response`; releasing ownership
 * (deferReply) leaves it open for a later context.
 */
export class ContextSockets implements ContextSocketHost {
  private readonly owned: Set<number>;

  constructor(private readonly sockets: HttpSockets, owned: readonly number[]) {
    this.owned = new Set(owned);
  }

  send(fd: number, data: Uint8Array): number {
    const result = this.sockets.sendReply(fd, data);
    if (result === 0) this.owned.delete(fd);
    return result;
  }

  autoClose(fd: number, on: boolean): number {
    if (!this.sockets.isOpen(fd)) return EBADF;
    if (on) this.owned.add(fd);
    else this.owned.delete(fd);
    return 0;
  }

  /** The context has ended: what it still owns was never answered. */
  end(): void {
    for (const fd of this.owned) this.sockets.fail(fd, 'service did not send a response');
    this.owned.clear();
  }
}
