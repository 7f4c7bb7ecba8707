import { Limits } from '../../host-api/abi/databases.js';
import { TsibaseError } from '../../host-api/errors.js';
import { WebAssemblyJs, type WasmGlobal, type WasmMemory } from './admission/webassembly-api.js';
import { createFuelCounter, type FuelCounter } from './fuel-counter.js';
import { hostSuppliedImports, type MeterCounters } from './admission/host-supplied-imports.js';

// The run-time meter (docs/host-abi.md §10): admission rewrites a module at deploy time so that it
// charges two imported counters (admission/index.ts); this is what keeps those counters while code
// runs, one ExecutionMeter per execution context, as wasmtime keeps fuel on its Store.
// - createMeterGlobals when instances outlive a context and the counters are reloaded per context;
//   pass importObject() next to the `env` functions. A trap while a counter is below zero is that
//   limit: `catch (e) { throw meter.limitError() ?? e; }`. A normal return from an export or the
//   start function leaves fuel >= 0.
// - Host imports charge the same counter (chargeHostFuel) for the call, the bytes they move and the
//   rows they visit (host-imports/fuel-schedule.ts, docs/host-abi.md §10.1); `call` brackets the
//   nested execution with reserveStack/releaseStack. A host that catches an error and keeps running
//   the context must restore stack.value to its value before the call (frames left by the trap).

export type ExecutionLimitCode = 'WASM_FUEL_EXHAUSTED' | 'WASM_STACK_OVERFLOW';

/** An execution context ran out of fuel or stack; every node reaches the same verdict. */
export class ExecutionLimitError extends TsibaseError {
  declare readonly code: ExecutionLimitCode;

  constructor(code: ExecutionLimitCode, message: string) {
    super(code, message);
  }
}

/** A fuel amount as fuelValue reads it: a number below 2^53 in magnitude, else a BigInt. */
export type FuelValue = number | bigint;

/** `amount` as a FuelValue. */
export function fuelValueOf(amount: bigint): FuelValue {
  const value = Number(amount);
  return Number.isSafeInteger(value) ? value : amount;
}

export interface ExecutionBudget {
  /** Instructions (fuel units) the whole context may execute. */
  readonly fuel: bigint;
  /** Bytes of estimated wasm stack (frames plus the host's reservations for `call`). */
  readonly stackBytes?: number;
}

/** Fuel budgets are below this: the counter is a signed i64. */
const FUEL_LIMIT = 1n << 63n;

/** Default stack budget: the host's limit (docs/host-abi.md §10). */
export const DEFAULT_STACK_BYTES = Limits.maxStackBytes;

export interface MeterGlobals extends MeterCounters {
  /** Fast access to `fuel` from JavaScript. */
  readonly fuelCounter: FuelCounter;
}

/** A fresh pair of counter globals, as metered modules import them. */
export function createMeterGlobals(fuel = 0n, stackBytes = 0): MeterGlobals {
  const fuelGlobal = new WebAssemblyJs.Global({ value: 'i64', mutable: true }, fuel);
  return {
    fuel: fuelGlobal,
    stack: new WebAssemblyJs.Global({ value: 'i32', mutable: true }, stackBytes),
    fuelCounter: createFuelCounter(fuelGlobal),
  };
}

/**
 * The fuel and stack counters of one execution context (one transaction, query or callback),
 * shared by all its instances through the imported meter globals.
 */
export class ExecutionMeter {
  readonly fuel: WasmGlobal<bigint>;
  readonly stack: WasmGlobal<number>;
  readonly budget: Required<ExecutionBudget>;
  private readonly counter: FuelCounter;

  /**
   * `globals`, when given, are counters shared with other meters (an engine whose instances
   * outlive one context); their owner loads this meter's budget into them while its context runs.
   */
  constructor(budget: ExecutionBudget, globals?: MeterGlobals) {
    this.budget = { stackBytes: DEFAULT_STACK_BYTES, ...budget };
    // The counters are a signed i64 and a signed i32 that start non-negative.
    const { fuel, stackBytes } = this.budget;
    if (fuel < 0n || fuel >= FUEL_LIMIT) throw new RangeError(`fuel budget out of range: ${fuel}`);
    if (!Number.isInteger(stackBytes) || stackBytes < 0 || stackBytes > 0x7fffffff) {
      throw new RangeError(`stack budget out of range: ${stackBytes}`);
    }
    const counters = globals ?? createMeterGlobals(fuel, stackBytes);
    this.fuel = counters.fuel;
    this.stack = counters.stack;
    this.counter = counters.fuelCounter;
  }

  /** The import object entry of what the host supplies to an instance of this context: these counters and its `memory`. */
  importObject(memory?: WasmMemory): Record<string, Record<string, unknown>> {
    return hostSuppliedImports(this, memory);
  }

  /** Fuel used so far (more than the budget once exhausted: the charge that crossed zero counts). */
  consumedFuel(): bigint {
    return this.budget.fuel - this.fuel.value;
  }

  /** Charges fuel for host work (e.g. per byte copied by an import). */
  chargeFuel(amount: bigint): void {
    this.fuel.value -= amount;
    if (this.fuel.value < 0n) throw this.fuelExhausted();
  }

  /** chargeFuel for an amount below 2^53, without BigInts: host imports charge on most calls. */
  chargeHostFuel(units: number): void {
    if (this.counter.charge(units) !== 0) throw this.fuelExhausted();
  }

  /**
   * The fuel counter's value (read as a context stops running): a number while its magnitude is
   * below 2^53 (every real budget), which spares the BigInts; exact either way.
   */
  fuelValue(): FuelValue {
    const value = this.counter.get();
    // Rounded only at 2^53 or more, where it is no longer a safe integer: read it exactly then.
    return Number.isSafeInteger(value) ? value : this.fuel.value;
  }

  /** Loads the fuel counter with `value` (as a context starts running). */
  loadFuel(value: FuelValue): void {
    if (typeof value === 'number') this.counter.set(value);
    else this.fuel.value = value;
  }

  /** Reserves stack for a nested `call` (docs/host-abi.md §6 step 1); pair with releaseStack. */
  reserveStack(bytes: number): void {
    // Each read or write of a global crosses into the engine: the value is read once.
    const left = this.stack.value - bytes;
    this.stack.value = left;
    if (left < 0) throw this.stackOverflow();
  }

  releaseStack(bytes: number): void {
    this.stack.value += bytes;
  }

  /**
   * The limit error behind a trap, if any: metered code traps with `unreachable` after leaving
   * the exhausted counter negative, so a caught WebAssembly.RuntimeError is a limit error exactly
   * when a counter is below zero (fuel is checked first). Use: `catch (e) { throw meter.limitError() ?? e; }`.
   */
  limitError(): ExecutionLimitError | undefined {
    if (this.fuel.value < 0n) return this.fuelExhausted();
    if (this.stack.value < 0) return this.stackOverflow();
    return undefined;
  }

  private fuelExhausted(): ExecutionLimitError {
    return new ExecutionLimitError('WASM_FUEL_EXHAUSTED', `fuel exhausted: the execution needs more than its budget of ${this.budget.fuel} instructions`);
  }

  private stackOverflow(): ExecutionLimitError {
    return new ExecutionLimitError('WASM_STACK_OVERFLOW', `stack overflow: nested calls need more than the stack budget of ${this.budget.stackBytes} bytes`);
  }
}
