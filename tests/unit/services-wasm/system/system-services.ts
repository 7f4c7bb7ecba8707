// The system services as `make services` builds them, deployed into a TestChain with their
// account flags, and run by action name with arguments packed from each service's own schema.
import type { RunOptions, RunResult, TestChain } from '../../../../runtime/testing/test-chain.js';
import { compiledService } from '../program.js';
import { ServiceCodec, type ServiceSchema } from '../../../../host-api/client/service-codec.js';

export const PRIVILEGED = 1n;
export const VERIFY = 2n;

/** The account flags of each system service (docs/system-services.md). */
const FLAGS: Record<string, bigint> = {
  accounts: PRIVILEGED,
  'auth-any': 0n,
  'auth-sig': 0n,
  'auth-delg': 0n,
  'verify-sig': VERIFY,
  setcode: PRIVILEGED,
  producers: PRIVILEGED,
};

export interface ActionResult extends RunResult {
  /** The unpacked return value (undefined when the action failed or returns nothing). */
  readonly value: unknown;
}

export class SystemService {
  private readonly codec: ServiceCodec;

  private constructor(readonly name: string, readonly binary: Uint8Array, schema: ServiceSchema) {
    this.codec = new ServiceCodec(schema);
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
    return this.codec.args(action, args);
  }

  /** Runs `action` sent by `sender` (a transaction unless options say otherwise). */
  run(chain: TestChain, sender: string | bigint, action: string, args: unknown, options?: RunOptions): ActionResult {
    const result = chain.run({ sender, service: this.name, method: action, rawData: this.pack(action, args) }, options);
    return { ...result, value: this.codec.valueOf(action, result) };
  }

  /** Runs `action` and returns its value; throws with the error when it fails. */
  call(chain: TestChain, sender: string | bigint, action: string, args: unknown, options?: RunOptions): unknown {
    const result = this.run(chain, sender, action, args, options);
    if (result.error !== undefined) throw new Error(`${this.name}::${action} failed: ${result.error}`);
    return result.value;
  }
}

/** Loads the named system services (compiled once per process). */
export async function loadServices<const N extends string>(...names: N[]): Promise<Record<N, SystemService>> {
  const services = await Promise.all(names.map((name) => SystemService.load(name)));
  return Object.fromEntries(names.map((name, i) => [name, services[i]])) as Record<N, SystemService>;
}
