// A service's arguments, results, events and table rows packed and unpacked by its schema: the
// one a build writes (build/<name>.schema.json, docs/formats.md §2).
// TestChain's users and the typed clients `tsibase codegen` writes both pack with it.
import { TsibaseError } from '../errors.js';
import { compileSchema, type AnyType, type CompiledSchema, type NameForm, type Schema } from '../fracpack/index.js';
import { accountNumberFromName, methodNumberFromName } from '../names/index.js';
import type { Action } from '../types/index.js';

/** The event kinds a schema lists, each the events of one event database. */
export const SCHEMA_EVENT_KINDS = ['history', 'ui', 'merkle'] as const;

export interface ServiceSchema {
  service: string;
  types: Schema;
  actions: Record<string, { params: AnyType; result?: AnyType | null }>;
  history: Record<string, AnyType>;
  ui?: Record<string, AnyType>;
  merkle?: Record<string, AnyType>;
}

export interface ServiceCodecOptions {
  /** AccountNumber and MethodNumber values as numbers (bigint, the default) or as names. */
  names?: NameForm;
}

export class ServiceCodec {
  readonly types: CompiledSchema;

  constructor(readonly schema: ServiceSchema, options: ServiceCodecOptions = {}) {
    this.types = compileSchema(schema.types, { names: options.names });
  }

  private entry(action: string) {
    const entry = Object.hasOwn(this.schema.actions, action) ? this.schema.actions[action] : undefined;
    if (!entry) throw new TsibaseError('SERVICE_NO_ACTION', `${this.schema.service} has no action ${action}`);
    return entry;
  }

  args(action: string, args: unknown): Uint8Array {
    return this.types.typeOf(this.entry(action).params).pack(args);
  }

  /** `action` with arguments `args` packed, sent by `sender` to `service` (the schema's own by default). */
  action(sender: string, action: string, args: unknown, service: string = this.schema.service): Action {
    return { sender: accountNumberFromName(sender), service: accountNumberFromName(service), method: methodNumberFromName(action), rawData: this.args(action, args) };
  }

  result(action: string, retval: Uint8Array): unknown {
    const type = this.entry(action).result;
    if (type == null) throw new TsibaseError('SERVICE_NO_RESULT', `${this.schema.service}::${action} returns nothing`);
    return this.types.typeOf(type).unpack(retval);
  }

  /** The decoded value of a run of `action`: undefined when it failed or returns nothing. */
  valueOf(action: string, run: { readonly retval: Uint8Array; readonly error?: string }): unknown {
    return run.error || this.entry(action).result == null ? undefined : this.result(action, run.retval);
  }

  /** The data of event `name` from its stored record (service, type, data). */
  event(name: string, value: Uint8Array): unknown {
    const event = SCHEMA_EVENT_KINDS.map((kind) => this.schema[kind]).find((events) => events && Object.hasOwn(events, name))?.[name];
    if (event === undefined) throw new TsibaseError('SERVICE_NO_EVENT', `${this.schema.service} has no event ${name}`);
    const envelope = this.types.typeOf({ Object: { service: 'AccountNumber', type: { Option: 'MethodNumber' }, data: { Option: event } } });
    return (envelope.unpack(value) as { data: unknown }).data;
  }

  eventNames(): string[] {
    return SCHEMA_EVENT_KINDS.flatMap((kind) => Object.keys(this.schema[kind] ?? {}));
  }

  /** A value of `type` (a table's row type, say) unpacked from `bytes`. */
  value(type: AnyType, bytes: Uint8Array): unknown {
    return this.types.typeOf(type).unpack(bytes);
  }
}
