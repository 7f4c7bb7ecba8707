import type { RequestHead, RequestHeaders } from './request-head.js';

/**
 * What a request's handler reads of the connection it came on: a TCP or TLS socket of a
 * listener, or nothing at all for a request made in this process (no remote address, as on a
 * unix socket: this machine).
 */
export interface RequestConnection {
  readonly remoteAddress?: string;
  readonly remotePort?: number;
  /** True on a TLS connection (an https listener). */
  readonly encrypted?: boolean;
}

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
    /** The connection it came on. */
    readonly socket: RequestConnection,
  ) {
    this.method = head.method;
    this.url = head.url;
    this.headers = head.headers;
    this.rawHeaders = head.rawHeaders;
  }
}
