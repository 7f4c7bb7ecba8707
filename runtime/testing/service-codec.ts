// A service's arguments, results and events packed and unpacked by the schema its build writes (build/<name>.schema.json).
import { compileSchema, type AnyType, type Schema } from '../../host-api/index.js';
import type { RunResult } from './test-chain.js';

export interface ServiceSchema {
  service: string;
  types: Schema;
  actions: Record<string, { params: AnyType; result?: AnyType }>;
  history: Record<string, AnyType>;
}

export class ServiceCodec {
  readonly types: ReturnType<typeof compileSchema>;

  constructor(readonly schema: ServiceSchema) {
    this.types = compileSchema(schema.types);
  }

  args(action: string, args: unknown): Uint8Array {
    const entry = this.schema.actions[action];
    if (!entry) throw new Error(`${this.schema.service} has no action ${action}`);
    return this.types.typeOf(entry.params).pack(args);
  }

  result(action: string, retval: Uint8Array): unknown {
    const type = this.schema.actions[action]?.result;
    if (!type) throw new Error(`${this.schema.service}::${action} returns nothing`);
    return this.types.typeOf(type).unpack(retval);
  }

  /** The decoded value of a run of `action`: undefined when it failed or returns nothing. */
  valueOf(action: string, run: RunResult): unknown {
    const returnsValue = this.schema.actions[action]?.result !== undefined;
    return run.error || !returnsValue ? undefined : this.result(action, run.retval);
  }

  event(name: string, value: Uint8Array): unknown {
    const data = this.schema.history[name]!;
    const envelope = this.types.typeOf({ Object: { service: 'AccountNumber', type: { Option: 'MethodNumber' }, data: { Option: data } } });
    return (envelope.unpack(value) as { data: unknown }).data;
  }

  eventNames(): string[] {
    return Object.keys(this.schema.history);
  }
}
