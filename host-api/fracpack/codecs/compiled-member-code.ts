// The member loops of a record, compiled once per record type into straight-line functions.
// A loop over `codecs[i]` and `value[keys[i]]` makes every call and property access see every
// member type and name (megamorphic sites V8 cannot inline); unrolled, each site sees one codec
// and one name, and a decoded record is one object literal, so all values of a type share a
// shape. The compiled code does exactly what the loops of interpreted-member-code.ts do, member
// by member, in the same order; member-loops.ts chooses between them.

import { withPath } from '../codec.js';
import { missingMember, type MemberCode, type MemberLayoutInput } from './member-code.js';

type Factory = (
  layout: MemberLayoutInput,
  withPath: (err: unknown, step: string) => unknown,
  missing: () => never,
) => MemberCode;

/** A property key as JS source: a string literal, or an index for a tuple. */
function keySource(key: string | number): string {
  if (typeof key === 'number') {
    if (!Number.isSafeInteger(key) || key < 0) throw new RangeError(`bad tuple index ${key}`);
    return String(key);
  }
  return JSON.stringify(key);
}

/** The source of the factory that builds a layout's MemberCode. */
function factorySource(layout: MemberLayoutInput): string {
  const { keys, codecs, offsets, positional } = layout;
  const n = codecs.length;
  const lines: string[] = [];
  const members = codecs.map((_, i) => i);
  const key = (i: number) => `v[${keySource(keys[i]!)}]`;
  const result = positional
    ? `[${members.map((i) => `m${i}`).join(', ')}]`
    : `{ ${members.map((i) => `[${keySource(keys[i]!)}]: m${i}`).join(', ')} }`;
  lines.push(...members.map((i) => `const c${i} = layout.codecs[${i}];`));

  lines.push('function write(w, v, count) {', '  const start = w.pos;', '  let i = 0, x;', '  try {', '    slots: {');
  for (const i of members) {
    const value = codecs[i]!.isOptional ? key(i) : `(x = ${key(i)}, x === undefined ? missing() : x)`;
    lines.push(`      if (count <= ${i}) break slots; i = ${i}; c${i}.writeSlot(w, ${value});`);
  }
  lines.push('    }', '    heap: {');
  for (const i of members.filter((m) => codecs[m]!.isVariable)) {
    lines.push(`      if (count <= ${i}) break heap; i = ${i}; c${i}.writeHeap(w, ${key(i)}, start + ${offsets[i]});`);
  }
  lines.push('    }', '  } catch (err) {', '    throw withPath(err, layout.step(i));', '  }', '}');

  lines.push('function readAll(r, at) {', '  let i = 0;', '  try {');
  for (const i of members) lines.push(`    i = ${i}; const m${i} = c${i}.readSlot(r, at + ${offsets[i]});`);
  lines.push(`    return ${result};`, '  } catch (err) {', '    throw withPath(err, layout.step(i));', '  }', '}');

  lines.push('function readPresent(r, fixedStart, fixedEnd, hooks) {', '  let p = fixedStart, i = 0, lastIsAbsent = false;');
  if (n > 0) lines.push(`  let ${members.map((i) => `m${i} = null`).join(', ')};`);
  lines.push('  try {', '    present: {');
  for (const i of members) {
    const c = codecs[i]!;
    lines.push(`      i = ${i}; if (p + ${c.fixedSize} > fixedEnd) break present;`);
    lines.push(`      lastIsAbsent = ${c.isOptional ? 'r.u32(p) === 1' : 'false'};`);
    lines.push(`      m${i} = c${i}.readSlot(r, p); p = fixedStart + ${offsets[i + 1]};`);
  }
  lines.push(`      i = ${n};`, '    }', '  } catch (err) {', '    throw withPath(err, layout.step(i));', '  }');
  lines.push(`  if (i < ${n}) hooks.absentTail(i, p, fixedEnd - fixedStart, fixedEnd);`, '  else if (p < fixedEnd) lastIsAbsent = hooks.unknownTail(r, p, fixedEnd);');
  lines.push('  if (lastIsAbsent) hooks.emptyTrailing();', `  return ${result};`, '}');

  lines.push('return { write, readAll, readPresent };');
  return lines.join('\n');
}

/** Compiles the member loops of `layout`. */
export function compileMemberCode(layout: MemberLayoutInput): MemberCode {
  // The source holds only numbers and JSON string literals of the member names, so no member
  // name can become code.
  const factory = new Function('layout', 'withPath', 'missing', factorySource(layout)) as Factory;
  return factory(layout, withPath, missingMember);
}
