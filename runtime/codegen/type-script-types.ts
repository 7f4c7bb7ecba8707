// Schema types (docs/formats.md §2) as TypeScript types: the native values ServiceClient's codecs
// give and take with names as strings (docs/codegen.md §2). Records, variants and tuples
// the schema names become declarations; every other named type is written out where it is used,
// unless it contains itself, when it gets a declaration too.
import { BUILTIN_TYPES, kindOf, type AnyType, type Schema } from '../../host-api/fracpack/schema.js';
import { IdentifierSet, propertyKey } from './identifiers.js';

const DECLARED_KINDS = new Set(['Struct', 'Object', 'Variant', 'Tuple']);

type IntBody = { bits: number; isSigned: boolean };

export class TypeScriptTypes {
  /** Schema name -> the identifier of its declaration. */
  private readonly declared = new Map<string, string>();
  /** Named types being written out, to find one that contains itself. */
  private readonly inlining = new Set<string>();

  constructor(private readonly types: Schema, private readonly ids: IdentifierSet) {
    for (const [name, type] of Object.entries(types)) {
      if (typeof type !== 'string' && DECLARED_KINDS.has(kindOf(type)[0])) this.declared.set(name, ids.claim(name));
    }
  }

  private definition(name: string): AnyType {
    return Object.hasOwn(this.types, name) ? this.types[name]! : BUILTIN_TYPES[name]!;
  }

  /** A type with names followed to a definition that is not a name. */
  private resolved(type: AnyType): Exclude<AnyType, string> {
    const seen = new Set<string>();
    while (typeof type === 'string' && !seen.has(type)) {
      seen.add(type);
      type = this.definition(type);
    }
    return type as Exclude<AnyType, string>;
  }

  private int(type: AnyType): IntBody | undefined {
    const [kind, body] = kindOf(this.resolved(type));
    return kind === 'Int' ? body as IntBody : undefined;
  }

  /** Whether a type's slot is a pointer (its layout is variable), as the schema compiler decides it. */
  private isVariable(type: AnyType): boolean {
    const [kind, body] = kindOf(this.resolved(type));
    switch (kind) {
      case 'Int': case 'Float': return false;
      case 'Struct': return Object.values(body as Record<string, AnyType>).some((member) => this.isVariable(member));
      case 'Array': return this.isVariable((body as { type: AnyType }).type);
      case 'Custom': return this.isVariable((body as { type: AnyType }).type);
      default: return true;
    }
  }

  /** The TypeScript type of a schema type. */
  expression(type: AnyType): string {
    if (typeof type === 'string') return this.named(type);
    const [kind, body] = kindOf(type);
    switch (kind) {
      case 'Int': return (body as IntBody).bits <= 32 ? 'number' : 'bigint';
      case 'Float': return 'number';
      case 'Struct': case 'Object': return this.record(body as Record<string, AnyType>);
      case 'Tuple': return `[${(body as AnyType[]).map((t) => this.expression(t)).join(', ')}]`;
      case 'Variant': return this.variant(body as Record<string, AnyType>);
      case 'Array': return arrayOf(this.expression((body as { type: AnyType }).type));
      case 'List': return arrayOf(this.expression(body as AnyType));
      case 'Option': return `${this.expression(body as AnyType)} | null`;
      case 'FracPack': return this.expression(body as AnyType);
      case 'Custom': return this.custom(body as { type: AnyType; id: string });
      default: return 'unknown';
    }
  }

  private named(name: string): string {
    const id = this.declared.get(name);
    if (id !== undefined) return id;
    if (this.inlining.has(name)) {
      // It contains itself: refer to it by a declaration of its own.
      const alias = this.ids.claim(name);
      this.declared.set(name, alias);
      return alias;
    }
    this.inlining.add(name);
    try {
      const expression = this.expression(this.definition(name));
      // Found to contain itself on the way: its declaration is the shorter name for it.
      return this.declared.get(name) ?? expression;
    } finally {
      this.inlining.delete(name);
    }
  }

  /** A record's members inline (`{ a: T; b: U }`) or, with `indent`, one per line. */
  private record(members: Record<string, AnyType>, indent?: string): string {
    const entries = Object.entries(members).map(([key, t]) => `${propertyKey(key)}: ${this.expression(t)}`);
    if (entries.length === 0) return 'Record<string, never>';
    return indent === undefined ? `{ ${entries.join('; ')} }` : `{${entries.map((e) => `\n${indent}${e};`).join('')}\n}`;
  }

  /** A variant's alternatives inline (`{ a: T } | { b: U }`) or, with `indent`, one per line. */
  private variant(alternatives: Record<string, AnyType>, indent?: string): string {
    const entries = Object.entries(alternatives).map(([name, t]) => `{ ${propertyKey(name)}: ${this.expression(t)} }`);
    if (entries.length === 0) return 'never';
    return indent === undefined ? entries.join(' | ') : entries.map((e) => `\n${indent}| ${e}`).join('');
  }

  /** A Custom type: the ids that change the native value when the underlying type fits (the schema compiler's rules). */
  private custom({ type, id }: { type: AnyType; id: string }): string {
    const [kind, body] = kindOf(this.resolved(type));
    const int = this.int(type);
    switch (id) {
      case 'bool':
        if (int && int.bits === 1 && !int.isSigned) return 'boolean';
        break;
      case 'string':
        if (kind === 'List' && this.int(body as AnyType)?.bits === 8) return 'string';
        break;
      case 'hex':
        if ((kind === 'List' && !this.isVariable(body as AnyType)) || kind === 'FracPack' || !this.isVariable(type)) return 'Uint8Array';
        break;
      case 'AccountNumber':
      case 'MethodNumber': {
        const members = kind === 'Struct' ? Object.entries(body as Record<string, AnyType>) : [];
        const number = members.length === 1 && members[0]![0] === 'value' ? this.int(members[0]![1]) : int;
        if (number && number.bits === 64 && !number.isSigned) return 'string';
        break;
      }
    }
    return this.expression(type);
  }

  /** The declarations of the named records, variants and tuples and of the types that contain themselves. */
  declarations(): string[] {
    const out: string[] = [];
    const done = new Set<string>();
    // Writing one may reach a type that contains itself, which then needs a declaration as well.
    for (let pending = [...this.declared.keys()]; pending.length > 0; pending = [...this.declared.keys()].filter((n) => !done.has(n))) {
      for (const name of pending) {
        done.add(name);
        out.push(this.declaration(name, this.declared.get(name)!));
      }
    }
    return out;
  }

  private declaration(name: string, id: string): string {
    const type = this.definition(name);
    const doc = id === name ? '' : `/** The schema's type ${JSON.stringify(name)}. */\n`;
    const [kind, body] = typeof type === 'string' ? ['', undefined] : kindOf(type);
    if ((kind === 'Struct' || kind === 'Object') && Object.keys(body as object).length > 0) {
      return `${doc}export interface ${id} ${this.record(body as Record<string, AnyType>, '  ')}`;
    }
    if (kind === 'Variant' && Object.keys(body as object).length > 0) {
      return `${doc}export type ${id} =${this.variant(body as Record<string, AnyType>, '  ')};`;
    }
    // Its definition, with its own name now declared, refers to itself by that name.
    this.inlining.add(name);
    try {
      return `${doc}export type ${id} = ${this.expression(type)};`;
    } finally {
      this.inlining.delete(name);
    }
  }
}

/** An array of `element`: `T[]` for a plain name, `Array<...>` for anything longer. */
function arrayOf(element: string): string {
  return /^[A-Za-z0-9_$]+(\[\])*$/.test(element) ? `${element}[]` : `Array<${element}>`;
}
