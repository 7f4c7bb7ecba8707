import type { HostImportName } from '../../../host-api/abi/imports.js';

/** A host function as the linker binds it. */
export type HostFunction = (...args: never[]) => unknown;

/** Some functions of the host import table (docs/host-abi.md), one file's share. */
export type ImportGroup = Partial<Record<HostImportName, HostFunction>>;
