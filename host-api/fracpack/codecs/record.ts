import { Codec, describe, jsonError, readFixedFull, valueError, withPath } from '../codec.js';
import { FracpackError } from '../errors.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';
import type { Fields, MemberCode, PresentHooks } from './member-code.js';
import type { MemberCodeFactory } from './member-loops.js';

export interface Member {
  /** Property name (Object/Struct) or index (Tuple) in the native and JSON value. */
  readonly key: string | number;
  readonly codec: Codec;
}

/** Member positions inside a fixed area, shared by all record framings. */
class MemberLayout {
  readonly keys: (string | number)[];
  readonly codecs: Codec[];
  /** offsets[i] = start of member i in the fixed area; offsets[n] = the whole area. */
  readonly offsets: number[];
  private made: MemberCode | undefined;

  constructor(
    readonly name: string,
    readonly members: readonly Member[],
    readonly positional: boolean,
    private readonly makeCode: MemberCodeFactory,
  ) {
    this.keys = members.map((m) => m.key);
    this.codecs = members.map((m) => m.codec);
    this.offsets = [0];
    for (const m of members) this.offsets.push(this.offsets[this.offsets.length - 1]! + m.codec.fixedSize);
  }

  /** The member loops, made when the type is first packed or unpacked. */
  get code(): MemberCode {
    return this.made ??= this.makeCode(this);
  }

  fieldsOf(codec: Codec, value: unknown): Fields {
    if (this.positional ? !Array.isArray(value) : (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw valueError(codec, `expected ${this.positional ? 'an array' : 'an object'}, got ${describe(value)}`);
    }
    return value as Fields;
  }

  step(i: number): string {
    const key = this.keys[i];
    return typeof key === 'number' ? `${this.name}[${key}]` : `${this.name}.${String(key)}`;
  }

  toJson(v: Fields): unknown {
    const out: Fields = this.positional ? ([] as unknown as Fields) : {};
    for (let i = 0; i < this.keys.length; i++) {
      const k = this.keys[i]!;
      out[k] = this.codecs[i]!.toJson(v[k]);
    }
    return out;
  }

  /** Members the JSON leaves out take their defaults (refused when `strict`); unknown keys are skipped. */
  fromJson(codec: Codec, json: unknown, strict: boolean): Fields {
    if (this.positional ? !Array.isArray(json) : (json === null || typeof json !== 'object' || Array.isArray(json))) {
      throw jsonError(codec, `expected ${this.positional ? 'an array' : 'an object'}, got ${describe(json)}`);
    }
    const src = json as Fields;
    const out: Fields = this.positional ? ([] as unknown as Fields) : {};
    for (let i = 0; i < this.keys.length; i++) {
      const k = this.keys[i]!;
      const c = this.codecs[i]!;
      const x = src[k];
      try {
        if (x !== undefined) out[k] = c.fromJson(x, strict);
        else if (strict && !c.isOptional) throw new FracpackError('FRACPACK_JSON', 'missing member');
        else out[k] = c.defaultValue();
      } catch (err) {
        throw withPath(err, this.step(i));
      }
    }
    return out;
  }
}

/** What every record framing shares: its members, their layout and the JSON mapping. */
abstract class RecordCodec extends Codec<Fields> {
  protected readonly layout: MemberLayout;

  constructor(name: string, members: readonly Member[], positional: boolean, memberCode: MemberCodeFactory) {
    super(name);
    this.layout = new MemberLayout(name, members, positional, memberCode);
  }

  get members(): readonly Member[] {
    return this.layout.members;
  }

  toJson(value: Fields): unknown {
    return this.layout.toJson(value);
  }

  fromJson(json: unknown, strict = false): Fields {
    return this.layout.fromJson(this, json, strict);
  }

  defaultValue(): Fields {
    const out: Fields = this.layout.positional ? ([] as unknown as Fields) : {};
    for (let i = 0; i < this.layout.keys.length; i++) out[this.layout.keys[i]!] = this.layout.codecs[i]!.defaultValue();
    return out;
  }
}

/**
 * Object (extensible struct) and Tuple: u16 fixed-area length, the slots of the present members,
 * heap. Trailing absent Options are dropped; unknown trailing slots (newer versions of the type)
 * are skipped in compat mode and rejected in strict mode.
 */
export class ExtensibleCodec extends RecordCodec {
  readonly fixedSize = 4;
  readonly isVariable = true;

  /** What reading does when the fixed area ends early or holds more than the known members. */
  private readonly hooks: PresentHooks;

  constructor(name: string, members: readonly Member[], positional: boolean, memberCode: MemberCodeFactory) {
    super(name, members, positional, memberCode);
    this.hooks = {
      absentTail: this.checkAbsentTail.bind(this),
      unknownTail: this.skipUnknown.bind(this),
      emptyTrailing: () => {
        throw new FracpackError('FRACPACK_EMPTY_TRAILING', `${this.name}: last slot of the fixed area is an absent optional (it must be dropped)`);
      },
    };
  }

  writeFull(w: Writer, value: unknown): void {
    const v = this.layout.fieldsOf(this, value);
    const { codecs, keys, offsets } = this.layout;
    let count = codecs.length;
    while (count > 0 && codecs[count - 1]!.isOptional && v[keys[count - 1]!] == null) count--;
    const fixedLength = offsets[count]!;
    if (fixedLength > 0xffff) throw valueError(this, `fixed area of ${fixedLength} bytes exceeds 65535`);
    w.u16(fixedLength);
    this.layout.code.write(w, v, count);
  }

  readFull(r: Reader): Fields {
    const at = r.pos;
    r.need(at, 2, this.name);
    const fixedLength = r.u16(at);
    const fixedStart = at + 2;
    const fixedEnd = fixedStart + fixedLength;
    r.need(fixedStart, fixedLength, this.name);
    r.pos = fixedEnd;
    return this.layout.code.readPresent(r, fixedStart, fixedEnd, this.hooks);
  }

  /**
   * The fixed area (`fixedLength` bytes up to `fixedEnd`) ended before member `first`, after a
   * member ending at `p`: only trailing optionals may be missing, and it must end exactly.
   */
  private checkAbsentTail(first: number, p: number, fixedLength: number, fixedEnd: number): void {
    const { keys, codecs } = this.layout;
    if (p !== fixedEnd) {
      throw new FracpackError('FRACPACK_BAD_LENGTH', `${this.name}: fixed area of ${fixedLength} bytes ends inside member ${String(keys[first])}`);
    }
    for (let i = first; i < codecs.length; i++) {
      if (!codecs[i]!.isOptional) {
        throw new FracpackError('FRACPACK_TRUNCATED', `${this.name}: non-optional member ${String(keys[i])} is missing (fixed area is ${fixedLength} bytes)`);
      }
    }
  }

  /** Rule 5: unknown trailing slots hold 0, 1 or an in-order pointer to data we cannot size. */
  private skipUnknown(r: Reader, from: number, fixedEnd: number): boolean {
    if (!r.compat) {
      throw new FracpackError('FRACPACK_UNKNOWN_FIELD', `${this.name}: ${fixedEnd - from} bytes of unknown fields (not allowed in strict mode)`);
    }
    if ((fixedEnd - from) % 4 !== 0) {
      throw new FracpackError('FRACPACK_BAD_LENGTH', `${this.name}: unknown fields take ${fixedEnd - from} bytes, not a multiple of 4`);
    }
    let last = 0;
    for (let p = from; p < fixedEnd; p += 4) {
      last = r.u32(p);
      if (last > 1) {
        r.follow(p, last, `${this.name} unknown field`);
        r.known = false;
      }
    }
    return last === 1;
  }

}

/** Non-extensible Struct with at least one variable member: slots then heap, no header. */
export class VariableStructCodec extends RecordCodec {
  readonly fixedSize = 4;
  readonly isVariable = true;

  constructor(name: string, members: readonly Member[], memberCode: MemberCodeFactory) {
    super(name, members, false, memberCode);
  }

  writeFull(w: Writer, value: unknown): void {
    const v = this.layout.fieldsOf(this, value);
    w.reserve(this.layout.offsets[this.layout.codecs.length]!);
    this.layout.code.write(w, v, this.layout.codecs.length);
  }

  readFull(r: Reader): Fields {
    const at = r.pos;
    const size = this.layout.offsets[this.layout.codecs.length]!;
    r.need(at, size, this.name);
    r.pos = at + size;
    return this.layout.code.readAll(r, at);
  }

}

/** Struct whose members are all fixed: the members concatenated, inline in a parent. */
export class FixedStructCodec extends RecordCodec {
  readonly fixedSize: number;
  readonly isVariable = false;

  constructor(name: string, members: readonly Member[], memberCode: MemberCodeFactory) {
    super(name, members, false, memberCode);
    this.fixedSize = this.layout.offsets[members.length]!;
  }

  override writeSlot(w: Writer, value: unknown): void {
    this.writeFull(w, value);
  }

  readFull(r: Reader): Fields {
    return readFixedFull(this, r);
  }

  writeFull(w: Writer, value: unknown): void {
    const v = this.layout.fieldsOf(this, value);
    this.layout.code.write(w, v, this.layout.codecs.length);
  }

  override readSlot(r: Reader, at: number): Fields {
    return this.layout.code.readAll(r, at);
  }

}
