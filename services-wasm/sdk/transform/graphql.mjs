// GraphQL from classes (docs/serving.md §4.7). A `@query` class is a service's query root, the type `Query`:
//   - each public, argument-free member (readonly field, getter or method) typed as a table index
//     `Index<Row, K>` (or a `Table<Row, PK>`: its primary index) is a Connection field over it;
//   - every other public member is a field; a method's parameters are the field's arguments.
// Every record reachable from a root is an object type named like its class: its fields, then its
// `@query` methods and getters (the const methods of rule 3) as fields with arguments. Values map
// as rule 4 says (sdk/graphql/values.ts). Generated, on the root and on those records:
// `__gqlTypeName()`, `__gqlResolve(field, exec)`, `__gqlNonNull(field)` (sdk/graphql RecordObject
// serves them); on the root also `static SDL`, `graphqlRoot()` and `serveGraphQL(request)`.

import { CommonFlags, NodeKind } from 'assemblyscript';
import { appendMembers, isNamedType, isStatic, nonNullText, simpleTypeName, sourceError, takeDecorator, typeText } from './ast.mjs';
import { BUILTIN_NAMES } from './schema.mjs';

/** Integers up to 32 bits: Float values, and index keys given as Float. */
const INTEGER_KEYS = new Set(['u8', 'i8', 'u16', 'i16', 'u32', 'i32']);
const NUMBERS = new Set([...INTEGER_KEYS, 'f32', 'f64']);
const DECIMALS = new Set(['u64', 'i64']);
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const HIDDEN = CommonFlags.Private | CommonFlags.Protected | CommonFlags.Constructor | CommonFlags.Set;
const PAGE_INFO = ['hasPreviousPage: Boolean!', 'hasNextPage: Boolean!', 'startCursor: String', 'endCursor: String'];

function optional(sdl) {
  return sdl.endsWith('!') ? sdl.slice(0, -1) : sdl;
}

function sdlType(name, fields) {
  return `type ${name} {\n${fields.map((f) => `  ${f}`).join('\n')}\n}\n`;
}

/** A record class's GraphQL object type: its fields and the code resolving them. */
class ObjectType {
  constructor(name, classDecl, source) {
    this.name = name;
    this.classDecl = classDecl;
    this.source = source;
    /** {name, sdl (the field's line), nonNull, code (the branch of __gqlResolve)} */
    this.fields = [];
    /** Object types and connection rows this type's fields refer to. */
    this.references = new Set();
    this.connections = new Set();
  }

  membersText() {
    const nonNull = this.fields.filter((f) => f.nonNull).map((f) => `name == ${JSON.stringify(f.name)}`);
    return [
      `__gqlTypeName(): string { return ${JSON.stringify(this.name)}; }`,
      `__gqlNonNull(name: string): bool { return ${nonNull.join(' || ') || 'false'}; }`,
      '__gqlResolve(field: __gql.FieldRequest, exec: __gql.Execution): bool {',
      'const name = field.name;',
      ...this.fields.map((f) => f.code),
      'return false;',
      '}',
    ].join('\n');
  }
}

export class GraphQLGenerator {
  /** `records`: name -> Record; `aliases`: name -> TypeNode; `need(source, module)` imports SDK modules. */
  constructor(parser, records, aliases, need) {
    this.parser = parser;
    this.records = records;
    this.aliases = aliases;
    this.need = need;
    /** Record name -> its ObjectType, generated once for every root that reaches it. */
    this.objects = new Map();
    /** Record name -> its `@query` members. */
    this.queryMembers = new Map();
  }

  /** Takes `@query` off every class and method; returns the query root classes. */
  takeDecorators(sources) {
    const roots = [];
    const recordClasses = new Map([...this.records.values()].map((r) => [r.classDecl, r]));
    for (const source of sources) {
      for (const classDecl of source.statements.filter((s) => s.kind === NodeKind.ClassDeclaration)) {
        const record = recordClasses.get(classDecl);
        const isRoot = takeDecorator(classDecl, 'query') !== null;
        if (isRoot && record) throw sourceError(classDecl, `${record.name}: a record class cannot be a @query root`);
        if (isRoot) roots.push({ classDecl, source });
        const marked = classDecl.members.filter((m) => m.kind === NodeKind.MethodDeclaration && takeDecorator(m, 'query'));
        if (marked.length && !record && !isRoot) {
          throw sourceError(marked[0], `${classDecl.name.text}.${marked[0].name.text}: @query marks the const methods of record classes (or a query root class)`);
        }
        if (record) this.queryMembers.set(record.name, marked);
      }
    }
    return roots;
  }

  generate(sources) {
    for (const root of this.takeDecorators(sources)) this.generateRoot(root);
  }

  generateRoot({ classDecl, source }) {
    if (classDecl.typeParameters?.length) throw sourceError(classDecl, `${classDecl.name.text}: a @query class cannot be generic`);
    const root = new ObjectType('Query', classDecl, source);
    for (const member of classDecl.members) {
      if (isStatic(member) || (member.flags & HIDDEN) || member.name.text.startsWith('__')) continue;
      if (member.kind === NodeKind.FieldDeclaration && !(member.flags & CommonFlags.Readonly)) {
        throw sourceError(member, `${classDecl.name.text}.${member.name.text}: the fields of a @query class are readonly (or private)`);
      }
      root.fields.push(this.field(root, member, true));
    }
    if (root.fields.length === 0) throw sourceError(classDecl, `${classDecl.name.text}: a @query class needs at least one public member`);
    const self = classDecl.name.text;
    appendMembers(this.parser, source, classDecl, [
      root.membersText(),
      `/** The schema of this query root (GraphQL SDL). */`,
      `static readonly SDL: string = ${JSON.stringify(this.sdl(root))};`,
      `/** This query root as the GraphQL object \`Query\`. */`,
      `graphqlRoot(): __gql.GqlObject { return new __gql.RecordObject<${self}>(this); }`,
      `/** Answers /graphql (docs/serving.md §4.4) with this query root; null for other requests. */`,
      `serveGraphQL(request: __gql.HttpRequest): __gql.HttpReply | null { return __gql.serveGraphQL(request, this.graphqlRoot(), ${self}.SDL); }`,
    ].join('\n'));
    this.need(source, 'graphql');
  }

  /** The SDL of a root: Query, then every object type it reaches, their edges and connections, PageInfo. */
  sdl(root) {
    const reached = [];
    const visit = (type) => {
      for (const name of type.references) {
        const object = this.objects.get(name);
        if (reached.includes(object)) continue;
        reached.push(object);
        visit(object);
      }
    };
    visit(root);
    // [name, fields] of every type; only the root has connections.
    const types = [root, ...reached].map((t) => [t.name, t.fields.map((f) => f.sdl)]);
    for (const row of root.connections) {
      types.push([`${row}Edge`, [`node: ${row}!`, 'cursor: String!']]);
      types.push([`${row}Connection`, [`edges: [${row}Edge!]!`, 'pageInfo: PageInfo!']]);
    }
    if (root.connections.size) types.push(['PageInfo', PAGE_INFO]);
    const names = new Set();
    for (const [name] of types) {
      if (names.has(name)) throw sourceError(root.classDecl, `GraphQL type ${name} is defined twice (a record is named like a generated type)`);
      names.add(name);
    }
    return types.map(([name, fields]) => sdlType(name, fields)).join('\n');
  }

  /** The ObjectType of a record, generated on first use. */
  object(record, node) {
    const known = this.objects.get(record.name);
    if (known) return known;
    if (record.classDecl.typeParameters?.length) throw sourceError(node, `${record.name}: a generic record has no GraphQL type`);
    const type = new ObjectType(record.name, record.classDecl, record.source);
    this.objects.set(record.name, type);
    const isVariant = record.kind === 'VARIANT';
    record.members.forEach((m, i) => type.fields.push(this.dataField(type, m, isVariant ? i : -1)));
    for (const method of this.queryMembers.get(record.name) ?? []) type.fields.push(this.field(type, method, false));
    if (type.fields.length === 0) throw sourceError(record.classDecl, `${record.name}: a record without fields has no GraphQL type`);
    appendMembers(this.parser, record.source, record.classDecl, type.membersText());
    this.need(record.source, 'graphql');
    return type;
  }

  checkName(node, name) {
    if (!GRAPHQL_NAME.test(name) || name.startsWith('__')) throw sourceError(node, `${name} is not a GraphQL field name`);
  }

  /** A record's data member; a Variant's alternative (`tag` >= 0) is null unless it is held. */
  dataField(type, member, tag) {
    this.checkName(member.type, member.name);
    const out = this.output(type, member.type, 0);
    const value = `this.${member.name}`;
    const write = tag < 0 ? out.write('exec', value) : `if (this.tag == ${tag}) { ${out.write('exec', value)} } else exec.writeNull();`;
    const nonNull = tag < 0 && out.nonNull;
    return {
      name: member.name,
      sdl: `${member.name}: ${nonNull ? out.sdl : optional(out.sdl)}`,
      nonNull,
      code: this.branch(type, member.name, [], write),
    };
  }

  /** A member of a root (`connections` allowed) or a record's `@query` method or getter. */
  field(type, member, connections) {
    const name = member.name.text;
    this.checkName(member, name);
    const isMethod = member.kind === NodeKind.MethodDeclaration && !(member.flags & CommonFlags.Get);
    const params = isMethod ? member.signature.parameters : [];
    const typeNode = member.kind === NodeKind.FieldDeclaration ? member.type : member.signature.returnType;
    if (!typeNode || (isNamedType(typeNode) && simpleTypeName(typeNode) === 'void')) {
      throw sourceError(member, `${type.name}.${name}: a GraphQL field needs a declared, non-void type`);
    }
    const args = params.map((p, i) => ({ name: p.name.text, local: `a${i}`, ...this.input(p) }));
    for (const arg of args) this.checkName(member, arg.name);
    const value = `this.${name}${isMethod ? `(${args.map((a) => a.local).join(', ')})` : ''}`;
    const connection = this.connection(typeNode);
    if (connection) {
      if (!connections) throw sourceError(member, `${type.name}.${name}: connections are fields of the @query root`);
      if (args.length) throw sourceError(member, `${type.name}.${name}: a connection member takes no arguments`);
      return this.connectionField(type, name, connection, value);
    }
    const out = this.output(type, typeNode, 0);
    const argsSdl = args.length ? `(${args.map((a) => `${a.name}: ${a.sdl}`).join(', ')})` : '';
    const decode = args.map((a) => `const ${a.local} = ${a.decode};`);
    const write = [...decode, ...(args.length ? ['if (!exec.failed) {'] : []), out.write('exec', value), ...(args.length ? ['}'] : [])].join('\n');
    return { name, sdl: `${name}${argsSdl}: ${out.sdl}`, nonNull: out.nonNull, code: this.branch(type, name, args, write) };
  }

  /** The branch of __gqlResolve for one field: arguments checked as a validator would, then `write`. */
  branch(type, name, args, write) {
    const names = `[${args.map((a) => JSON.stringify(a.name)).join(', ')}]`;
    const types = `[${args.map((a) => JSON.stringify(a.sdl)).join(', ')}]`;
    // Without a required argument, a field given none needs no check (nor the arrays built for it).
    const required = args.some((a) => a.sdl.endsWith('!'));
    const check = `if (${required ? '' : 'field.arguments.length == 0 || '}__gql.acceptArguments(field, exec, ${JSON.stringify(`${type.name}.${name}`)}, ${names}, ${types}))`;
    return `if (name == ${JSON.stringify(name)}) {\n${check} {\n${write}\n}\nreturn true;\n}`;
  }

  /** `{row, key, primary}` when `typeNode` is `Index<Row, K>` or `Table<Row, K>`; null otherwise. */
  connection(typeNode) {
    if (!isNamedType(typeNode) || typeNode.isNullable) return null;
    const name = simpleTypeName(typeNode);
    const args = typeNode.typeArguments ?? [];
    if ((name !== 'Index' && name !== 'Table') || args.length !== 2) return null;
    const row = isNamedType(args[0]) ? this.records.get(simpleTypeName(args[0])) : undefined;
    if (!row) throw sourceError(typeNode, `${typeText(typeNode)}: the rows of a served index are records`);
    return { row, rowNode: args[0], key: args[1], primary: name === 'Table' };
  }

  connectionField(type, name, { row, rowNode, key, primary }, value) {
    type.references.add(this.object(row, rowNode).name);
    type.connections.add(row.name);
    const keyType = this.keyType(key);
    const bounds = keyType ? ['gt', 'ge', 'lt', 'le'].map((b) => ({ name: b, sdl: keyType })) : [];
    const args = [...bounds, { name: 'first', sdl: 'Float' }, { name: 'last', sdl: 'Float' }, { name: 'before', sdl: 'String' }, { name: 'after', sdl: 'String' }];
    const rowText = typeText(rowNode);
    const node = `(r: ${rowText}): __gql.GqlObject => new __gql.RecordObject<${rowText}>(r)`;
    const accountKeys = this.builtinOf(key) === 'AccountNumber';
    const write = `__gql.writeConnection<${rowText}, ${typeText(key)}>(${value}${primary ? '.primary' : ''}, field, exec, ${JSON.stringify(row.name)}, ${node}, ${accountKeys});`;
    return {
      name,
      sdl: `${name}(${args.map((a) => `${a.name}: ${a.sdl}`).join(', ')}): ${row.name}Connection!`,
      nonNull: true,
      code: this.branch(type, name, args, write),
    };
  }

  /** The schema name of a built-in type (through user aliases; `| null` aside), or null. */
  builtinOf(typeNode) {
    if (!isNamedType(typeNode) || typeNode.typeArguments?.length) return null;
    const name = simpleTypeName(typeNode);
    if (Object.hasOwn(BUILTIN_NAMES, name)) return BUILTIN_NAMES[name];
    const alias = this.aliases.get(name);
    return alias ? this.builtinOf(alias) : null;
  }

  /** The GraphQL type of gt/ge/lt/le for an index key; null when keys cannot be given in a query. */
  keyType(key) {
    const builtin = this.builtinOf(key);
    if (INTEGER_KEYS.has(builtin)) return 'Float';
    if (DECIMALS.has(builtin) || builtin === 'AccountNumber' || builtin === 'string') return 'String';
    return null;
  }

  /**
   * How a value of `typeNode` is written: `{sdl, nonNull, as, write(exec, value)}` (`as`: the
   * AssemblyScript type text; `write` gives a statement). Records it meets become object types.
   */
  output(type, typeNode, depth, allowNull = true) {
    if (!isNamedType(typeNode)) throw sourceError(typeNode, `type ${typeText(typeNode)} has no GraphQL type`);
    if (allowNull && typeNode.isNullable) {
      const inner = this.output(type, typeNode, depth + 1, false);
      return {
        sdl: optional(inner.sdl), nonNull: false, as: typeText(typeNode),
        write: (e, v) => `__gql.writeNullable<${inner.as}>(${e}, ${v}, ${this.writer(inner, depth)});`,
      };
    }
    const as = allowNull ? typeText(typeNode) : nonNullText(typeNode);
    const name = simpleTypeName(typeNode);
    const args = typeNode.typeArguments ?? [];
    if (name === 'Array' && args.length === 1) {
      const item = this.output(type, args[0], depth + 1);
      return { sdl: `[${item.sdl}]!`, nonNull: true, as, write: (e, v) => `__gql.writeList<${item.as}>(${e}, ${v}, ${this.writer(item, depth)}, ${item.nonNull});` };
    }
    if (name === 'Option' && args.length === 1) {
      const inner = this.output(type, args[0], depth + 1);
      if (!inner.nonNull) throw sourceError(typeNode, `${typeText(typeNode)}: an option of a nullable type has no GraphQL type`);
      return { sdl: optional(inner.sdl), nonNull: false, as, write: (e, v) => `__gql.writeOption<${inner.as}>(${e}, ${v}, ${this.writer(inner, depth)});` };
    }
    if (args.length) throw sourceError(typeNode, `type ${typeText(typeNode)} has no GraphQL type (generic)`);
    if (Object.hasOwn(BUILTIN_NAMES, name)) return { ...this.scalar(typeNode, BUILTIN_NAMES[name], name), nonNull: true, as };
    const record = this.records.get(name);
    if (record) {
      type.references.add(this.object(record, typeNode).name);
      return { sdl: `${name}!`, nonNull: true, as, write: (e, v) => `__gql.writeRecord<${name}>(${e}, ${v});` };
    }
    const alias = this.aliases.get(name);
    if (alias) return this.output(type, alias, depth);
    throw sourceError(typeNode, `type ${name} has no GraphQL type (not a record class or a built-in type)`);
  }

  /** A function expression writing one value, for lists and nullable values. */
  writer(out, depth) {
    const e = `e${depth}`;
    const v = `v${depth}`;
    return `(${e}: __gql.Execution, ${v}: ${out.as}): void => { ${out.write(e, v)} }`;
  }

  /** Rule 4's mapping of a built-in type (`builtin`: its schema name, `as`: as written). */
  scalar(typeNode, builtin, as) {
    if (builtin === 'bool') return { sdl: 'Boolean!', write: (e, v) => `${e}.writeBool(${v});` };
    if (NUMBERS.has(builtin)) return { sdl: 'Float!', write: (e, v) => `__gql.writeNumber<${as}>(${e}, ${v});` };
    if (DECIMALS.has(builtin)) return { sdl: 'String!', write: (e, v) => `__gql.writeDecimal<${as}>(${e}, ${v});` };
    if (builtin === 'string') return { sdl: 'String!', write: (e, v) => `${e}.writeString(${v});` };
    if (builtin === 'AccountNumber') return { sdl: 'String!', write: (e, v) => `__gql.writeAccount(${e}, ${v});` };
    if (builtin === 'bytes') return { sdl: 'String!', write: (e, v) => `__gql.writeHex(${e}, ${v});` };
    if (builtin === 'Checksum256') return { sdl: 'String!', write: (e, v) => `__gql.writeHex(${e}, ${v}.bytes);` };
    if (builtin === 'MethodNumber') return { sdl: 'String!', write: (e, v) => `__gql.writeMethod(${e}, ${v});` };
    if (builtin === 'TimePointSec') return { sdl: 'String!', write: (e, v) => `__gql.writeTimePointSec(${e}, ${v});` };
    if (builtin === 'TimePointUSec') return { sdl: 'String!', write: (e, v) => `__gql.writeTimePointUSec(${e}, ${v});` };
    throw sourceError(typeNode, `${as} has no GraphQL type`);
  }

  /**
   * How method parameter `param` is declared and decoded as an argument: `{sdl, decode}`
   * (`decode`: an expression of the value, given `field` and `exec`).
   */
  input(param) {
    const typeNode = param.type;
    if (!typeNode || param.initializer) throw sourceError(param, `${param.name.text}: a GraphQL argument needs a type and no default value (use Option<T> or T | null)`);
    const name = JSON.stringify(param.name.text);
    const value = `field.argument(${name})`;
    if (typeNode.isNullable) {
      const inner = this.decoder(typeNode);
      return { sdl: optional(inner.sdl), decode: `__gql.nullableValue<${nonNullText(typeNode)}>(${value}, ${name}, exec, ${this.decoderFunction(inner, nonNullText(typeNode))})` };
    }
    const args = typeNode.typeArguments ?? [];
    if (isNamedType(typeNode) && simpleTypeName(typeNode) === 'Option' && args.length === 1) {
      if (args[0].isNullable) throw sourceError(typeNode, `${typeText(typeNode)}: an option of a nullable type cannot be a GraphQL argument`);
      const inner = this.decoder(args[0]);
      return { sdl: optional(inner.sdl), decode: `__gql.optionValue<${typeText(args[0])}>(${value}, ${name}, exec, ${this.decoderFunction(inner, typeText(args[0]))})` };
    }
    const decoder = this.decoder(typeNode);
    return { sdl: decoder.sdl, decode: `${decoder.call}(${value}!, ${name}, exec)` };
  }

  decoderFunction(decoder, as) {
    return `(x: __gql.Value, n: string, e: __gql.Execution): ${as} => ${decoder.call}(x, n, e)`;
  }

  /** The decoder of a non-null argument type: `{sdl, call}` (`call`: the function to call with value, name, exec). */
  decoder(typeNode) {
    const builtin = this.builtinOf(typeNode);
    const as = nonNullText(typeNode);
    if (builtin === 'bool') return { sdl: 'Boolean!', call: '__gql.boolValue' };
    if (INTEGER_KEYS.has(builtin) || DECIMALS.has(builtin)) return { sdl: DECIMALS.has(builtin) ? 'String!' : 'Float!', call: `__gql.integerValue<${as}>` };
    if (builtin === 'f32' || builtin === 'f64') return { sdl: 'Float!', call: `__gql.floatValue<${as}>` };
    if (builtin === 'string') return { sdl: 'String!', call: '__gql.stringValue' };
    if (builtin === 'AccountNumber') return { sdl: 'String!', call: '__gql.accountValue' };
    if (builtin === 'bytes') return { sdl: 'String!', call: '__gql.bytesValue' };
    if (builtin === 'Checksum256') return { sdl: 'String!', call: '__gql.checksumValue' };
    throw sourceError(typeNode, `type ${typeText(typeNode)} cannot be a GraphQL argument (numbers, bool, string, accounts, bytes and checksums can; method numbers and time points not yet)`);
  }
}

/** Generates the GraphQL members of every `@query` root and the records they reach. */
export function generateGraphQL(parser, sources, records, aliases, need) {
  new GraphQLGenerator(parser, records, aliases, need).generate(sources);
}
