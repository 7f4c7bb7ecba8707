// The bytes of the messages between the chain thread and a query thread (query-messages.ts;
// docs/serving.md §10.6): one message's changes and requests, or its answers, written into one
// ArrayBuffer that is moved to the other thread, not copied. A structured clone of the same
// objects costs both threads several times more, and clones a byte array cut from a shared slab
// (allocBytes) with the whole slab. Strings are written as their UTF-16 code units, so every
// string comes back as it was (lone surrogates included).

import { copyOfRange } from '../../host-api/encoding/bytes.js';
import type { OverlayChanges, OverlayValue } from '../db/write-overlay.js';
import type { ViewChanges } from '../db/shared-reads.js';
import type { SocketOutcome, SocketReply } from '../wasm/host-state.js';
import type { QueryAnswer, QueryRequest } from './query-messages.js';

const INITIAL_BYTES = 4096;

/** A row value's tag: the row was removed from the overlay, the overlay deletes it, or holds bytes. */
const ROW_ABSENT = 0;
const ROW_DELETED = 1;
const ROW_BYTES = 2;

/** Appends to a buffer of its own that grows as needed; `buffer` is then moved to the other thread. */
class MessageWriter {
  private bytes = Buffer.allocUnsafeSlow(INITIAL_BYTES);
  private pos = 0;

  get buffer(): ArrayBuffer {
    return this.bytes.buffer as ArrayBuffer;
  }

  private room(n: number): void {
    if (this.pos + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafeSlow(size);
    this.bytes.copy(next, 0, 0, this.pos);
    this.bytes = next;
  }

  u8(v: number): void {
    this.room(1);
    this.bytes[this.pos++] = v;
  }

  u32(v: number): void {
    this.room(4);
    this.bytes.writeUInt32LE(v, this.pos);
    this.pos += 4;
  }

  /** A whole number up to 2^53 (request ids, commit counts). */
  count(v: number): void {
    this.room(8);
    this.bytes.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  data(b: Uint8Array): void {
    this.u32(b.length);
    this.room(b.length);
    this.bytes.set(b, this.pos);
    this.pos += b.length;
  }

  string(s: string): void {
    this.u32(s.length);
    this.room(s.length * 2);
    this.pos += this.bytes.write(s, this.pos, 'utf16le');
  }
}

/** Reads what MessageWriter wrote, in the same order; byte arrays are views into the message. */
class MessageReader {
  private readonly bytes: Buffer;
  private pos = 0;

  constructor(buffer: ArrayBuffer) {
    this.bytes = Buffer.from(buffer);
  }

  u8(): number {
    return this.bytes[this.pos++]!;
  }

  u32(): number {
    const v = this.bytes.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  count(): number {
    const v = this.bytes.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }

  data(): Uint8Array {
    const length = this.u32();
    const view = new Uint8Array(this.bytes.buffer, this.pos, length);
    this.pos += length;
    return view;
  }

  string(): string {
    const length = this.u32();
    const end = this.pos + length * 2;
    const s = this.bytes.toString('utf16le', this.pos, end);
    this.pos = end;
    return s;
  }
}

function writeOverlayChanges(w: MessageWriter, changes: OverlayChanges): void {
  w.u8(changes.cleared ? 1 : 0);
  w.u32(changes.rows.length);
  for (const [db, key, value] of changes.rows) {
    w.u32(db);
    w.string(key);
    if (value === undefined) w.u8(ROW_ABSENT);
    else if (value === null) w.u8(ROW_DELETED);
    else {
      w.u8(ROW_BYTES);
      w.data(value);
    }
  }
}

function readOverlayChanges(r: MessageReader): OverlayChanges {
  const cleared = r.u8() === 1;
  const rows: [number, string, OverlayValue | undefined][] = [];
  for (let n = r.u32(); n > 0; n--) {
    const db = r.u32();
    const key = r.string();
    const tag = r.u8();
    // A row is kept past the message: a copy, not a view holding the whole message.
    rows.push([db, key, tag === ROW_ABSENT ? undefined : tag === ROW_DELETED ? null : copyOfRange(r.data())]);
  }
  return { cleared, rows };
}

function writeView(w: MessageWriter, view: ViewChanges): void {
  w.count(view.commits);
  writeOverlayChanges(w, view.chain);
  writeOverlayChanges(w, view.subjective);
}

/** To a query thread: the store's changes since its last message, in order, then requests that must see them. */
export function encodeRequests(views: readonly ViewChanges[], requests: readonly QueryRequest[]): ArrayBuffer {
  const w = new MessageWriter();
  w.u32(views.length);
  for (const view of views) writeView(w, view);
  w.u32(requests.length);
  for (const { id, socket, rawData } of requests) {
    w.count(id);
    w.u32(socket);
    w.data(rawData);
  }
  return w.buffer;
}

export function decodeRequests(buffer: ArrayBuffer): { views: ViewChanges[]; requests: QueryRequest[] } {
  const r = new MessageReader(buffer);
  const views: ViewChanges[] = [];
  for (let n = r.u32(); n > 0; n--) views.push({ commits: r.count(), chain: readOverlayChanges(r), subjective: readOverlayChanges(r) });
  const requests: QueryRequest[] = [];
  for (let n = r.u32(); n > 0; n--) requests.push({ id: r.count(), socket: r.u32(), rawData: r.data() });
  return { views, requests };
}

function writeReply(w: MessageWriter, { socket, reply }: SocketReply): void {
  w.u32(socket);
  w.u32(reply.status);
  w.string(reply.contentType);
  w.u32(reply.headers.length);
  for (const { name, value } of reply.headers) {
    w.string(name);
    w.string(value);
  }
  w.data(reply.body);
}

function readReply(r: MessageReader): SocketReply {
  const socket = r.u32();
  const status = r.u32();
  const contentType = r.string();
  const headers: { name: string; value: string }[] = [];
  for (let n = r.u32(); n > 0; n--) headers.push({ name: r.string(), value: r.string() });
  return { socket, reply: { status, contentType, headers, body: r.data() } };
}

/** From a query thread: the answers to one message's requests, in their order. */
export function encodeAnswers(answers: readonly QueryAnswer[]): ArrayBuffer {
  const w = new MessageWriter();
  w.u32(answers.length);
  for (const answer of answers) {
    w.count(answer.id);
    if ('handedOff' in answer) {
      w.u8(1);
      w.string(answer.handedOff);
      continue;
    }
    w.u8(0);
    w.u8(answer.error === null ? 0 : 1);
    if (answer.error !== null) w.string(answer.error);
    w.u32(answer.sockets.replies.length);
    for (const reply of answer.sockets.replies) writeReply(w, reply);
    w.u32(answer.sockets.unanswered.length);
    for (const fd of answer.sockets.unanswered) w.u32(fd);
  }
  return w.buffer;
}

export function decodeAnswers(buffer: ArrayBuffer): QueryAnswer[] {
  const r = new MessageReader(buffer);
  const answers: QueryAnswer[] = [];
  for (let n = r.u32(); n > 0; n--) {
    const id = r.count();
    if (r.u8() === 1) {
      answers.push({ id, handedOff: r.string() });
      continue;
    }
    const error = r.u8() === 1 ? r.string() : null;
    const replies: SocketReply[] = [];
    for (let k = r.u32(); k > 0; k--) replies.push(readReply(r));
    const unanswered: number[] = [];
    for (let k = r.u32(); k > 0; k--) unanswered.push(r.u32());
    const sockets: SocketOutcome = { replies, unanswered };
    answers.push({ id, error, sockets });
  }
  return answers;
}
