import type { IncomingMessage } from 'node:http';
import { TsibaseError } from '../../host-api/errors.js';

/** http.md §1: requests are limited to 20 MiB. */
export const MAX_REQUEST_BYTES = 20 * 1024 * 1024;

export class RequestTooLarge extends TsibaseError {
  constructor() {
    super('HTTP_REQUEST_TOO_LARGE', `request body exceeds ${MAX_REQUEST_BYTES} bytes`);
  }
}

const EMPTY = new Uint8Array(0);

/** Whether the request carries no body at all (no Content-Length, not chunked). */
export function hasNoBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined;
}

export async function readBody(req: IncomingMessage, limit = MAX_REQUEST_BYTES): Promise<Uint8Array> {
  if (hasNoBody(req)) return EMPTY;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new RequestTooLarge();
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
