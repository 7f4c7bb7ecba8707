// The SDK's GraphQL parser (GraphQL spec §2) against graphql-js 16 as the oracle: for fixed and
// random documents, and for random corruptions of them, both accept or both refuse, and accepted
// documents have the same syntax tree (compared in one compact JSON form).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, type ArgumentNode, type DirectiveNode, type SelectionNode, type TypeNode, type ValueNode } from 'graphql';
import { Random } from '../../lib/random.js';
import { program, utf8 } from './program.js';

const SOURCE = `
import { Argument, Directive, Selection, SelectionKind, Value, ValueKind } from "../../../../services-wasm/sdk/graphql/ast";
import { parse } from "../../../../services-wasm/sdk/graphql/parser";

function list<T>(items: Array<T>, each: (item: T) => string): string {
  let out = "[";
  for (let i = 0; i < items.length; i++) out += (i ? "," : "") + each(items[i]);
  return out + "]";
}
function value(v: Value): string {
  const q = sdk.jsonString;
  if (v.kind == ValueKind.Variable) return "{\\"var\\":" + q(v.text) + "}";
  if (v.kind == ValueKind.Int) return "{\\"int\\":" + q(v.text) + "}";
  if (v.kind == ValueKind.Float) return "{\\"float\\":" + q(v.text) + "}";
  if (v.kind == ValueKind.String) return "{\\"string\\":" + q(v.text) + "}";
  if (v.kind == ValueKind.Boolean) return v.boolean ? "{\\"bool\\":true}" : "{\\"bool\\":false}";
  if (v.kind == ValueKind.Null) return "{\\"null\\":true}";
  if (v.kind == ValueKind.Enum) return "{\\"enum\\":" + q(v.text) + "}";
  if (v.kind == ValueKind.List) return "{\\"list\\":" + list<Value>(v.items, value) + "}";
  return "{\\"object\\":" + list<Argument>(v.fields, argument) + "}";
}
function argument(a: Argument): string {
  return "[" + sdk.jsonString(a.name) + "," + value(a.value) + "]";
}
function directive(d: Directive): string {
  return "{\\"name\\":" + sdk.jsonString(d.name) + ",\\"arguments\\":" + list<Argument>(d.arguments, argument) + "}";
}
function selection(s: Selection): string {
  const directives = ",\\"directives\\":" + list<Directive>(s.directives, directive);
  if (s.kind == SelectionKind.FragmentSpread) return "{\\"spread\\":" + sdk.jsonString(s.name) + directives + "}";
  const selections = ",\\"selections\\":" + list<Selection>(s.selections, selection);
  if (s.kind == SelectionKind.InlineFragment) return "{\\"inline\\":" + sdk.jsonString(s.typeCondition) + directives + selections + "}";
  return "{\\"field\\":" + sdk.jsonString(s.name) + ",\\"alias\\":" + sdk.jsonString(s.alias)
    + ",\\"arguments\\":" + list<Argument>(s.arguments, argument) + directives + selections + "}";
}

export function parseDocument(): void {
  const result = parse(String.UTF8.decodeUnsafe(input.dataStart, input.length));
  if (result.document === null) {
    output = Uint8Array.wrap(String.UTF8.encode("{\\"error\\":" + sdk.jsonString(result.error) + "}"));
    return;
  }
  const doc = result.document!;
  let out = "{\\"operations\\":[";
  for (let i = 0; i < doc.operations.length; i++) {
    const op = doc.operations[i];
    let vars = "[";
    for (let j = 0; j < op.variables.length; j++) {
      const v = op.variables[j];
      vars += (j ? "," : "") + "{\\"name\\":" + sdk.jsonString(v.name) + ",\\"type\\":" + sdk.jsonString(v.type.toString())
        + ",\\"default\\":" + (v.defaultValue !== null ? value(v.defaultValue!) : "null") + ",\\"directives\\":" + list<Directive>(v.directives, directive) + "}";
    }
    out += (i ? "," : "") + "{\\"operation\\":" + sdk.jsonString(op.operation) + ",\\"name\\":" + sdk.jsonString(op.name) + ",\\"variables\\":" + vars
      + "],\\"directives\\":" + list<Directive>(op.directives, directive) + ",\\"selections\\":" + list<Selection>(op.selections, selection) + "}";
  }
  out += "],\\"fragments\\":[";
  for (let i = 0; i < doc.fragments.length; i++) {
    const f = doc.fragments[i];
    out += (i ? "," : "") + "{\\"name\\":" + sdk.jsonString(f.name) + ",\\"on\\":" + sdk.jsonString(f.typeCondition)
      + ",\\"directives\\":" + list<Directive>(f.directives, directive) + ",\\"selections\\":" + list<Selection>(f.selections, selection) + "}";
  }
  output = Uint8Array.wrap(String.UTF8.encode(out + "]}"));
}
`;

// graphql-js's tree in the same compact form.
const typeText = (t: TypeNode): string =>
  t.kind === 'NonNullType' ? `${typeText(t.type)}!` : t.kind === 'ListType' ? `[${typeText(t.type)}]` : t.name.value;

function value(v: ValueNode): unknown {
  switch (v.kind) {
    case 'Variable': return { var: v.name.value };
    case 'IntValue': return { int: v.value };
    case 'FloatValue': return { float: v.value };
    case 'StringValue': return { string: v.value };
    case 'BooleanValue': return { bool: v.value };
    case 'NullValue': return { null: true };
    case 'EnumValue': return { enum: v.value };
    case 'ListValue': return { list: v.values.map(value) };
    case 'ObjectValue': return { object: v.fields.map((f) => [f.name.value, value(f.value)]) };
  }
}
const argument = (a: ArgumentNode) => [a.name.value, value(a.value)];
const directive = (d: DirectiveNode) => ({ name: d.name.value, arguments: (d.arguments ?? []).map(argument) });
function selection(s: SelectionNode): unknown {
  const directives = (s.directives ?? []).map(directive);
  if (s.kind === 'FragmentSpread') return { spread: s.name.value, directives };
  if (s.kind === 'InlineFragment') return { inline: s.typeCondition?.name.value ?? '', directives, selections: s.selectionSet.selections.map(selection) };
  return {
    field: s.name.value, alias: s.alias?.value ?? '', arguments: (s.arguments ?? []).map(argument), directives,
    selections: s.selectionSet?.selections.map(selection) ?? [],
  };
}

function oracle(source: string): unknown {
  let doc;
  try {
    doc = parse(source, { noLocation: true });
  } catch (err) {
    return { error: (err as Error).message };
  }
  const operations: unknown[] = [];
  const fragments: unknown[] = [];
  for (const d of doc.definitions) {
    if (d.kind === 'OperationDefinition') {
      operations.push({
        operation: d.operation, name: d.name?.value ?? '',
        variables: (d.variableDefinitions ?? []).map((v) => ({
          name: v.variable.name.value, type: typeText(v.type), default: v.defaultValue ? value(v.defaultValue) : null, directives: (v.directives ?? []).map(directive),
        })),
        directives: (d.directives ?? []).map(directive), selections: d.selectionSet.selections.map(selection),
      });
    } else if (d.kind === 'FragmentDefinition') {
      fragments.push({ name: d.name.value, on: d.typeCondition.name.value, directives: (d.directives ?? []).map(directive), selections: d.selectionSet.selections.map(selection) });
    } else {
      return { error: `Syntax Error: not executable: ${d.kind}` };
    }
  }
  return { operations, fragments };
}

/** Both parsers agree: the same tree, or both a syntax error. Returns whether the document is valid. */
async function agree(source: string): Promise<boolean> {
  const p = await program('graphql-parser', SOURCE);
  const ours = JSON.parse(new TextDecoder().decode(p.run('parseDocument', utf8(source)))) as { error?: string };
  const theirs = oracle(source) as { error?: string };
  if (theirs.error !== undefined || ours.error !== undefined) {
    assert.ok(theirs.error !== undefined && ours.error !== undefined, `${JSON.stringify(source)}: ours ${JSON.stringify(ours)}, graphql-js ${JSON.stringify(theirs)}`);
    assert.match(ours.error!, /^Syntax Error: /);
    return false;
  }
  assert.equal(ours, theirs, source);
  return true;
}

const DOCUMENTS = [
  '{ a }',
  'query { a b c }',
  'query Named($id: ID!, $n: [Int!] = [1, 2], $o: In = {a: {b: [null]}}) @dir(x: 1) { a: b(id: $id, n: $n) @skip(if: false) { c } }',
  'mutation M { do(x: 1.5e3, y: -0, z: "s\\\\t\\"q\\u00e9\\u{1F600}\\uD83D\\uDE00", e: ENUM, t: true, f: false, n: null) }',
  'subscription { s }',
  '{ ...F ... on T @d { x } ... @d { y } ... { z } }\nfragment F on T @f { w }',
  '# comment\n\ufeff{ a, b,, c } # trailing',
  '{ a(s: """\n    block\n      indented\n    \\""" quote\n  """) }',
  '{ a(s: """""") b(s: """  one line  """) }',
  '{ a(o: {}, l: []) }',
  'query ($a: Int = 1 @c) { a }',
  '{ on: on(on: on) { fragment: query } }',
  // refused
  '', '{}', '{ a(): b }', 'query ($a: Int = $b) { a }', '{ a(x: 01) }', '{ a(x: 1.) }', '{ a(x: .5) }', '{ a(x: 1e) }',
  '{ a(x: 1a) }', '{ a(x: "unterminated) }', '{ a(x: "bad \\q") }', '{ a(x: "\\uD800") }', '{ a(x: "\\u{110000}") }',
  'fragment on on T { a }', 'fragment F T { a }', 'type Query { a: Int }', '{ a } }', '{ a', 'query Q($v) { a }',
  '{ a(x: "line\nbreak") }', '{ ..a }', '{ a @ }', '{ a(x: {b}) }', '{ a(x: [1, $v]) }', 'query Q @d($v: 1) { a }',
  '{ a(x: 1.5e+) }', '{ a(x: -) }', '{ a(x: 0x10) }', '{ a(x: "\\u00g0") }', '{ ? }',
];

test('fixed documents: the same tree as graphql-js, or both refuse', async () => {
  for (const source of DOCUMENTS) await agree(source);
});

const NAMES = ['a', 'b', 'node', 'edges', 'on', 'query', 'true', 'null', '_x9', 'Type'];
const TYPES = ['Int', 'String', '[Int]', '[ID!]!', 'In!'];

function generator(rnd: Random) {
  const pick = <T>(xs: readonly T[]) => rnd.pick(xs);
  const gap = () => pick([' ', ' ', '\n', ', ', '\t', ' # c\n', '']);
  const sep = () => pick([' ', '\n', ',', ' , ']);
  const name = () => pick(NAMES.filter((n) => n !== 'on' || rnd.next() < 0.5));
  const string = () => JSON.stringify(pick(['', 'x', 'é', 'a"b', 'tab\there', '😀', '\\']));
  const value = (depth: number, variables: boolean): string => {
    const r = rnd.next();
    if (variables && r < 0.1) return `$${pick(['v', 'w'])}`;
    if (r < 0.25) return pick(['0', '-1', '42', '9007199254740993']);
    if (r < 0.35) return pick(['1.5', '-0.0', '1e10', '2.5E-3']);
    if (r < 0.5) return string();
    if (r < 0.6) return pick(['true', 'false', 'null', 'RED']);
    if (depth > 2) return '1';
    if (r < 0.8) return `[${Array.from({ length: rnd.int(3) }, () => value(depth + 1, variables)).join(sep())}]`;
    return `{${Array.from({ length: rnd.int(3) }, () => `${name()}:${gap()}${value(depth + 1, variables)}`).join(sep())}}`;
  };
  const args = (variables: boolean) => rnd.next() < 0.6 ? '' :
    `(${Array.from({ length: 1 + rnd.int(3) }, () => `${name()}:${gap()}${value(0, variables)}`).join(sep())})`;
  const directives = (variables: boolean) => rnd.next() < 0.8 ? '' : ` @${name()}${args(variables)}`;
  const selections = (depth: number): string => `{${gap()}${Array.from({ length: 1 + rnd.int(3) }, () => {
    const r = rnd.next();
    if (r < 0.1) return `...${gap()}F${directives(true)}`;
    if (r < 0.2 && depth < 3) return `...${rnd.next() < 0.5 ? ` on ${name()}` : ''}${directives(true)} ${selections(depth + 1)}`;
    const field = `${rnd.next() < 0.2 ? `${name()}:${gap()}` : ''}${name()}${args(true)}${directives(true)}`;
    return depth < 3 && rnd.next() < 0.4 ? `${field} ${selections(depth + 1)}` : field;
  }).join(sep())}${gap()}}`;
  const operation = () => {
    if (rnd.next() < 0.3) return selections(0);
    const vars = rnd.next() < 0.5 ? '' :
      `(${Array.from({ length: 1 + rnd.int(2) }, () => `$${name()}: ${pick(TYPES)}${rnd.next() < 0.3 ? ` = ${value(0, false)}` : ''}`).join(sep())})`;
    return `${pick(['query', 'mutation', 'subscription'])}${rnd.next() < 0.6 ? ` ${name()}` : ''}${vars}${directives(false)} ${selections(0)}`;
  };
  return () => [operation(), ...(rnd.next() < 0.3 ? [`fragment F on ${name()}${directives(false)} ${selections(1)}`] : [])].join('\n');
}

test('random documents and random corruptions of them: agreement with graphql-js', async () => {
  const rnd = new Random(0x6a1);
  const next = generator(rnd);
  let valid = 0;
  for (let i = 0; i < 300; i++) {
    const source = next();
    if (await agree(source)) valid++;
    // A random character removed, doubled or replaced by a punctuator (whole code points: the
    // service gets UTF-8, which cannot hold half a surrogate pair).
    const chars = Array.from(source);
    const at = rnd.int(chars.length);
    const edit = (replacement: string[]) => [...chars.slice(0, at), ...replacement, ...chars.slice(at + 1)].join('');
    for (const edited of [edit([]), edit([chars[at]!, chars[at]!]), edit(['{}()[]:$@!."'[rnd.int(12)]!])]) await agree(edited);
  }
  // The generator writes valid documents (so trees are compared, not just refusals).
  assert.ok(valid > 250, `${valid} of 300 generated documents valid`);
});

test.run();
