import { TsibaseError } from '../../../host-api/errors.js';
import { NO_BODY } from './request-body.js';
import { fieldLines, replyBytes, replyHead, statusHasBody, type DefaultFields, type ReplyHeaders } from './response-head.js';

/** Where a response's bytes go: its connection, which writes replies in request order. */
export interface ReplySink {
  readonly destroyed: boolean;
  /** The Connection/Keep-Alive a reply announces: 'close', or the idle timeout in ms (0: none). */
  keepAlive(closeAsked: boolean, persistentRequest: boolean): 'close' | number;
  answered(response: WireResponse): void;
}

/** The reply to one request: answered once, written when the replies before it are. */
export class WireResponse {
  /** The status answered; 0 until then. */
  statusCode = 0;
  /** The length of the body answered. */
  bodyLength = 0;
  /** The reply's bytes, held until its connection writes them. */
  bytes: Buffer | undefined;
  /** The connection closes after this reply. */
  closes = false;
  /** Fields every reply of a kind carries unless it overrides them (written with the head). */
  defaultFields: DefaultFields | undefined;
  private finishListeners: (() => void)[] | undefined;
  private closeListeners: (() => void)[] | undefined;

  constructor(
    private readonly sink: ReplySink,
    /** A HEAD request: the reply's head says what a GET would get, with no body. */
    private readonly headOnly: boolean,
    /** The request lets the connection persist (HTTP/1.1 without `Connection: close`, …). */
    private readonly persistent: boolean,
  ) {}

  get answered(): boolean {
    return this.statusCode !== 0;
  }

  /** The client has gone: the reply can no longer be delivered. */
  get destroyed(): boolean {
    return this.sink.destroyed;
  }

  /**
   * Answers. Throws, answering nothing, for a header field that would break the head (Node's
   * ERR_INVALID_CHAR and kin). Content-Length, Date and Connection are the connection's own;
   * a `Connection: close` field closes the connection after this reply.
   */
  end(status: number, headers: ReplyHeaders, body: Uint8Array): void {
    if (this.answered) throw new TsibaseError('HTTP_ALREADY_ANSWERED', `the request was already answered (${this.statusCode})`);
    const { lines, close } = fieldLines(headers, this.defaultFields);
    const keepAlive = this.sink.keepAlive(close, this.persistent);
    const head = replyHead(status, lines, body.length, keepAlive);
    this.bytes = replyBytes(head, this.headOnly || !statusHasBody(status) ? NO_BODY : body);
    this.statusCode = status;
    this.bodyLength = body.length;
    this.closes = keepAlive === 'close';
    this.sink.answered(this);
  }

  /** Calls `listener` once the reply is handed to the operating system. */
  onFinish(listener: () => void): void {
    (this.finishListeners ??= []).push(listener);
  }

  /** Calls `listener` if the connection closes before the reply is written. */
  onClose(listener: () => void): void {
    (this.closeListeners ??= []).push(listener);
  }

  get watchesFinish(): boolean {
    return this.finishListeners !== undefined;
  }

  finished(): void {
    for (const listener of this.finishListeners ?? []) listener();
  }

  dropped(): void {
    for (const listener of this.closeListeners ?? []) listener();
  }
}
