// Several query roots served as one `Query` (a generated @query root next to hand-written ones,
// such as a service's event queries): a field goes to the first root that has it, and the
// schemas' `type Query` fields are joined while types defined in both (PageInfo) appear once.

import { Execution, FieldRequest, GqlObject } from "./execute";

export class MergedQuery extends GqlObject {
  constructor(private roots: Array<GqlObject>) {
    super();
  }

  typeName(): string {
    return "Query";
  }

  resolve(field: FieldRequest, exec: Execution): bool {
    for (let i = 0; i < this.roots.length; i++) if (this.roots[i].resolve(field, exec)) return true;
    return false;
  }

  nonNull(field: string): bool {
    for (let i = 0; i < this.roots.length; i++) if (this.roots[i].nonNull(field)) return true;
    return false;
  }
}

/** The `type Name ... { ... }` definitions of an SDL text without descriptions, in order. */
function definitions(sdl: string): Array<string> {
  const found = new Array<string>();
  let at = sdl.indexOf("type ");
  while (at >= 0) {
    const open = sdl.indexOf("{", at);
    const close = sdl.indexOf("}", open);
    if (open < 0 || close < 0) break;
    found.push(sdl.substring(at, close + 1));
    at = sdl.indexOf("type ", close);
  }
  return found;
}

function nameOf(definition: string): string {
  return definition.substring(5, definition.indexOf("{")).trim();
}

function fieldsOf(definition: string): string {
  return definition.substring(definition.indexOf("{") + 1, definition.length - 1).trim();
}

/** One schema of the query roots of `schemas` (SDL texts, each with its own `type Query`). */
export function mergeSdl(schemas: Array<string>): string {
  const queryFields = new Array<string>();
  const others = new Array<string>();
  const seen = new Set<string>();
  for (let i = 0; i < schemas.length; i++) {
    const defs = definitions(schemas[i]);
    for (let j = 0; j < defs.length; j++) {
      const name = nameOf(defs[j]);
      if (name == "Query") queryFields.push("  " + fieldsOf(defs[j]));
      else if (!seen.has(name)) others.push(defs[j]);
      seen.add(name);
    }
  }
  return "type Query {\n" + queryFields.join("\n") + "\n}\n\n" + others.join("\n\n") + "\n";
}
