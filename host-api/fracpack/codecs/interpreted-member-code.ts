// The member loops of a record as plain loops over its member arrays, for where code cannot be
// compiled at run time (a page whose Content-Security-Policy has no 'unsafe-eval'). Every read,
// write, check and error is the compiled code's (compiled-member-code.ts), in the same order.

import { withPath } from '../codec.js';
import { missingMember, type Fields, type MemberCode, type MemberLayoutInput } from './member-code.js';

/** The member loops of `layout`, run over its arrays. */
export function interpretMemberCode(layout: MemberLayoutInput): MemberCode {
  const { keys, codecs, offsets, positional } = layout;
  const n = codecs.length;

  /** A decoded record from its member values: an array for a tuple, else own data properties in member order. */
  const record = (values: unknown[]): Fields =>
    positional ? (values as unknown as Fields) : Object.fromEntries(values.map((x, i) => [keys[i]!, x]));

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
      const values: unknown[] = [];
      let i = 0;
      try {
        for (; i < n; i++) values.push(codecs[i]!.readSlot(r, at + offsets[i]!));
      } catch (err) {
        throw withPath(err, layout.step(i));
      }
      return record(values);
    },

    readPresent(r, fixedStart, fixedEnd, hooks) {
      const values: unknown[] = [];
      let p = fixedStart;
      let i = 0;
      let lastIsAbsent = false;
      try {
        for (; i < n; i++) {
          const c = codecs[i]!;
          if (p + c.fixedSize > fixedEnd) break;
          lastIsAbsent = c.isOptional && r.u32(p) === 1;
          values.push(c.readSlot(r, p));
          p = fixedStart + offsets[i + 1]!;
        }
      } catch (err) {
        throw withPath(err, layout.step(i));
      }
      if (i < n) hooks.absentTail(i, p, fixedEnd - fixedStart, fixedEnd);
      else if (p < fixedEnd) lastIsAbsent = hooks.unknownTail(r, p, fixedEnd);
      if (lastIsAbsent) hooks.emptyTrailing();
      while (values.length < n) values.push(null);
      return record(values);
    },
  };
}
