import type { AnyHostImportName } from '../../../host-api/abi/abi-generation.js';
import type { Caller } from '../host-state.js';

/** A host function as the linker binds it. */
export type HostFunction = (...args: never[]) => unknown;

/**
 * How one host function is made for one instance: it acts through the instance's Caller (the
 * shape of wasmtime's `func_wrap`, with the Caller bound once at linking instead of per call).
 */
export type HostFunctionDefinition = (host: Caller) => HostFunction;

/** Some definitions of a host import table (docs/host-abi.md), one file's share. */
export type ImportGroup = Partial<Record<AnyHostImportName, HostFunctionDefinition>>;
