import type { Socket } from 'node:net';
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
   * opening for the first request), in ms; also the time a body may take, plus its size's worth
   * at MIN_BODY_BYTES_PER_SECOND. A deadline, not an idle timer: bytes dripped in do not extend it.
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
/** The slowest a body may arrive (past the request timeout): 20 MiB takes at most 5 minutes more. */
const MIN_BODY_BYTES_PER_SECOND = 64 * 1024;

/** How long a closing connection reads on for the client to take the last reply. */
const LINGER_MS = 5_000;

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

  constructor(readonly socket: Socket, private readonly settings: ConnectionSettings) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => this.closed());
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
    this.socket.removeAllListeners('data');
    this.socket.removeAllListeners('close');
    this.settings.release(this);
    const req = new WireRequest(head, NO_BODY, this.socket);
    if (!this.settings.handlers.upgrade(req, this.socket, rest)) {
      this.socket.end(closingReply(404, {}, ''));
    }
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
    return this.unwritten.length === 0 && this.input === undefined && !this.reading;
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
   * Closes a connection idle past the keep-alive time, or one that never sent a byte within the
   * request timeout; refuses (408) a request whose head or body has not arrived by its deadline.
   */
  checkTimeouts(now: number): void {
    if (this.destroyed || this.ending || this.paused) return;
    const timeout = this.settings.requestTimeoutMs;
    if (this.reading) {
      const allowed = timeout + (this.reading.body.knownSize * 1000) / MIN_BODY_BYTES_PER_SECOND;
      if (now - this.reading.since > allowed) this.refuse(new WireError(408, 'HTTP_REQUEST_TIMEOUT', `the request body did not arrive within ${Math.ceil(allowed / 1000)} s`));
    } else if (this.silent) {
      if (now - this.headSince > timeout) this.destroy();
    } else if (this.input !== undefined) {
      if (now - this.headSince > timeout) this.refuse(new WireError(408, 'HTTP_REQUEST_TIMEOUT', `the request head did not arrive within ${Math.ceil(timeout / 1000)} s`));
    } else if (this.isIdle() && this.settings.keepAliveMs > 0 && now - this.idleSince >= this.settings.keepAliveMs) {
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
    setTimeout(() => this.destroy(), LINGER_MS).unref();
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
