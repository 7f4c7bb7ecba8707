// Reading and editing the AssemblyScript AST: decorators, fields, types, and parsing generated
// source text into an existing file or class.

import { ASTBuilder, CommonFlags, NodeKind, Source, Token, Tokenizer } from 'assemblyscript';

/** An error pointing at a node's source line (asc prints its stack: the message alone). */
export function sourceError(node, message) {
  const source = node.range.source;
  const error = new Error(`${source.normalizedPath}:${source.lineAt(node.range.start)}: ${message}`);
  error.stack = error.message;
  return error;
}

export function decoratorName(decorator) {
  return decorator.name.kind === NodeKind.Identifier ? decorator.name.text : null;
}

/** Removes the decorator named `name` from a declaration and returns it (null when absent). */
export function takeDecorator(node, name) {
  const list = node.decorators;
  if (!list) return null;
  const index = list.findIndex((d) => decoratorName(d) === name);
  if (index < 0) return null;
  const [decorator] = list.splice(index, 1);
  if (list.length === 0) node.decorators = null;
  return decorator;
}

/** The single string-literal argument of a decorator, or undefined when it has none. */
export function decoratorString(decorator) {
  const args = decorator.args ?? [];
  if (args.length === 0) return undefined;
  const arg = args[0];
  if (args.length > 1 || arg.kind !== NodeKind.Literal || typeof arg.value !== 'string') {
    throw sourceError(decorator, `@${decoratorName(decorator)} takes one string argument`);
  }
  return arg.value;
}

export function typeText(typeNode) {
  return ASTBuilder.build(typeNode);
}

/** A type as written, without its `| null`. */
export function nonNullText(typeNode) {
  return typeText(typeNode).replace(/\s*\|\s*null$/, '');
}

export function isStatic(member) {
  return (member.flags & CommonFlags.Static) !== 0;
}

/** The class's type as written inside it, with its type parameters: `Box<T>`. */
export function selfTypeText(classDecl) {
  const params = classDecl.typeParameters ?? [];
  const name = classDecl.name.text;
  return params.length === 0 ? name : `${name}<${params.map((p) => p.name.text).join(', ')}>`;
}

/**
 * Instance fields in source order, constructor parameter properties included (the parser adds
 * those to the members as fields that carry the parameter's range).
 */
export function instanceFields(classDecl) {
  return classDecl.members
    .filter((m) => m.kind === NodeKind.FieldDeclaration && !isStatic(m))
    .sort((a, b) => a.range.start - b.range.start);
}

export function methods(classDecl) {
  return classDecl.members.filter((m) => m.kind === NodeKind.MethodDeclaration && !isStatic(m));
}

/** The last identifier of a possibly qualified type name (`sdk.HttpRequest` -> `HttpRequest`). */
export function simpleTypeName(namedType) {
  let name = namedType.name;
  while (name.next) name = name.next;
  return name.identifier.text;
}

export function isNamedType(typeNode) {
  return typeNode.kind === NodeKind.NamedType;
}

function snippetTokenizer(parser, target, text) {
  // The snippet takes the target file's path so its relative imports resolve like the file's own.
  const snippet = new Source(target.sourceKind, target.normalizedPath, text);
  parser.currentSource = target;
  return new Tokenizer(snippet, parser.diagnostics);
}

/** Parses top-level statements and appends them to `target` (imports get queued for parsing). */
export function appendStatements(parser, target, text) {
  const tn = snippetTokenizer(parser, target, text);
  const added = [];
  while (!tn.skip(Token.EndOfFile)) {
    const statement = parser.parseTopLevelStatement(tn, null);
    if (!statement) throw new Error(`generated code does not parse:\n${text}`);
    added.push(statement);
  }
  target.statements.push(...added);
  return added;
}

/** Parses class members and adds them to `classDecl`. */
export function appendMembers(parser, target, classDecl, text) {
  const tn = snippetTokenizer(parser, target, text);
  while (!tn.skip(Token.EndOfFile)) {
    const member = parser.parseClassMember(tn, classDecl);
    if (!member) throw new Error(`generated code does not parse:\n${text}`);
    classDecl.members.push(member);
  }
}

/** Parses one method declared as `text` and returns it, without adding it anywhere. */
export function parseMethod(parser, target, classDecl, text) {
  const tn = snippetTokenizer(parser, target, text);
  const method = parser.parseClassMember(tn, classDecl);
  if (!method) throw new Error(`generated code does not parse:\n${text}`);
  return method;
}
