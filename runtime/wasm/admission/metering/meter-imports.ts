// The two globals that metered code imports (from HOST_SUPPLIED_MODULE), shared by every instance of
// one execution context. Admission prepends them to the global index space; the host creates them
// (ExecutionMeter).

/** Mutable i64: fuel left. Charged at every basic block; exhaustion traps once it is negative. */
export const FUEL_IMPORT_NAME = 'fuel';

/** Mutable i32: stack budget left in bytes. Each call reserves its frame estimate until it returns. */
export const STACK_IMPORT_NAME = 'stack';

export const FUEL_GLOBAL_INDEX = 0;
export const STACK_GLOBAL_INDEX = 1;

/** How far the module's own global indices move to make room for the imports. */
export const METER_GLOBAL_COUNT = 2;
