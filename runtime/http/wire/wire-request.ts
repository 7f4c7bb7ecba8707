import type { Socket } from 'node:net';
import type { RequestHead, RequestHeaders } from './request-head.js';

/** A request as the node received it, its body read whole. */
export class WireRequest {
  readonly method: string;
  /** The request target as sent. */
  readonly url: string;
  readonly headers: RequestHeaders;
  readonly rawHeaders: readonly string[];

  constructor(
    head: RequestHead,
    readonly body: Uint8Array,
    /** The connection it came on (a TLSSocket on https listeners). */
    readonly socket: Socket,
  ) {
    this.method = head.method;
    this.url = head.url;
    this.headers = head.headers;
    this.rawHeaders = head.rawHeaders;
  }
}
