import type { IncomingMessage } from 'node:http';
import { TsibaseError } from '../../host-api/errors.js';

/** http.md §1: requests are limited to 20 MiB. */
const MAX_REQUEST_BYTES = 20 * 1024 * 1024;

export class RequestTooLarge extends TsibaseError {
  constructor() {
    super('HTTP_REQUEST_TOO_LARGE', `request body exceeds ${MAX_REQUEST_BYTES} bytes`);
  }
}

/** The body of a request that has none. */
export const NO_BODY = new Uint8Array(0);

/** The request's media type: its Content-Type without parameters ('' when absent). */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim();
}

/** Whether the request's Content-Type is application/octet-stream (parameters ignored). */
export function isOctetStream(req: IncomingMessage): boolean {
  return mediaType(req) === 'application/octet-stream';
}

/** Whether the request carries no body at all (no Content-Length, not chunked). */
export function hasNoBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;
}

/** The whole body; rejects with RequestTooLarge past `limit` (and stops reading). */
export function readBody(req: IncomingMessage, limit = MAX_REQUEST_BYTES): Promise<Uint8Array> {
  // Events rather than the stream's async iterator: this runs once per transaction pushed.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        reject(new RequestTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
