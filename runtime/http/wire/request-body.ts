import type { RequestHead } from './request-head.js';
import { WireError, badRequest } from './wire-error.js';

// The body framing of a request (RFC 9112 §6-7): Content-Length or chunked. Bodies are read
// whole before the request is handed on; past the node's limit the request is refused.

/** Reads a body from the bytes that follow its head, as they arrive. */
export interface BodyReader {
  /** Takes what it needs from `data` at `offset`; returns the offset after the bytes it took. */
  take(data: Buffer, offset: number): number;
  readonly done: boolean;
  /** The body's size as known so far: its Content-Length, or the chunk data received. */
  readonly knownSize: number;
  /** The whole body, once done. */
  body(): Uint8Array;
}

export const NO_BODY = new Uint8Array(0);

function tooLarge(limit: number): WireError {
  return new WireError(413, 'HTTP_REQUEST_TOO_LARGE', `request body exceeds ${limit} bytes`);
}

/** Collected chunks of a body. */
class BodyBytes {
  private readonly chunks: Buffer[] = [];
  size = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.limit) throw tooLarge(this.limit);
    this.chunks.push(chunk);
  }

  join(): Uint8Array {
    if (this.chunks.length === 0) return NO_BODY;
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
  }
}

/** A body of a length known up front. */
class LengthBody implements BodyReader {
  private readonly bytes: BodyBytes;
  private remaining: number;

  constructor(readonly knownSize: number, limit: number) {
    this.bytes = new BodyBytes(limit);
    this.remaining = knownSize;
  }

  get done(): boolean {
    return this.remaining === 0;
  }

  take(data: Buffer, offset: number): number {
    const end = Math.min(data.length, offset + this.remaining);
    this.bytes.add(data.subarray(offset, end));
    this.remaining -= end - offset;
    return end;
  }

  body(): Uint8Array {
    return this.bytes.join();
  }
}

/** Longest chunk-size line (with extensions) or trailer field taken. */
const MAX_LINE = 8192;
const LF = 0x0a;

/** A chunked body: size lines in hex, each chunk followed by CRLF, a 0 chunk, then trailers. */
class ChunkedBody implements BodyReader {
  private readonly bytes: BodyBytes;
  private state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  private remaining = 0;
  /** The part of a line received so far (a line split across reads). */
  private line = '';

  constructor(limit: number) {
    this.bytes = new BodyBytes(limit);
  }

  get done(): boolean {
    return this.state === 'done';
  }

  get knownSize(): number {
    return this.bytes.size;
  }

  take(data: Buffer, offset: number): number {
    let at = offset;
    while (at < data.length && this.state !== 'done') {
      if (this.state === 'data') {
        const end = Math.min(data.length, at + this.remaining);
        this.bytes.add(data.subarray(at, end));
        this.remaining -= end - at;
        at = end;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      const lf = data.indexOf(LF, at);
      const stop = lf < 0 ? data.length : lf + 1;
      this.line += data.toString('latin1', at, stop);
      at = stop;
      if (this.line.length > MAX_LINE) throw badRequest('chunk line too long');
      if (lf < 0) break;
      const line = this.line;
      this.line = '';
      if (!line.endsWith('\r\n')) throw badRequest('chunk line not ended by CRLF');
      this.endLine(line.slice(0, -2));
    }
    return at;
  }

  private endLine(line: string): void {
    if (this.state === 'data-end') {
      if (line !== '') throw badRequest('chunk data longer than its size');
      this.state = 'size';
    } else if (this.state === 'size') {
      const size = /^([0-9a-fA-F]{1,8})[ \t]*(;.*)?$/.exec(line);
      if (!size) throw badRequest('invalid chunk size');
      this.remaining = parseInt(size[1]!, 16);
      this.state = this.remaining === 0 ? 'trailer' : 'data';
    } else if (line === '') {
      this.state = 'done';
    }
    // Other trailer fields are read past: nothing in the node uses them.
  }

  body(): Uint8Array {
    return this.bytes.join();
  }
}

/**
 * The reader of a request's body, or undefined when it has none. A Transfer-Encoding must end in
 * chunked and come alone (with Content-Length it is ambiguous); other codings are not decoded.
 */
export function bodyReaderFor(head: RequestHead, limit: number): BodyReader | undefined {
  const encoding = head.headers['transfer-encoding'];
  const length = head.headers['content-length'];
  if (encoding !== undefined) {
    if (length !== undefined) throw badRequest('both Transfer-Encoding and Content-Length');
    const codings = encoding.split(',').map((c) => c.trim().toLowerCase());
    if (codings[codings.length - 1] !== 'chunked') throw badRequest('Transfer-Encoding does not end in chunked');
    if (codings.length > 1) throw new WireError(501, 'HTTP_NOT_IMPLEMENTED', `Transfer-Encoding ${encoding} is not supported`);
    return new ChunkedBody(limit);
  }
  if (length === undefined) return undefined;
  if (!/^\d+$/.test(length)) throw badRequest('invalid Content-Length');
  const size = Number(length);
  if (size > limit) throw tooLarge(limit);
  return size === 0 ? undefined : new LengthBody(size, limit);
}
