// The member loops of a record as plain loops over its member arrays, for where code cannot be
// compiled at run time (a page whose Content-Security-Policy has no 'unsafe-eval'). Every read,
// write, check and error is the compiled code's (compiled-member-code.ts), in the same order.

import { withPath } from '../codec.js';
import { missingMember, type Fields, type MemberCode, type MemberLayoutInput } from './member-code.js';

/** The member loops of `layout`, run over its arrays. */
export function interpretMemberCode(layout: MemberLayoutInput): MemberCode {
  const { keys, codecs, offsets, positional } = layout;
  const n = codecs.length;

  /** An empty decoded record: an array for a tuple, else a plain object. */
  const empty = (): Fields => (positional ? ([] as unknown as Fields) : {});
  /**
   * Sets member i as an own data property, as the compiled object literal does: a plain assignment
   * of `__proto__` would set the prototype instead.
   */
  const put = (out: Fields, i: number, x: unknown): void => {
    const k = keys[i]!;
    if (k === '__proto__') Object.defineProperty(out, k, { value: x, writable: true, enumerable: true, configurable: true });
    else out[k] = x;
  };

  return {
    write(w, v, count) {
      const start = w.pos;
      let i = 0;
      try {
        for (; i < count; i++) {
          const c = codecs[i]!;
          const x = v[keys[i]!];
          c.writeSlot(w, x === undefined && !c.isOptional ? missingMember() : x);
        }
        for (i = 0; i < count; i++) {
          const c = codecs[i]!;
          if (c.isVariable) c.writeHeap(w, v[keys[i]!], start + offsets[i]!);
        }
      } catch (err) {
        throw withPath(err, layout.step(i));
      }
    },

    readAll(r, at) {
      const out = empty();
      let i = 0;
      try {
        for (; i < n; i++) put(out, i, codecs[i]!.readSlot(r, at + offsets[i]!));
      } catch (err) {
        throw withPath(err, layout.step(i));
      }
      return out;
    },

    readPresent(r, fixedStart, fixedEnd, hooks) {
      const out = empty();
      let p = fixedStart;
      let i = 0;
      let lastIsAbsent = false;
      try {
        for (; i < n; i++) {
          const c = codecs[i]!;
          if (p + c.fixedSize > fixedEnd) break;
          lastIsAbsent = c.isOptional && r.u32(p) === 1;
          put(out, i, c.readSlot(r, p));
          p = fixedStart + offsets[i + 1]!;
        }
      } catch (err) {
        throw withPath(err, layout.step(i));
      }
      if (i < n) hooks.absentTail(i, p, fixedEnd - fixedStart, fixedEnd);
      else if (p < fixedEnd) lastIsAbsent = hooks.unknownTail(r, p, fixedEnd);
      if (lastIsAbsent) hooks.emptyTrailing();
      for (let j = i; j < n; j++) put(out, j, null);
      return out;
    },
  };
}
