import type { Socket } from 'node:net';
import type { RequestHeaders } from './request-head.js';

/** A request as the node received it, its body read whole. */
export class WireRequest {
  constructor(
    readonly method: string,
    /** The request target as sent. */
    readonly url: string,
    readonly headers: RequestHeaders,
    readonly rawHeaders: readonly string[],
    readonly body: Uint8Array,
    /** The connection it came on (a TLSSocket on https listeners). */
    readonly socket: Socket,
  ) {}
}
