import { Codec, describe, jsonError, valueError, withPath } from '../codec.js';
import { FracpackError } from '../errors.js';
import type { Reader } from '../reader.js';
import type { Writer } from '../writer.js';

export interface Alternative {
  readonly name: string;
  readonly codec: Codec;
}

export type VariantValue = Record<string, unknown>;

/**
 * Variant: u8 index, u32 body length, body. The native value is a one-key object naming the
 * alternative. In JSON, `@`-named alternatives are untagged: a bare value, matched by trying
 * them in order.
 */
export class VariantCodec extends Codec<VariantValue> {
  readonly fixedSize = 4;
  readonly isVariable = true;
  private readonly byName: Map<string, number>;
  private readonly untagged: number[];

  constructor(name: string, readonly alternatives: readonly Alternative[]) {
    super(name);
    if (alternatives.length > 128) throw new FracpackError('FRACPACK_SCHEMA', `${name}: a Variant has at most 128 alternatives`);
    this.byName = new Map(alternatives.map((a, i) => [a.name, i]));
    this.untagged = alternatives.flatMap((a, i) => (a.name.startsWith('@') ? [i] : []));
  }

  /** The alternative a one-key object names, or undefined when the value is not such an object. */
  private tagged(value: unknown): number | undefined {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) return undefined;
    const keys = Object.keys(value);
    return keys.length === 1 ? this.byName.get(keys[0]!) : undefined;
  }

  private noMatch(value: unknown, fail: typeof valueError): FracpackError {
    return fail(this, `expected a one-key object naming one of ${[...this.byName.keys()].join(', ')}, got ${describe(value)}`);
  }

  writeFull(w: Writer, value: unknown): void {
    const index = this.tagged(value);
    if (index !== undefined) {
      this.writeAlternative(w, index, (value as VariantValue)[this.alternatives[index]!.name]);
      return;
    }
    // An untagged value: the first untagged alternative that packs it wins.
    const start = w.pos;
    for (const i of this.untagged) {
      try {
        this.writeAlternative(w, i, value);
        return;
      } catch {
        w.pos = start;
      }
    }
    throw this.noMatch(value, valueError);
  }

  private writeAlternative(w: Writer, index: number, inner: unknown): void {
    const alt = this.alternatives[index]!;
    w.u8(index);
    const lengthPos = w.slot();
    try {
      alt.codec.writeFull(w, inner);
    } catch (err) {
      throw withPath(err, `${this.name}.${alt.name}`);
    }
    w.view.setUint32(lengthPos, w.pos - lengthPos - 4, true);
  }

  readFull(r: Reader): VariantValue {
    const at = r.pos;
    r.need(at, 5, this.name);
    const index = r.buf[at]!;
    const alt = this.alternatives[index];
    if (!alt) {
      throw new FracpackError('FRACPACK_BAD_VARIANT', `${this.name}: unknown variant tag ${index} at byte ${at} (${this.alternatives.length} alternatives)`);
    }
    const length = r.u32(at + 1);
    const inner = r.body(at + 5, length, `${this.name}.${alt.name}`, () => alt.codec.readFull(r));
    return { [alt.name]: inner };
  }

  toJson(value: VariantValue): unknown {
    const name = Object.keys(value)[0]!;
    const alt = this.alternatives[this.byName.get(name)!]!;
    const json = alt.codec.toJson(value[name]);
    return name.startsWith('@') ? json : { [name]: json };
  }

  fromJson(json: unknown, strict = false): VariantValue {
    const index = this.tagged(json);
    if (index !== undefined) {
      const alt = this.alternatives[index]!;
      return { [alt.name]: alt.codec.fromJson((json as VariantValue)[alt.name], strict) };
    }
    for (const i of this.untagged) {
      const alt = this.alternatives[i]!;
      try {
        return { [alt.name]: alt.codec.fromJson(json, strict) };
      } catch {
        // Not this alternative; the next untagged one may fit.
      }
    }
    throw this.noMatch(json, jsonError);
  }

  /** The first alternative, holding its default (psibase's default variant). */
  defaultValue(): VariantValue {
    const first = this.alternatives[0];
    if (!first) throw valueError(this, 'a Variant without alternatives has no default');
    return { [first.name]: first.codec.defaultValue() };
  }
}
