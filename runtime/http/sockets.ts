import { randomInt } from 'node:crypto';
import type { HttpReply } from '../../host-api/types/index.js';
import type { SocketOutcome, SocketRegistry } from '../wasm/host-state.js';
import { escapeHtml, reply, text } from './replies.js';
import type { WireResponse } from './wire/index.js';

/**
 * Requests waiting for a service's reply, numbered as the sockets privileged services answer
 * (docs/host-abi.md §3 socketSend / socketAutoClose). Whether a request is answered is its
 * WireResponse's to say: a socket is open while its response is unanswered and its client is
 * there. Contexts return their replies as data; `settle` writes them.
 */
export class HttpSockets implements SocketRegistry {
  private readonly responses = new Map<number, WireResponse>();
  // Socket numbers continue from a random start so a number a service kept from before a
  // restart does not name a new request.
  private next = randomInt(1, 2 ** 30);
  /** Set by closeAll: the answer of every request still open or deferred from then on. */
  private closedWith: string | undefined;

  /** A socket for `res`, until it is answered; one that outlives its context must be `watch`ed. */
  add(res: WireResponse): number {
    const fd = this.next;
    this.next = this.next >= 2 ** 31 - 1 ? 1 : this.next + 1;
    this.responses.set(fd, res);
    return fd;
  }

  /**
   * The socket stays open after the context that received it (a deferred reply): it goes away
   * if its client does, or when it is answered. Most requests are answered within their
   * context and never need the listener this costs.
   */
  watch(fd: number): void {
    const res = this.responses.get(fd);
    if (res === undefined) return;
    if (this.closedWith !== undefined) return this.refuseClosed(fd);
    if (res.answered || res.destroyed) this.responses.delete(fd);
    else res.onClose(() => this.responses.delete(fd));
  }

  isOpen(fd: number): boolean {
    const res = this.responses.get(fd);
    return res !== undefined && !res.answered && !res.destroyed;
  }

  settle(outcome: SocketOutcome, error = 'service did not send a response'): void {
    for (const { socket, reply: value } of outcome.replies) this.write(socket, value);
    for (const fd of outcome.unanswered) this.fail(fd, error);
  }

  /**
   * Answers every request still open with a 503 (`message`, Retry-After): once the chain is
   * closed no service can answer them, and a request the node cannot answer must not hold its
   * shutdown either. A request deferred later (served while the listeners close) gets the same answer.
   */
  closeAll(message: string): void {
    this.closedWith = message;
    for (const fd of [...this.responses.keys()]) this.refuseClosed(fd);
  }

  /** The answer closeAll gives, if the request is still open. */
  private refuseClosed(fd: number): void {
    const res = this.take(fd);
    if (res) text(res, 503, this.closedWith!, { 'Retry-After': '1' });
  }

  /** Answers with an error of the node's own (500 with a text/html body) if still open. */
  private fail(fd: number, message: string): void {
    const res = this.take(fd);
    if (res) text(res, 500, message);
  }

  private write(fd: number, value: HttpReply): void {
    const res = this.take(fd);
    if (!res) return;
    if (value.status < 200 || value.status > 599) return text(res, 500, 'Invalid status code');
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
  }

  /** The response of an open socket, which is forgotten: it is about to be answered. */
  private take(fd: number): WireResponse | undefined {
    const res = this.responses.get(fd);
    if (res === undefined) return undefined;
    this.responses.delete(fd);
    return res.answered || res.destroyed ? undefined : res;
  }
}
