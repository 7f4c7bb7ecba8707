// The source functions of a compile, for the build's line table (runtime/build/debug-info.ts,
// docs/host-abi.md §10.2): a trap names the innermost function whose lines hold the trapping
// line, whatever the optimizer inlined it into. The build takes this section out of the module.
import { CommonFlags, ElementKind } from 'assemblyscript';

export const FUNCTIONS_SECTION = 'tsibase.functions';

/** [file, first line, last line, name] of every compiled function. */
export function sourceFunctions(program) {
  const functions = [];
  for (const element of program.instancesByName.values()) {
    if (element.kind !== ElementKind.Function || !element.is(CommonFlags.Compiled)) continue;
    const range = element.declaration?.range;
    if (!range?.source) continue;
    const { source } = range;
    functions.push([source.normalizedPath, source.lineAt(range.start), source.lineAt(range.end), sourceName(element.internalName)]);
  }
  return functions;
}

/**
 * A compiled function's name as its source spells it: without its module path and without type
 * arguments (`~lib/array/Array<i32>#push` is `Array#push`), which the instances of a generic
 * function share with its lines.
 */
function sourceName(internalName) {
  let name = internalName;
  for (let shorter; (shorter = name.replace(/<[^<>]*>/g, '')) !== name; ) name = shorter;
  return name.replace(/^[^#]*\//, '');
}
