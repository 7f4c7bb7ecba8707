import { FracpackError } from './errors.js';
import type { Reader } from './reader.js';
import type { Writer } from './writer.js';

/** How a type sits in a parent's fixed area (docs/formats.md §1.1). */
export interface Layout {
  /** Bytes the type occupies in a parent's fixed area: its own size if fixed, else 4. */
  readonly fixedSize: number;
  readonly isVariable: boolean;
  readonly isOptional: boolean;
  /** Lists (and FracPack of a zero-size type): an empty one is written as offset 0. */
  readonly isContainer: boolean;
}

/**
 * One fracpack type. Packing writes either the full encoding or the slot + heap split a parent
 * needs; unpacking reads a full encoding at the heap cursor or a slot at a position. Values are
 * "native": numbers up to 32 bits, bigint above, Uint8Array for hex, plain objects and arrays.
 * Packing also accepts the JSON forms of docs/formats.md §3, so `pack(json)` works as well.
 */
export abstract class Codec<T = unknown> implements Layout {
  abstract readonly fixedSize: number;
  abstract readonly isVariable: boolean;
  readonly isOptional: boolean = false;
  readonly isContainer: boolean = false;

  constructor(readonly name: string) {}

  /** Writes the full encoding. */
  abstract writeFull(w: Writer, value: unknown): void;
  /** Writes the slot; for a variable type either 0/1 or a placeholder that `writeHeap` patches. */
  writeSlot(w: Writer, value: unknown): void {
    if (!this.isVariable) this.writeFull(w, value);
    else w.slot();
  }
  /** Writes the heap part of a variable type and points the slot at `slotPos` to it. */
  writeHeap(w: Writer, value: unknown, slotPos: number): void {
    w.pointHere(slotPos);
    this.writeFull(w, value);
  }

  /** Reads the full encoding at the heap cursor, advancing it. */
  abstract readFull(r: Reader): T;
  /** Reads the slot at `at` (following its offset for a variable type). */
  readSlot(r: Reader, at: number): T {
    r.follow(at, r.u32(at), this.name);
    return this.readFull(r);
  }

  abstract toJson(value: T): unknown;
  /**
   * The native value of a JSON value. A record member the JSON leaves out takes its type's
   * default (`defaultValue`), as psibase's JSON reader does (docs/formats.md §3.1); `strict`
   * refuses a missing non-optional member instead.
   */
  abstract fromJson(json: unknown, strict?: boolean): T;
  /** The value of a member the JSON leaves out: 0, false, empty, absent, all defaults. */
  abstract defaultValue(): T;
}

/** A fixed-size type: its slot is its whole encoding. */
export abstract class FixedCodec<T> extends Codec<T> {
  readonly isVariable = false;

  override writeSlot(w: Writer, value: unknown): void {
    this.writeFull(w, value);
  }

  override readFull(r: Reader): T {
    return readFixedFull(this, r);
  }

  abstract override readSlot(r: Reader, at: number): T;
}

/** The full encoding of a fixed-size type is its slot, read at the heap cursor. */
export function readFixedFull<T>(codec: Codec<T>, r: Reader): T {
  const at = r.pos;
  r.need(at, codec.fixedSize, codec.name);
  r.pos = at + codec.fixedSize;
  return codec.readSlot(r, at);
}

/**
 * Stands for a named type while that type is still being compiled, so recursive types work.
 * Its layout comes from the schema analysis; every call goes to the compiled target.
 */
export class RefCodec extends Codec {
  readonly fixedSize: number;
  readonly isVariable: boolean;
  override readonly isOptional: boolean;
  override readonly isContainer: boolean;
  target: Codec | undefined;

  constructor(name: string, layout: Layout) {
    super(name);
    this.fixedSize = layout.fixedSize;
    this.isVariable = layout.isVariable;
    this.isOptional = layout.isOptional;
    this.isContainer = layout.isContainer;
  }

  private get t(): Codec {
    if (!this.target) throw new FracpackError('FRACPACK_SCHEMA', `type ${this.name} is used before it is defined`);
    return this.target;
  }

  writeFull(w: Writer, value: unknown): void { this.t.writeFull(w, value); }
  override writeSlot(w: Writer, value: unknown): void { this.t.writeSlot(w, value); }
  override writeHeap(w: Writer, value: unknown, slotPos: number): void { this.t.writeHeap(w, value, slotPos); }
  readFull(r: Reader): unknown { return this.t.readFull(r); }
  override readSlot(r: Reader, at: number): unknown { return this.t.readSlot(r, at); }
  toJson(value: unknown): unknown { return this.t.toJson(value); }
  fromJson(json: unknown, strict = false): unknown { return this.t.fromJson(json, strict); }
  defaultValue(): unknown { return this.t.defaultValue(); }
}

export function valueError(codec: { name: string }, message: string): FracpackError {
  return new FracpackError('FRACPACK_VALUE', `${codec.name}: ${message}`);
}

export function jsonError(codec: { name: string }, message: string): FracpackError {
  return new FracpackError('FRACPACK_JSON', `${codec.name}: ${message}`);
}

/** Prefixes a nested error's message with the member or index it came from. */
export function withPath(err: unknown, step: string): unknown {
  if (err instanceof FracpackError) {
    const e = new FracpackError(err.code, `${step}: ${err.message}`);
    e.stack = err.stack;
    return e;
  }
  return err;
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Uint8Array) return `Uint8Array(${value.length})`;
  if (Array.isArray(value)) return `array(${value.length})`;
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : String(value);
}
