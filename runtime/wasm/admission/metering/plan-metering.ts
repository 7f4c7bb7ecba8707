import { AdmissionError } from '../admission-error.js';
import type { FunctionType, WasmModule } from '../binary/module-types.js';
import { analyseFunction, type FunctionPlan } from './analyse-function.js';
import { hostEntryPoints } from './host-entry-points.js';
import { stackCharges } from './stack-charges.js';

export interface MeteringPlan {
  /** One per defined function, in order. */
  readonly plans: readonly FunctionPlan[];
  /** Stack bytes each defined function reserves on entry (0: none). */
  readonly stackCharges: readonly number[];
  /** Which defined functions the host can call directly; they check fuel on return. */
  readonly entryPoints: readonly boolean[];
}

/** Pass one of metering for a whole module: each body's plan, then what needs the call graph. */
export function planMetering(module: WasmModule): MeteringPlan {
  const functions = {
    types: module.types,
    functionTypes: [...module.imports.map((i) => i.typeIndex), ...module.functionTypes].map((typeIndex, index) =>
      typeOf(module.types, typeIndex, index),
    ),
  };
  const plans = module.bodies.map((body, i) => analyseFunction(module.bytes, body, module.imports.length + i, functions));
  const entryPoints = hostEntryPoints(module);
  return {
    plans,
    stackCharges: stackCharges(plans, { importCount: module.imports.length, tableFunctions: module.tableFunctions, entryPoints }),
    entryPoints,
  };
}

function typeOf(types: readonly FunctionType[], typeIndex: number, functionIndex: number): FunctionType {
  const type = types[typeIndex];
  if (type === undefined) throw new AdmissionError('WASM_INVALID', `function ${functionIndex} names missing type ${typeIndex}`);
  return type;
}
