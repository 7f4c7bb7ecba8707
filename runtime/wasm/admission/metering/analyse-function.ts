import { AdmissionError, malformed } from '../admission-error.js';
import { ByteReader } from '../binary/byte-reader.js';
import { InstructionReader, emptyInstruction } from '../binary/instruction-reader.js';
import type { BodyRange, FunctionType } from '../binary/module-types.js';
import { Flow } from '../binary/opcodes.js';
import { readValueType } from '../binary/read-value-type.js';
import { ValueType, type ValueTypeCode } from '../binary/wasm-constants.js';
import { estimateFrameBytes } from './frame-size.js';
import { METER_GLOBAL_COUNT } from './meter-imports.js';

/** Where the metered body differs from the original. */
export const EditKind = {
  /** Insert `fuel -= value` (start of a basic block). */
  charge: 0,
  /** Insert `fuel -= value` and trap when negative (function entry, loop header). */
  chargeAndCheck: 1,
  /** Insert a store of the fuel local to the shared global before a call. */
  storeFuelBeforeCall: 2,
  /** Insert a reload of the fuel local from the shared global after a call. */
  loadFuelAfterCall: 3,
  /** Insert a charge proportional to the byte count on top of the stack (memory.copy/fill/init). */
  chargeBulk: 4,
  /** Replace global.get/set with the same instruction on global `value`. */
  remapGlobal: 5,
  /** Replace `return` with `br value` to the block that wraps the body. */
  returnToWrapper: 6,
  /** Replace the final `end` with the end of the wrapper block, the epilogue and `end`. */
  functionEnd: 7,
} as const;

/** Fields per edit in FunctionPlan.edits. */
export const EDIT_STRIDE = 4;

export interface FunctionPlan {
  readonly type: FunctionType;
  /** Number of local declaration groups and their raw bytes, copied ahead of the meter locals. */
  readonly localGroupCount: number;
  readonly localGroupsStart: number;
  readonly codeStart: number;
  /** Index of the injected i64 local that holds the fuel while the function runs. */
  readonly fuelLocal: number;
  /** Index of the injected i32 scratch local. */
  readonly scratchLocal: number;
  /** Estimated size of the function's own stack frame. */
  readonly frameBytes: number;
  /** Whether the body contains call or call_indirect (a leaf makes no calls). */
  readonly makesCalls: boolean;
  /** Edits in offset order, EDIT_STRIDE numbers each: start, end (of replaced bytes), kind, value. */
  readonly edits: readonly number[];
}

/** Locals V8 accepts per function, parameters included. */
const ENGINE_MAX_LOCALS = 50_000;
/** The injected fuel and scratch locals. */
export const METER_LOCAL_COUNT = 2;
/** Operand slots the injected sequences push on top of the body's own. */
const METER_OPERAND_SLOTS = 3;

export interface ModuleFunctions {
  readonly types: readonly FunctionType[];
  /** Type of every function in the index space (imports first). */
  readonly functionTypes: readonly FunctionType[];
}

/**
 * Pass one of metering: decodes a body (refusing forbidden instructions), splits it into basic
 * blocks with their static fuel cost, and records every place the metered body differs.
 */
export function analyseFunction(
  bytes: Uint8Array,
  body: BodyRange,
  functionIndex: number,
  module: ModuleFunctions,
): FunctionPlan {
  const where = `function ${functionIndex}`;
  const type = module.functionTypes[functionIndex]!;
  const r = new ByteReader(bytes, body.start, body.end);

  let scalarLocals = 0;
  let vectorLocals = 0;
  const countLocal = (valueType: ValueTypeCode, count: number) => {
    if (valueType === ValueType.v128) vectorLocals += count;
    else scalarLocals += count;
  };
  for (const param of type.params) countLocal(param, 1);
  const localGroupCount = r.u32();
  const localGroupsStart = r.offset;
  for (let i = 0; i < localGroupCount; i++) {
    const count = r.u32();
    countLocal(readValueType(r, `among the locals of ${where}`), count);
    if (scalarLocals + vectorLocals > ENGINE_MAX_LOCALS - METER_LOCAL_COUNT) {
      throw new AdmissionError('WASM_LIMIT', `${where} has more than ${ENGINE_MAX_LOCALS - METER_LOCAL_COUNT} locals`);
    }
  }
  const fuelLocal = scalarLocals + vectorLocals;
  const codeStart = r.offset;

  const edits: number[] = [];
  const edit = (start: number, end: number, kind: number, value = 0): number => {
    edits.push(start, end, kind, value);
    return edits.length - EDIT_STRIDE;
  };

  // Control frames: operand height at entry and result count; frame 0 is the function itself.
  const frameHeights = [0];
  const frameResults = [type.results.length];
  let height = 0;
  let maxHeight = 0;
  let usesVectors = vectorLocals > 0;
  const popPush = (pops: number, pushes: number) => {
    // Below the frame's entry height the stack is polymorphic (unreachable code): clamp.
    height = Math.max(frameHeights[frameHeights.length - 1]!, height - pops) + pushes;
    if (height > maxHeight) maxHeight = height;
  };

  let makesCalls = false;
  let hasLoops = false;
  // The value slot of the charge edit that opened the current basic block; -1 in dead code.
  const entryCharge = edit(codeStart, codeStart, EditKind.chargeAndCheck);
  let blockCharge = entryCharge + 3;
  const startBlock = (at: number, kind: number) => {
    blockCharge = edit(at, at, kind) + 3;
  };
  const endReachableCode = () => {
    height = frameHeights[frameHeights.length - 1]!;
    blockCharge = -1;
  };

  const reader = new InstructionReader(r, module.types, where);
  const ins = emptyInstruction();
  for (;;) {
    if (r.atEnd()) throw malformed(`${where} ends without a final end`, r.offset);
    reader.read(ins);
    const info = ins.info;
    if (blockCharge >= 0) edits[blockCharge]! += info.cost;
    if (info.vector) usesVectors = true;
    switch (info.flow) {
      case Flow.plain:
        popPush(info.pops, info.pushes);
        break;
      case Flow.global:
        popPush(info.pops, info.pushes);
        edit(ins.start, r.offset, EditKind.remapGlobal, ins.index + METER_GLOBAL_COUNT);
        break;
      case Flow.call:
      case Flow.callIndirect: {
        const callee = info.flow === Flow.call ? module.functionTypes[ins.index] : module.types[ins.index];
        if (callee === undefined) {
          throw new AdmissionError('WASM_INVALID', `${info.name} in ${where} names missing ${info.flow === Flow.call ? 'function' : 'type'} ${ins.index}`);
        }
        makesCalls = true;
        edit(ins.start, ins.start, EditKind.storeFuelBeforeCall);
        popPush(callee.params.length + info.pops, callee.results.length);
        edit(r.offset, r.offset, EditKind.loadFuelAfterCall);
        break;
      }
      case Flow.sizedBulk:
        edit(ins.start, ins.start, EditKind.chargeBulk);
        popPush(info.pops, info.pushes);
        break;
      case Flow.block:
      case Flow.loop:
      case Flow.if:
        popPush(info.pops, 0);
        frameHeights.push(height);
        frameResults.push(ins.blockResults);
        if (info.flow === Flow.loop) {
          hasLoops = true;
          startBlock(r.offset, EditKind.chargeAndCheck);
        }
        else if (info.flow === Flow.if) startBlock(r.offset, EditKind.charge);
        break;
      case Flow.else:
        if (frameHeights.length === 1) throw malformed(`else without if in ${where}`, ins.start);
        height = frameHeights[frameHeights.length - 1]!;
        startBlock(r.offset, EditKind.charge);
        break;
      case Flow.end:
        if (frameHeights.length === 1) {
          if (!r.atEnd()) throw malformed(`code after the final end of ${where}`, r.offset);
          edit(ins.start, r.offset, EditKind.functionEnd);
          // Without loops or calls a body runs at most once through: charging is enough.
          if (!hasLoops && !makesCalls) edits[entryCharge + 2] = EditKind.charge;
          return {
            type,
            localGroupCount,
            localGroupsStart,
            codeStart,
            fuelLocal,
            scratchLocal: fuelLocal + 1,
            frameBytes: estimateFrameBytes({
              scalarLocals: scalarLocals + METER_LOCAL_COUNT,
              vectorLocals,
              maxOperandDepth: maxHeight + METER_OPERAND_SLOTS,
              usesVectors,
            }),
            makesCalls,
            edits,
          };
        }
        height = frameHeights.pop()! + frameResults.pop()!;
        if (height > maxHeight) maxHeight = height;
        startBlock(r.offset, EditKind.charge);
        break;
      case Flow.brIf:
        popPush(info.pops, 0);
        startBlock(r.offset, EditKind.charge);
        break;
      case Flow.return:
        edit(ins.start, r.offset, EditKind.returnToWrapper, frameHeights.length - 1);
        endReachableCode();
        break;
      case Flow.br:
      case Flow.brTable:
      case Flow.unreachable:
        endReachableCode();
        break;
    }
  }
}
