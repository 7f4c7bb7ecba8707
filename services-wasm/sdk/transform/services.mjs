// Services: a `@service("account")` class whose `@action` methods are dispatched by method number
// and whose `@event("history" | "ui" | "merkle")` methods emit events. Generated next to the class:
//   - one @fracpack argument class per action and event (`__<Service>_<name>`): an Object whose
//     members are the parameters, which is how psibase packs action arguments and event data;
//   - `export function called(receiver, sender)`: reads the current action, dispatches on its
//     method number, unpacks the arguments, calls the method, packs the result with setRetval;
//   - `export function start(thisService)`;
//   - `<Service>Actor`: the same actions as calls to another service (sender defaults to the
//     calling service);
// and the bodies of event methods. Method and account numbers are computed here, at compile time.

import { CommonFlags, NodeKind, ParameterKind } from 'assemblyscript';
import { appendStatements, decoratorString, methods, parseMethod, sourceError, takeDecorator, typeText } from './ast.mjs';
import { accountNumberFromName, methodNumberFromName } from './host-api.mjs';

/** Event kind -> the DbId of its event database. */
const EVENT_DATABASES = { history: 'historyEvent', ui: 'uiEvent', merkle: 'merkleEvent' };

function hex(n) {
  return `0x${n.toString(16)}`;
}

function isVoid(typeNode) {
  return typeNode.kind === NodeKind.NamedType && typeNode.name.identifier.text === 'void' && !typeNode.name.next;
}

export class Service {
  /** Takes @service, @action and @event off the class; returns null when it is not a service. */
  static take(classDecl, source) {
    const decorator = takeDecorator(classDecl, 'service');
    return decorator ? new Service(classDecl, source, decoratorString(decorator) ?? classDecl.name.text.toLowerCase()) : null;
  }

  constructor(classDecl, source, account) {
    this.classDecl = classDecl;
    this.source = source;
    this.name = classDecl.name.text;
    this.account = account;
    try {
      this.accountNumber = accountNumberFromName(account);
    } catch (err) {
      throw sourceError(classDecl, `@service("${account}"): ${err.message}`);
    }
    if (classDecl.typeParameters?.length) throw sourceError(classDecl, `${this.name}: a service class cannot be generic`);
    this.actions = [];
    this.events = [];
    for (const method of methods(classDecl)) {
      const action = takeDecorator(method, 'action');
      const event = takeDecorator(method, 'event');
      if (action && event) throw sourceError(method, `${method.name.text}: a method is an @action or an @event, not both`);
      if (action) this.actions.push(this.entry(method));
      if (event) this.events.push({ ...this.entry(method), kind: this.eventKind(event, method) });
    }
  }

  eventKind(decorator, method) {
    const kind = decoratorString(decorator);
    if (!Object.hasOwn(EVENT_DATABASES, kind ?? '')) {
      throw sourceError(method, `${method.name.text}: @event takes the event kind: "history", "ui" or "merkle"`);
    }
    return kind;
  }

  entry(method) {
    const name = method.name.text;
    let number;
    try {
      number = methodNumberFromName(name);
    } catch (err) {
      throw sourceError(method, err.message);
    }
    const params = method.signature.parameters.map((p) => {
      if (!p.type || p.initializer || p.parameterKind !== ParameterKind.Default) {
        throw sourceError(p, `${name}(${p.name.text}): parameters need a type and no default value (use Option<T> or T | null for optional ones)`);
      }
      return { name: p.name.text, type: p.type };
    });
    const returnType = method.signature.returnType;
    return { name, method, number, params, result: isVoid(returnType) ? null : returnType, argsClass: `__${this.name}_${name}` };
  }

  /** Adds the generated declarations to the service's file and fills in the event bodies. */
  generate(parser) {
    appendStatements(parser, this.source, [
      ...[...this.actions, ...this.events].map((e) => this.argsClassText(e)),
      this.calledText(),
      this.startText(),
      this.actorText(),
    ].join('\n'));
    for (const event of this.events) this.generateEventBody(parser, event);
  }

  argsClassText(entry) {
    const params = entry.params.map((p) => `public ${p.name}: ${typeText(p.type)}`).join(', ');
    return `@fracpack class ${entry.argsClass} { constructor(${params}) {} }`;
  }

  argsText(entry) {
    return entry.params.map((p) => p.name).join(', ');
  }

  calledText() {
    const branches = this.actions.map((a) => {
      const args = a.params.map((p) => `args.${p.name}`).join(', ');
      const invoke = `service.${a.name}(${args})`;
      return [
        `if (method == ${hex(a.number)}) {`,
        `const args = __fp.unpack<${a.argsClass}>(action.rawData);`,
        a.result ? `__svc.setReturn<${typeText(a.result)}>(${invoke});` : `${invoke};`,
        `} else `,
      ].join('\n');
    });
    return [
      `export function called(receiver: u64, sender: u64): void {`,
      `const action = __svc.beginAction(receiver, sender);`,
      `const service = new ${this.name}();`,
      `const method = action.method;`,
      ...branches,
      `__svc.unknownAction(method);`,
      `__svc.endAction();`,
      `}`,
    ].join('\n');
  }

  startText() {
    return `export function start(thisService: u64): void { __svc.startService(thisService); }`;
  }

  actorText() {
    const exported = this.classDecl.flags & CommonFlags.Export ? 'export ' : '';
    const calls = this.actions.map((a) => {
      const params = a.params.map((p) => `${p.name}: ${typeText(p.type)}`).join(', ');
      const call = `__svc.callAction(this.actorSender, this.actorService, ${hex(a.number)}, __fp.pack<${a.argsClass}>(new ${a.argsClass}(${this.argsText(a)})))`;
      const result = a.result ? typeText(a.result) : 'void';
      const body = a.result ? `return __fp.unpack<${result}>(${call});` : `${call};`;
      return `${a.name}(${params}): ${result} { ${body} }`;
    });
    return [
      `/** Calls the actions of ${this.account} (sender 0: the calling service). */`,
      `${exported}class ${this.name}Actor {`,
      `constructor(public actorService: u64 = ${hex(this.accountNumber)}, public actorSender: u64 = 0) {}`,
      ...calls,
      `}`,
    ].join('\n');
  }

  generateEventBody(parser, event) {
    const method = event.method;
    if (method.body?.statements?.length) {
      throw sourceError(method, `${event.name}: the body of an @event method is generated; leave it empty`);
    }
    const emit = `__svc.emitEvent<${event.argsClass}>(__svc.DbId.${EVENT_DATABASES[event.kind]}, ${hex(event.number)}, new ${event.argsClass}(${this.argsText(event)}))`;
    const signature = `${event.name}(${event.params.map((p) => `${p.name}: ${typeText(p.type)}`).join(', ')}): ${typeText(method.signature.returnType)}`;
    method.body = parseMethod(parser, this.source, this.classDecl, `${signature} { ${event.result ? 'return ' : ''}${emit}; }`).body;
  }
}
