// The system services as `make services` builds them, deployed into a TestChain with their
// account flags, and run by action name with arguments packed from each service's own schema.
import { compileSchema, type AnyType, type Schema } from '../../../../host-api/index.js';
import type { RunOptions, RunResult, TestChain } from '../../../../runtime/testing/test-chain.js';
import { compiledService } from '../program.js';

export const PRIVILEGED = 1n;
export const VERIFY = 2n;

/** The account flags of each system service (docs/system-services.md). */
const FLAGS: Record<string, bigint> = {
  accounts: PRIVILEGED,
  'auth-any': 0n,
  'auth-sig': 0n,
  'verify-sig': VERIFY,
  setcode: PRIVILEGED,
  producers: PRIVILEGED,
};

interface ServiceSchema {
  service: string;
  types: Schema;
  actions: Record<string, { params: AnyType; result?: AnyType }>;
}

export interface ActionResult extends RunResult {
  /** The unpacked return value (undefined when the action failed or returns nothing). */
  readonly value: unknown;
}

export class SystemService {
  private readonly types: ReturnType<typeof compileSchema>;

  private constructor(readonly name: string, readonly binary: Uint8Array, private readonly schema: ServiceSchema) {
    this.types = compileSchema(schema.types);
  }

  /** The service folder services-wasm/<name>, compiled once per process. */
  static async load(name: string): Promise<SystemService> {
    const compiled = await compiledService(name);
    return new SystemService(name, compiled.binary, compiled.schema as ServiceSchema);
  }

  /** Installs the service under its own account with its flags. */
  deploy(chain: TestChain): void {
    chain.deploy(this.name, this.binary, FLAGS[this.name]);
  }

  /** The packed argument Object of `action`. */
  pack(action: string, args: unknown): Uint8Array {
    return this.types.typeOf(this.actionSchema(action).params).pack(args);
  }

  /** Runs `action` sent by `sender` (a transaction unless options say otherwise). */
  run(chain: TestChain, sender: string | bigint, action: string, args: unknown, options?: RunOptions): ActionResult {
    const result = chain.run({ sender, service: this.name, method: action, rawData: this.pack(action, args) }, options);
    const resultType = this.actionSchema(action).result;
    return { ...result, value: result.error || !resultType ? undefined : this.types.typeOf(resultType).unpack(result.retval) };
  }

  /** Runs `action` and returns its value; throws with the error when it fails. */
  call(chain: TestChain, sender: string | bigint, action: string, args: unknown, options?: RunOptions): unknown {
    const result = this.run(chain, sender, action, args, options);
    if (result.error !== undefined) throw new Error(`${this.name}::${action} failed: ${result.error}`);
    return result.value;
  }

  private actionSchema(action: string): { params: AnyType; result?: AnyType } {
    const entry = this.schema.actions[action];
    if (!entry) throw new Error(`${this.name} has no action ${action}`);
    return entry;
  }
}

/** Loads the named system services (compiled once per process). */
export async function loadServices<const N extends string>(...names: N[]): Promise<Record<N, SystemService>> {
  const services = await Promise.all(names.map((name) => SystemService.load(name)));
  return Object.fromEntries(names.map((name, i) => [name, services[i]])) as Record<N, SystemService>;
}
