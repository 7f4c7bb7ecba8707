import type { WireRequest } from './wire/index.js';

/** The request's media type: its Content-Type without parameters ('' when absent). */
export function mediaType(req: WireRequest): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim();
}

/** Whether the request's Content-Type is application/octet-stream (parameters ignored). */
export function isOctetStream(req: WireRequest): boolean {
  return mediaType(req) === 'application/octet-stream';
}
