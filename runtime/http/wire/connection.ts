import type { Socket } from 'node:net';
import { LINGER_MS, endWithReply } from './closing-socket.js';
import { NO_BODY, bodyReaderFor, type BodyReader } from './request-body.js';
import { listsToken } from './fields.js';
import { parseRequestHead, type RequestHead } from './request-head.js';
import { closingReply } from './response-head.js';
import { writeAtTurnEnd, type TurnWriter } from './turn-writes.js';
import { WireError, badRequest } from './wire-error.js';
import { WireRequest } from './wire-request.js';
import { WireResponse, type ReplySink } from './wire-response.js';

/** What a listener does with the requests of its connections. */
export interface WireHandlers {
  request(req: WireRequest, res: WireResponse): void;
  /** A request to switch protocols: true when taken (the socket is then the taker's). */
  upgrade(req: WireRequest, socket: Socket, head: Buffer): boolean;
}

/** What the connections of a listener share. */
export interface ConnectionSettings {
  readonly handlers: WireHandlers;
  /** Idle time after which a connection is closed, in ms; 0 keeps it. */
  readonly keepAliveMs: number;
  /**
   * The time a request head may take to arrive, from its first byte (from the connection's
   * opening for the first request), in ms; also the time a body may take, and replies written
   * may take to be read, plus their size's worth at MIN_BYTES_PER_SECOND. Deadlines, not idle
   * timers: bytes dripped in (or read out) do not extend them.
   */
  readonly requestTimeoutMs: number;
  /** The listener is closing: each connection closes after the reply it is writing. */
  readonly closing: boolean;
  readonly maxBodyBytes: number;
  /** The connection has closed (or been taken by an upgrade). */
  release(connection: Connection): void;
}

/** The longest request head taken (Node's default); longer ones get 431. */
const MAX_HEAD_BYTES = 16 * 1024;
/** Requests received but not answered past which reading pauses. */
const MAX_UNANSWERED = 64;
/** The slowest a body may arrive, or replies be read (past the request timeout): 20 MiB takes at most 5 minutes more. */
const MIN_BYTES_PER_SECOND = 64 * 1024;

/** The time `bytes` may take at the slowest rate allowed, in ms. */
const transferAllowance = (bytes: number) => (bytes * 1000) / MIN_BYTES_PER_SECOND;

/**
 * What a connection not being served waits for when its deadline passes (docs/http.md §9): the
 * client to read what was written ('read') or to close after the last reply ('linger') or
 * to send a first byte ('silence'), all three dropped without a word; the rest of a request's
 * head or body (408); or its next request ('idle', closed).
 */
type Wait = 'read' | 'linger' | 'silence' | 'head' | 'body' | 'idle';

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const CONTINUE = Buffer.from('HTTP/1.1 100 Continue\r\n\r\n', 'latin1');

/**
 * One client connection (RFC 9112): requests are read as they arrive, each handed on once its
 * body is whole; replies go out in request order, at the end of the turn that answered them.
 */
export class Connection implements ReplySink, TurnWriter {
  scheduled = false;
  destroyed = false;
  /** Unparsed bytes received. */
  private input: Buffer | undefined;
  /** The request whose body is being read, and since when (ms). */
  private reading: { head: RequestHead; body: BodyReader; persistent: boolean; since: number } | undefined;
  /** Replies not yet written, in request order (answered ones wait for those before them). */
  private readonly unwritten: WireResponse[] = [];
  private readonly ready: Buffer[] = [];
  private readonly readyFinishing: WireResponse[] = [];
  /** No more requests are read: the last reply closes the connection. */
  private ending = false;
  /** A reply ready to write closes the connection: nothing after it is written. */
  private closeAfterWrite = false;
  private paused = false;
  private draining = false;
  /** When the connection last became idle (ms). */
  private idleSince = Date.now();
  /** When the head being received began (ms; 0: none): the connection's opening until its first byte. */
  private headSince = Date.now();
  /** Nothing received yet: a connection that never asks is closed without a reply. */
  private silent = true;
  /** Since when the socket has held written bytes the client has not taken (ms), and how many were written since. */
  private writeSince = 0;
  private writeBytes = 0;
  /** When the node ended its side (ms; 0: not yet); the socket is dropped LINGER_MS later. */
  private lingerSince = 0;

  private readonly onData = (chunk: Buffer) => this.receive(chunk);
  private readonly onClose = () => this.closed();

  constructor(readonly socket: Socket, private readonly settings: ConnectionSettings) {
    socket.setNoDelay(true);
    socket.on('data', this.onData);
    socket.on('close', this.onClose);
    // A reset by the client is its 'close' too; nothing to answer.
    socket.on('error', () => {});
  }

  private receive(chunk: Buffer): void {
    if (this.ending) return;
    this.silent = false;
    this.input = this.input ? Buffer.concat([this.input, chunk]) : chunk;
    this.readRequests();
  }

  private readRequests(): void {
    let offset = 0;
    const input = this.input!;
    let upgrade: RequestHead | undefined;
    try {
      while (offset < input.length && !this.ending && !this.paused) {
        if (this.reading) {
          offset = this.reading.body.take(input, offset);
          if (!this.reading.body.done) break;
          const { head, body, persistent } = this.reading;
          this.reading = undefined;
          this.dispatch(head, body.body(), persistent);
          continue;
        }
        const end = input.indexOf(HEAD_END, offset);
        if (end < 0 ? input.length - offset > MAX_HEAD_BYTES : end - offset > MAX_HEAD_BYTES) {
          throw new WireError(431, 'HTTP_HEAD_TOO_LARGE', `request head exceeds ${MAX_HEAD_BYTES} bytes`);
        }
        if (end < 0) break;
        const head = parseRequestHead(input.toString('latin1', offset, end));
        offset = end + HEAD_END.length;
        if (this.upgrades(head)) {
          upgrade = head;
          break;
        }
        offset = this.startRequest(head, input, offset);
      }
    } catch (err) {
      if (!(err instanceof WireError)) throw err;
      this.refuse(err);
      return;
    }
    if (upgrade) return this.upgrade(upgrade, input.subarray(offset));
    this.input = offset < input.length ? input.subarray(offset) : undefined;
    if (this.input === undefined) this.headSince = 0;
    else if (this.headSince === 0) this.headSince = Date.now();
  }

  /** Checks a request's head and reads on into its body; returns the offset after what was read. */
  private startRequest(head: RequestHead, input: Buffer, offset: number): number {
    const { headers } = head;
    if (head.minorVersion === 1 && headers.host === undefined) throw badRequest('missing Host header');
    const persistent = head.minorVersion === 1 ? !listsToken(headers.connection, 'close') : listsToken(headers.connection, 'keep-alive');
    const body = bodyReaderFor(head, this.settings.maxBodyBytes);
    const { expect } = headers;
    if (expect !== undefined) {
      if (expect.toLowerCase() !== '100-continue') throw new WireError(417, 'HTTP_EXPECTATION_FAILED', `cannot meet the expectation '${expect}'`);
      // Sent only when no earlier reply is due: it must not overtake one.
      if (body && offset === input.length && this.unwritten.length === 0) this.socket.write(CONTINUE);
    }
    if (!body) {
      this.dispatch(head, NO_BODY, persistent);
      return offset;
    }
    this.reading = { head, body, persistent, since: Date.now() };
    return offset;
  }

  private dispatch(head: RequestHead, body: Uint8Array, persistent: boolean): void {
    const req = new WireRequest(head, body, this.socket);
    const res = new WireResponse(this, head.method === 'HEAD', persistent);
    this.unwritten.push(res);
    if (!persistent) this.ending = true;
    else if (this.unwritten.length >= MAX_UNANSWERED) this.pause();
    this.settings.handlers.request(req, res);
  }

  private upgrades(head: RequestHead): boolean {
    return head.headers.upgrade !== undefined && listsToken(head.headers.connection, 'upgrade');
  }

  /** Hands the socket to the upgrade handler, or answers 404 and closes. */
  private upgrade(head: RequestHead, rest: Buffer): void {
    if (this.unwritten.length > 0) return this.refuse(badRequest('protocol upgrade behind unanswered requests'));
    // Only the connection's own: others (the connection limit's count) stay with the socket.
    this.socket.off('data', this.onData);
    this.socket.off('close', this.onClose);
    this.settings.release(this);
    const req = new WireRequest(head, NO_BODY, this.socket);
    if (!this.settings.handlers.upgrade(req, this.socket, rest)) endWithReply(this.socket, closingReply(404, {}, ''));
  }

  /** Answers a request the node cannot take (after the replies before it) and closes. */
  private refuse(err: WireError): void {
    this.ending = true;
    this.input = undefined;
    this.reading = undefined;
    const res = new WireResponse(this, false, false);
    this.unwritten.push(res);
    res.end(err.status, { 'Content-Type': 'text/plain' }, Buffer.from(err.message, 'utf8'));
  }

  keepAlive(closeAsked: boolean, persistentRequest: boolean): 'close' | number {
    return closeAsked || !persistentRequest || this.settings.closing ? 'close' : this.settings.keepAliveMs;
  }

  answered(response: WireResponse): void {
    if (this.destroyed || response !== this.unwritten[0]) return;
    while (this.unwritten[0]?.bytes && !this.closeAfterWrite) {
      const next = this.unwritten.shift()!;
      this.ready.push(next.bytes!);
      next.bytes = undefined;
      if (next.watchesFinish) this.readyFinishing.push(next);
      if (next.closes) this.closeAfterWrite = true;
    }
    writeAtTurnEnd(this);
  }

  write(): void {
    if (this.destroyed || this.ready.length === 0) return;
    const data = this.ready.length === 1 ? this.ready[0]! : Buffer.concat(this.ready);
    this.ready.length = 0;
    const finishing = this.readyFinishing.splice(0);
    if (this.socket.writableLength === 0) {
      this.writeSince = Date.now();
      this.writeBytes = 0;
    }
    this.writeBytes += data.length;
    const flushed = this.socket.write(data, finishing.length === 0 ? undefined : () => finishing.forEach((r) => r.finished()));
    if (this.closeAfterWrite || (this.settings.closing && this.isIdle())) {
      this.ending = true;
      this.closeGracefully();
    } else if (!flushed) {
      // The client reads slower than it asks: stop reading until it has caught up.
      this.pause();
      if (!this.draining) {
        this.draining = true;
        this.socket.once('drain', () => {
          this.draining = false;
          this.resume();
        });
      }
    } else if (this.paused && this.unwritten.length < MAX_UNANSWERED) {
      this.resume();
    }
    if (this.isIdle()) this.idleSince = Date.now();
  }

  private isIdle(): boolean {
    // A reply answered this turn waits in `ready` for the turn's end: not idle yet.
    return this.unwritten.length === 0 && this.ready.length === 0 && this.input === undefined && !this.reading;
  }

  private pause(): void {
    this.paused = true;
    this.socket.pause();
  }

  private resume(): void {
    if (this.destroyed || !this.paused || this.socket.writableNeedDrain) return;
    this.paused = false;
    this.socket.resume();
    // A request left waiting while reading was paused is timed from now.
    this.headSince = 0;
    if (this.reading) this.reading.since = Date.now();
    if (this.input) this.readRequests();
  }

  /**
   * What the connection waits for now, or undefined while a request of it is being served: each
   * wait has a deadline (`deadline`) that nothing the client does extends, whatever the
   * connection's state (reading paused included).
   */
  private waiting(): Wait | undefined {
    if (this.lingerSince !== 0) return 'linger';
    // Replies the client does not read: it cannot hold the connection by not reading either.
    if (this.socket.writableLength > 0) return 'read';
    if (this.unwritten.length > 0 || this.ready.length > 0) return undefined;
    if (this.reading) return 'body';
    if (this.silent) return 'silence';
    if (this.input !== undefined) return 'head';
    return this.settings.keepAliveMs > 0 ? 'idle' : undefined;
  }

  /** When `wait` ends (ms). */
  private deadline(wait: Wait): number {
    const timeout = this.settings.requestTimeoutMs;
    switch (wait) {
      case 'linger': return this.lingerSince + LINGER_MS;
      case 'read': return this.writeSince + timeout + transferAllowance(this.writeBytes);
      case 'body': return this.reading!.since + timeout + transferAllowance(this.reading!.body.knownSize);
      case 'silence':
      case 'head': return this.headSince + timeout;
      case 'idle': return this.idleSince + this.settings.keepAliveMs;
    }
  }

  /** Ends the connection if what it waits for has not come by its deadline (408 for a late head or body). */
  checkTimeouts(now: number): void {
    if (this.destroyed) return;
    const wait = this.waiting();
    if (wait === undefined) return;
    const deadline = this.deadline(wait);
    if (now <= deadline) return;
    if (wait === 'head' || wait === 'body') {
      const allowed = (deadline - (wait === 'head' ? this.headSince : this.reading!.since)) / 1000;
      this.refuse(new WireError(408, 'HTTP_REQUEST_TIMEOUT', `the request ${wait} did not arrive within ${+allowed.toFixed(1)} s`));
    } else {
      this.destroy();
    }
  }

  /** Closes now if nothing is being served; else after the reply being written. */
  closeWhenIdle(): void {
    if (this.isIdle()) this.destroy();
  }

  /**
   * Ends the node's side and reads on, discarding, until the client closes (RFC 9112 §9.6): a
   * client still sending a refused body would otherwise get a reset instead of the reply.
   */
  private closeGracefully(): void {
    this.socket.end();
    this.lingerSince = Date.now();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private closed(): void {
    this.destroyed = true;
    for (const res of this.unwritten) res.dropped();
    this.unwritten.length = 0;
    this.settings.release(this);
  }
}
