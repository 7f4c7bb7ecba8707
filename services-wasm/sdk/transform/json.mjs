// JSON decoding for `/pack_action/<action>` (docs/serving.md §4.4), generated from the same type
// annotations as the schema: `__fpFromJson(json, what)` on every record a service's actions use,
// and `__packAction(action, json)` on every service. The generated code calls sdk/json/decode.ts.

import { appendMembers, nonNullText, selfTypeText, simpleTypeName, typeText } from './ast.mjs';
import { BUILTIN_NAMES } from './schema.mjs';

// Built-in schema type -> its decoder (integers and floats take the AssemblyScript type).
const DECODERS = {
  bool: 'asBool', string: 'asString', bytes: 'asBytes', Checksum256: 'asChecksum256', AccountNumber: 'asAccountNumber',
  MethodNumber: 'asMethodNumber', TimePointSec: 'asTimePointSec', TimePointUSec: 'asTimePointUSec',
};

function builtinDecoder(schemaName, asName) {
  if (/^[ui]\d+$/.test(schemaName)) return `__json.asInteger<${asName}>`;
  if (/^f\d+$/.test(schemaName)) return `__json.asFloat<${asName}>`;
  return `__json.${DECODERS[schemaName]}`;
}

export class JsonDecoding {
  /** `records`: name -> Record; `aliases`: name -> TypeNode (the schema has validated every type). */
  constructor(records, aliases) {
    this.records = records;
    this.aliases = aliases;
  }

  /**
   * An expression decoding JSON `json` (labelled `what`) into a value of `typeNode`, or of its
   * non-null form when `allowNull` is off.
   */
  decode(typeNode, json, what, depth, allowNull = true) {
    if (allowNull && typeNode.isNullable) {
      return `__json.asNullable<${nonNullText(typeNode)}>(${json}, ${what}, ${this.decoder(typeNode, depth, false)})`;
    }
    const args = typeNode.typeArguments ?? [];
    const name = simpleTypeName(typeNode);
    if (name === 'Array') return `__json.asList<${typeText(args[0])}>(${json}, ${what}, ${this.decoder(args[0], depth)})`;
    if (name === 'Option') return `__json.asOption<${typeText(args[0])}>(${json}, ${what}, ${this.decoder(args[0], depth)})`;
    if (name === 'Packed') return `__fp.Packed.of<${typeText(args[0])}>(${this.decode(args[0], json, what, depth)})`;
    if (Object.hasOwn(BUILTIN_NAMES, name)) return `${builtinDecoder(BUILTIN_NAMES[name], name)}(${json}, ${what})`;
    if (this.records.has(name)) return `__json.asRecord<${nonNullText(typeNode)}>(${json}, ${what})`;
    return this.decode(this.aliases.get(name), json, what, depth);
  }

  /** A function expression `(json, what) => value` for `typeNode` (non-null when `allowNull` is off). */
  decoder(typeNode, depth, allowNull = true) {
    const j = `j${depth}`;
    const w = `w${depth}`;
    const type = allowNull ? typeText(typeNode) : nonNullText(typeNode);
    return `(${j}: __json.JsonValue | null, ${w}: string): ${type} => ${this.decode(typeNode, j, w, depth + 1, allowNull)}`;
  }

  /** Adds `__fpFromJson(json, what)` to a record class. */
  generateRecord(parser, record) {
    const self = selfTypeText(record.classDecl);
    const member = (m) => this.decode(m.type, `o.get(${JSON.stringify(m.name)})`, `what + ${JSON.stringify(`.${m.name}`)}`, 0);
    const body = record.kind === 'VARIANT'
      ? [
        `const name = __json.alternativeName(json, what, ${JSON.stringify(record.members[0]?.name ?? '')});`,
        ...record.members.map((m, i) => `if (name == ${JSON.stringify(m.name)}) { v.tag = ${i}; v.${m.name} = ${member(m)}; } else `),
        '__json.noAlternative(what, name);',
      ]
      : record.members.map((m) => `v.${m.name} = ${member(m)};`);
    appendMembers(parser, record.source, record.classDecl, [
      `__fpFromJson(json: __json.JsonValue | null, what: string): ${self} {`,
      'const o = __json.asObject(json, what);',
      `const v = changetype<${self}>(__new(offsetof<${self}>(), idof<${self}>()));`,
      ...body,
      'return v;',
      '}',
    ].join('\n'));
  }

  /**
   * Adds `__packAction(action, json)` to a service class: the packed arguments, or null (no such
   * action). Missing arguments take their defaults; a key naming no argument is a problem, as in
   * psibase's pack_action. While JSON problems are collected and one was seen, the arguments are
   * not packed and the bytes are empty.
   */
  generateService(parser, service) {
    appendMembers(parser, service.source, service.classDecl, [
      '__packAction(action: string, json: __json.JsonValue): Uint8Array | null {',
      ...service.actions.map((a) => [
        `if (action == ${JSON.stringify(a.name)}) {`,
        `__json.checkArgumentNames(action, json, ${JSON.stringify(a.params.map((p) => p.name))});`,
        `const args = __json.asRecord<${a.argsClass}>(json, action);`,
        `return __json.jsonProblemSeen() ? new Uint8Array(0) : __fp.pack<${a.argsClass}>(args);`,
        '}',
      ].join('\n')),
      'return null;',
      '}',
    ].join('\n'));
  }
}
