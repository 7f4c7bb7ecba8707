// Deploy-time limits (docs/host-abi.md §10) and metering settings. Runtime budgets (fuel, stack
// bytes) are not here: they belong to each execution context (ExecutionMeter).

import { Limits } from '../../../host-api/abi/databases.js';

export interface AdmissionOptions {
  /** Largest accepted module, in bytes (code is stored as one value). */
  readonly maxCodeBytes?: number;
  /** Memory cap in 64 KiB pages: larger initial sizes are refused, the maximum is set to it. */
  readonly maxMemoryPages?: number;
  /** Largest initial table size. */
  readonly maxTableElements?: number;
  /** Total size of all mutable globals. */
  readonly maxMutableGlobalBytes?: number;
  /** memory.copy/fill/init cost one fuel per this many bytes on top of 1; a power of two. */
  readonly bulkBytesPerFuel?: number;
}

export const DEFAULT_ADMISSION_OPTIONS: Required<AdmissionOptions> = {
  maxCodeBytes: Limits.maxValueSize,
  maxMemoryPages: Limits.maxMemoryPages,
  maxTableElements: Limits.maxTableElements,
  maxMutableGlobalBytes: Limits.maxMutableGlobalBytes,
  bulkBytesPerFuel: 64,
};
