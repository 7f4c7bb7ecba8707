import { ByteWriter } from '../binary/byte-writer.js';
import { BLOCK_TYPE_EMPTY, Opcode, ValueType } from '../binary/wasm-constants.js';
import type { CodeOffsets } from '../code-offsets.js';
import { EDIT_STRIDE, EditKind, type FunctionPlan } from './analyse-function.js';
import { FUEL_GLOBAL_INDEX, STACK_GLOBAL_INDEX } from './meter-imports.js';

export interface MeteringShape {
  /** Stack bytes the function reserves; 0 for none (a caller reserves for it, see stack-charges.ts). */
  readonly stackCharge: number;
  /** Trap on return when fuel is negative (functions the host calls, see host-entry-points.ts). */
  readonly checkOnReturn: boolean;
  /** memory.copy/fill/init of n bytes cost n >> bulkShift on top of 1. */
  readonly bulkShift: number;
}

/**
 * Pass two of metering: writes the body with the plan's edits applied, appending to `out`:
 *
 *   stack -= stackCharge; trap if stack < 0      (call depth, shared with the host's `call`)
 *   fuel local := fuel global
 *   block (result of the function)
 *     <original code: a charge per region, a check at entry and loop headers, the fuel
 *      stored around calls, `return` turned into a branch to this block>
 *   end
 *   stack += stackCharge; fuel global := fuel local; [trap if fuel < 0]
 *
 * so every exit except a trap gives its frame back and publishes the fuel it used. Each stretch
 * of original code copied is told to `offsets` with its place in `out`.
 */
export function emitMeteredFunction(bytes: Uint8Array, plan: FunctionPlan, shape: MeteringShape, out: ByteWriter, offsets: CodeOffsets): void {
  const { stackCharge, checkOnReturn, bulkShift } = shape;
  const fuel = plan.fuelLocal;
  const scratch = plan.scratchLocal;

  const trapIfFuelNegative = () => {
    out.u8(Opcode.i64Const).signed(0).u8(Opcode.i64LtS).u8(Opcode.if).u8(BLOCK_TYPE_EMPTY);
    out.u8(Opcode.localGet).u32(fuel).u8(Opcode.globalSet).u32(FUEL_GLOBAL_INDEX).u8(Opcode.unreachable).u8(Opcode.end);
  };
  const charge = (cost: number, check: boolean) => {
    if (cost > 0) {
      out.u8(Opcode.localGet).u32(fuel).u8(Opcode.i64Const).signed(cost).u8(Opcode.i64Sub);
      out.u8(check ? Opcode.localTee : Opcode.localSet).u32(fuel);
    } else if (check) {
      out.u8(Opcode.localGet).u32(fuel);
    }
    if (check) trapIfFuelNegative();
  };

  // Locals: the original groups, then one group each for the fuel (i64) and scratch (i32) locals.
  out.u32(plan.localGroupCount + 2);
  out.copy(bytes, plan.localGroupsStart, plan.codeStart);
  out.u32(1).u8(ValueType.i64).u32(1).u8(ValueType.i32);

  // Prologue.
  if (stackCharge > 0) {
    out.u8(Opcode.globalGet).u32(STACK_GLOBAL_INDEX).u8(Opcode.i32Const).signed(stackCharge).u8(Opcode.i32Sub);
    out.u8(Opcode.localTee).u32(scratch).u8(Opcode.globalSet).u32(STACK_GLOBAL_INDEX);
    out.u8(Opcode.localGet).u32(scratch).u8(Opcode.i32Const).signed(0).u8(Opcode.i32LtS);
    out.u8(Opcode.if).u8(BLOCK_TYPE_EMPTY).u8(Opcode.unreachable).u8(Opcode.end);
  }
  out.u8(Opcode.globalGet).u32(FUEL_GLOBAL_INDEX).u8(Opcode.localSet).u32(fuel);
  out.u8(Opcode.block).u8(plan.type.results[0] ?? BLOCK_TYPE_EMPTY);

  const edits = plan.edits;
  let copied = plan.codeStart;
  for (let i = 0; i < edits.length; i += EDIT_STRIDE) {
    const start = edits[i]!;
    const kind = edits[i + 2]!;
    const value = edits[i + 3]!;
    if (start > copied) offsets.copied(copied, out.length);
    out.copy(bytes, copied, start);
    copied = edits[i + 1]!;
    switch (kind) {
      case EditKind.charge:
        charge(value, false);
        break;
      case EditKind.chargeAndCheck:
        charge(value, true);
        break;
      case EditKind.storeFuelBeforeCall:
        out.u8(Opcode.localGet).u32(fuel).u8(Opcode.globalSet).u32(FUEL_GLOBAL_INDEX);
        break;
      case EditKind.loadFuelAfterCall:
        out.u8(Opcode.globalGet).u32(FUEL_GLOBAL_INDEX).u8(Opcode.localSet).u32(fuel);
        break;
      case EditKind.chargeBulk:
        out.u8(Opcode.localTee).u32(scratch);
        out.u8(Opcode.localGet).u32(fuel).u8(Opcode.localGet).u32(scratch).u8(Opcode.i64ExtendI32U);
        out.u8(Opcode.i64Const).signed(bulkShift).u8(Opcode.i64ShrU).u8(Opcode.i64Sub).u8(Opcode.localTee).u32(fuel);
        trapIfFuelNegative();
        break;
      case EditKind.remapGlobal:
        out.u8(bytes[start]!).u32(value);
        break;
      case EditKind.returnToWrapper:
        out.u8(Opcode.br).u32(value);
        break;
      case EditKind.functionEnd:
        out.u8(Opcode.end);
        if (stackCharge > 0) {
          out.u8(Opcode.globalGet).u32(STACK_GLOBAL_INDEX).u8(Opcode.i32Const).signed(stackCharge).u8(Opcode.i32Add);
          out.u8(Opcode.globalSet).u32(STACK_GLOBAL_INDEX);
        }
        out.u8(Opcode.localGet).u32(fuel).u8(Opcode.globalSet).u32(FUEL_GLOBAL_INDEX);
        if (checkOnReturn) {
          out.u8(Opcode.localGet).u32(fuel);
          trapIfFuelNegative();
        }
        out.u8(Opcode.end);
        break;
    }
  }
}
