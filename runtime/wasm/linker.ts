import { HOST_IMPORTS, type HostImportName } from '../../host-api/abi/imports.js';
import type { ExecutionContext } from './execution-context.js';
import { actionImports } from './host-imports/actions.js';
import { cryptoImports } from './host-imports/crypto.js';
import { eventImports } from './host-imports/events.js';
import { kvImports } from './host-imports/kv.js';
import { resultImports } from './host-imports/result.js';
import { subjectiveImports } from './host-imports/subjective.js';
import { systemImports } from './host-imports/system.js';

/** Connections of the HTTP front end that privileged services may write to (RPC/CB modes). */
export interface SocketHost {
  /** Sends bytes; returns 0 or an errno. */
  send(fd: number, data: Uint8Array): number;
  /** Gives the context ownership of the socket (on) or takes it back; returns 0 or an errno. */
  autoClose(fd: number, on: boolean): number;
}

/** One execution context's use of the sockets; `end` settles what the context still owns. */
export interface ContextSocketHost extends SocketHost {
  end(): void;
}

/** Where a node's open requests are, for the contexts that may answer them. */
export interface SocketRegistry {
  forContext(owned?: readonly number[]): ContextSocketHost;
}

/**
 * Where imports find the execution context that is running now. Imports are bound once (per
 * engine) and instances outlive a context, so no import holds a context of its own.
 */
export interface HostBinding {
  readonly context: ExecutionContext;
  /** Admits (and compiles) code about to be stored; throws AdmissionError when it is refused. */
  admitCode(codeHash: Uint8Array, code: Uint8Array): void;
}

export type HostFunction = (...args: never[]) => unknown;
export type ImportGroup = Partial<Record<HostImportName, HostFunction>>;

/** The `env` import object: every function of the host import table. */
export function linkHostImports(host: HostBinding): Record<HostImportName, HostFunction> {
  const table: ImportGroup = {
    ...resultImports(host),
    ...actionImports(host),
    ...kvImports(host),
    ...eventImports(host),
    ...subjectiveImports(host),
    ...systemImports(host),
    ...cryptoImports(host),
  };
  for (const name of Object.keys(HOST_IMPORTS) as HostImportName[]) {
    if (!table[name]) throw new Error(`host import ${name} has no implementation`);
  }
  return table as Record<HostImportName, HostFunction>;
}
