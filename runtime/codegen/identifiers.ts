// Names from a schema as TypeScript source: identifiers for declared types and parameters, keys
// for members. A schema may name things TypeScript cannot (`psibase::Foo`, `new`, `string`).

/** Reserved words and the predefined type names, which no declaration may take. */
const RESERVED = new Set([
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum',
  'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null',
  'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'as',
  'implements', 'interface', 'let', 'package', 'private', 'protected', 'public', 'static', 'yield', 'await',
  'any', 'bigint', 'boolean', 'never', 'number', 'object', 'string', 'symbol', 'undefined', 'unknown',
  'arguments', 'eval', 'type', 'declare', 'namespace', 'module', 'keyof', 'readonly', 'infer', 'is', 'asserts',
]);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `name` as an identifier: other characters become `_`, a leading digit or a reserved word gets a `_` prefix. */
export function identifierOf(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_$]/g, '_') || '_';
  return /^[0-9]/.test(cleaned) || RESERVED.has(cleaned) ? `_${cleaned}` : cleaned;
}

/** A member name as a property key: bare when it is an identifier, else a string literal. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Hands out identifiers, each once: a name taken already gets a numbered suffix. */
export class IdentifierSet {
  private readonly taken: Set<string>;

  constructor(reserved: Iterable<string> = []) {
    this.taken = new Set(reserved);
  }

  claim(name: string): string {
    const base = identifierOf(name);
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}_${n}`;
    this.taken.add(id);
    return id;
  }
}
