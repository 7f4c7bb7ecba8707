import { AdmissionError, malformed } from '../admission-error.js';
import { ByteReader } from '../binary/byte-reader.js';
import { InstructionReader, emptyInstruction, type Instruction } from '../binary/instruction-reader.js';
import type { BodyRange, FunctionType } from '../binary/module-types.js';
import { Flow } from '../binary/opcodes.js';
import { readValueType } from '../binary/read-value-type.js';
import { ValueType, type ValueTypeCode } from '../binary/wasm-constants.js';
import { estimateFrameBytes } from './frame-size.js';
import { METER_GLOBAL_COUNT } from './meter-imports.js';

/** Where the metered body differs from the original. */
export const EditKind = {
  /** Insert `fuel -= value` (start of a region). */
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
  /** Functions the body calls directly (imports included), each once. */
  readonly directCallees: readonly number[];
  /** Whether the body contains call_indirect (it may call any function of the table). */
  readonly callsIndirectly: boolean;
  /**
   * Whether the body reads segments or changes the table (memory.init, table.init, table.copy):
   * then an instance's state is more than its memory and globals, and it cannot be reset.
   */
  readonly usesSegmentState: boolean;
  /** Edits in offset order, EDIT_STRIDE numbers each: start, end (of replaced bytes), kind, value. */
  readonly edits: readonly number[];
}

export interface ModuleFunctions {
  readonly types: readonly FunctionType[];
  /** Type of every function in the index space (imports first). */
  readonly functionTypes: readonly FunctionType[];
}

const SEGMENT_STATE_OPS: ReadonlySet<string> = new Set(['memory.init', 'table.init', 'table.copy']);

/** Locals V8 accepts per function, parameters included. */
const ENGINE_MAX_LOCALS = 50_000;
/** The injected fuel and scratch locals. */
const METER_LOCAL_COUNT = 2;
/** Operand slots the injected sequences push on top of the body's own. */
const METER_OPERAND_SLOTS = 3;

/** A region is named by the edit-list slot holding its cost; code that cannot run has none. */
const UNREACHABLE = -1;

interface ControlFrame {
  readonly flow: number;
  /** Operand-stack height when the construct starts. */
  readonly height: number;
  readonly results: number;
  /** Region of the instruction that opens the construct (an if's false path leaves from it). */
  readonly entryRegion: number;
  /** Region opened by the construct itself: a loop's header, an if's then-branch. */
  readonly ownRegion: number;
  /** For an if that has an else: the region in which the then-branch reaches the else. */
  thenExit: number | undefined;
  /** A branch targets the construct's label, so its end can be reached from inside. */
  targeted: boolean;
}

function frame(flow: number, height: number, results: number, entryRegion: number, ownRegion: number): ControlFrame {
  return { flow, height, results, entryRegion, ownRegion, thenExit: undefined, targeted: false };
}

/**
 * Pass one of metering: decodes a body (refusing forbidden instructions), splits it into
 * regions charged up front with their static cost, and records every place the metered body
 * differs from the original.
 *
 * Regions start at the function entry, at loop headers, at then and else branches, and at the
 * end of a construct that several paths reach. Code after a br_if, or after an end that only one
 * path reaches, stays in the region before it: that region is charged whenever the code runs,
 * and an exit taken early is charged for code it skipped, which keeps the counting cheap and
 * still deterministic (see also foldLoopExitTest). Fuel is checked at entry and at loop headers,
 * the only places where execution can come back, so a loop or recursion always meets a check.
 */
export function analyseFunction(bytes: Uint8Array, body: BodyRange, functionIndex: number, module: ModuleFunctions): FunctionPlan {
  return new FunctionAnalysis(bytes, body, functionIndex, module).run();
}

class FunctionAnalysis {
  private readonly where: string;
  private readonly type: FunctionType;
  private readonly r: ByteReader;
  private readonly edits: number[] = [];
  private readonly frames: ControlFrame[] = [];
  private region = UNREACHABLE;
  private height = 0;
  private maxHeight = 0;
  private readonly directCallees = new Set<number>();
  private callsIndirectly = false;
  private usesSegmentState = false;
  private hasLoops = false;
  private usesVectors = false;
  /** The last if without else whose then-branch cannot fall through, and the offset after its end. */
  private lastClosedIf: { end: number; frame: ControlFrame } | undefined;

  constructor(
    bytes: Uint8Array,
    body: BodyRange,
    functionIndex: number,
    private readonly module: ModuleFunctions,
  ) {
    this.where = `function ${functionIndex}`;
    this.type = module.functionTypes[functionIndex]!;
    this.r = new ByteReader(bytes, body.start, body.end);
  }

  run(): FunctionPlan {
    const r = this.r;
    const locals = this.readLocals();
    const codeStart = r.offset;
    const entryEdit = this.edits.length;
    this.region = this.startRegion(codeStart, EditKind.chargeAndCheck);
    this.frames.push(frame(Flow.block, 0, this.type.results.length, this.region, this.region));

    const reader = new InstructionReader(r, this.module.types, this.where);
    const ins = emptyInstruction();
    while (this.frames.length > 0) {
      if (r.atEnd()) throw malformed(`${this.where} ends without a final end`, r.offset);
      reader.read(ins);
      this.step(ins);
    }
    if (!r.atEnd()) throw malformed(`code after the final end of ${this.where}`, r.offset);
    // Without loops or calls a body runs through at most once: charging it is enough.
    if (!this.hasLoops && this.directCallees.size === 0 && !this.callsIndirectly) this.edits[entryEdit + 2] = EditKind.charge;

    return {
      type: this.type,
      localGroupCount: locals.groupCount,
      localGroupsStart: locals.groupsStart,
      codeStart,
      fuelLocal: locals.count,
      scratchLocal: locals.count + 1,
      frameBytes: estimateFrameBytes({
        scalarLocals: locals.count - locals.vectors + METER_LOCAL_COUNT,
        vectorLocals: locals.vectors,
        maxOperandDepth: this.maxHeight + METER_OPERAND_SLOTS,
        usesVectors: this.usesVectors || locals.vectors > 0,
      }),
      directCallees: [...this.directCallees],
      callsIndirectly: this.callsIndirectly,
      usesSegmentState: this.usesSegmentState,
      edits: this.edits,
    };
  }

  private readLocals(): { groupCount: number; groupsStart: number; count: number; vectors: number } {
    const r = this.r;
    let count = this.type.params.length;
    let vectors = this.type.params.filter((t) => t === ValueType.v128).length;
    const groupCount = r.u32();
    const groupsStart = r.offset;
    for (let i = 0; i < groupCount; i++) {
      const n = r.u32();
      const valueType: ValueTypeCode = readValueType(r, `among the locals of ${this.where}`);
      count += n;
      if (valueType === ValueType.v128) vectors += n;
      if (count > ENGINE_MAX_LOCALS - METER_LOCAL_COUNT) {
        throw new AdmissionError('WASM_LIMIT', `${this.where} has more than ${ENGINE_MAX_LOCALS - METER_LOCAL_COUNT} locals`);
      }
    }
    return { groupCount, groupsStart, count, vectors };
  }

  private step(ins: Instruction): void {
    const info = ins.info;
    const end = this.r.offset;
    if (this.region !== UNREACHABLE) this.edits[this.region]! += info.cost;
    if (info.vector) this.usesVectors = true;
    if (SEGMENT_STATE_OPS.has(info.name)) this.usesSegmentState = true;
    switch (info.flow) {
      case Flow.plain:
        this.popPush(info.pops, info.pushes);
        return;
      case Flow.global:
        this.popPush(info.pops, info.pushes);
        this.edit(ins.start, end, EditKind.remapGlobal, ins.index + METER_GLOBAL_COUNT);
        return;
      case Flow.call:
      case Flow.callIndirect: {
        const direct = info.flow === Flow.call;
        const callee = direct ? this.module.functionTypes[ins.index] : this.module.types[ins.index];
        if (callee === undefined) {
          throw new AdmissionError('WASM_INVALID', `${info.name} in ${this.where} names missing ${direct ? 'function' : 'type'} ${ins.index}`);
        }
        if (direct) this.directCallees.add(ins.index);
        else this.callsIndirectly = true;
        this.edit(ins.start, ins.start, EditKind.storeFuelBeforeCall);
        this.popPush(callee.params.length + info.pops, callee.results.length);
        this.edit(end, end, EditKind.loadFuelAfterCall);
        return;
      }
      case Flow.sizedBulk:
        this.edit(ins.start, ins.start, EditKind.chargeBulk);
        this.popPush(info.pops, info.pushes);
        return;
      case Flow.block:
      case Flow.loop:
      case Flow.if: {
        this.popPush(info.pops, 0);
        const entryRegion = this.region;
        if (info.flow === Flow.loop) {
          this.hasLoops = true;
          this.region = this.startRegion(end, EditKind.chargeAndCheck);
        } else if (info.flow === Flow.if) {
          this.region = entryRegion === UNREACHABLE ? UNREACHABLE : this.startRegion(end, EditKind.charge);
        }
        this.frames.push(frame(info.flow, this.height, ins.blockResults, entryRegion, this.region));
        return;
      }
      case Flow.else: {
        const frame = this.innermost();
        if (frame.flow !== Flow.if || frame.thenExit !== undefined) throw malformed(`else without if in ${this.where}`, ins.start);
        frame.thenExit = this.region;
        this.height = frame.height;
        this.region = frame.entryRegion === UNREACHABLE ? UNREACHABLE : this.startRegion(end, EditKind.charge);
        return;
      }
      case Flow.end:
        this.endConstruct(ins, end);
        return;
      case Flow.brIf:
        this.popPush(info.pops, 0);
        this.target(ins.index);
        return;
      case Flow.br:
        this.target(ins.index);
        this.becomeUnreachable();
        return;
      case Flow.brTable:
        for (const depth of ins.targets) this.target(depth);
        this.becomeUnreachable();
        return;
      case Flow.return:
        this.edit(ins.start, end, EditKind.returnToWrapper, this.frames.length - 1);
        this.becomeUnreachable();
        return;
      case Flow.unreachable:
        this.becomeUnreachable();
        return;
    }
  }

  /** After an end: which region the following code belongs to. */
  private endConstruct(ins: Instruction, end: number): void {
    const frame = this.frames.pop()!;
    if (this.frames.length === 0) {
      this.edit(ins.start, end, EditKind.functionEnd);
      return;
    }
    const fallthrough = this.region;
    this.height = frame.height + frame.results;
    this.maxHeight = Math.max(this.maxHeight, this.height);
    if (frame.flow === Flow.loop) this.foldLoopExitTest(ins.start);
    if (frame.flow === Flow.loop || frame.targeted) {
      // A loop's end follows its last region once per loop, not once per iteration; a targeted
      // end is reached from inside: both start a region of their own.
      this.region = this.startRegion(end, EditKind.charge);
      return;
    }
    // The other way to the end: an if's false path, or the then-branch when there is an else.
    const other = frame.flow !== Flow.if ? UNREACHABLE : (frame.thenExit ?? frame.entryRegion);
    if (fallthrough === UNREACHABLE) this.region = other;
    else if (other === UNREACHABLE) this.region = fallthrough;
    else this.region = this.startRegion(end, EditKind.charge);
    if (frame.flow === Flow.if && frame.thenExit === undefined && fallthrough === UNREACHABLE && !frame.targeted) {
      this.lastClosedIf = { end, frame };
    }
  }

  /**
   * Compilers shape loops as `loop (if cond (then body... br loop))`: the if's false path is the
   * loop exit. Its then-branch's first region then joins the region of the test, so an iteration
   * pays one charge; the exit pays for code it skips, once per loop.
   */
  private foldLoopExitTest(loopEnd: number): void {
    const closed = this.lastClosedIf;
    if (closed === undefined || closed.end !== loopEnd) return;
    const { entryRegion, ownRegion } = closed.frame;
    if (entryRegion === UNREACHABLE || ownRegion === UNREACHABLE) return;
    this.edits[entryRegion]! += this.edits[ownRegion]!;
    this.edits[ownRegion] = 0;
  }

  private innermost(): ControlFrame {
    return this.frames[this.frames.length - 1]!;
  }

  private target(depth: number): void {
    const frame = this.frames[this.frames.length - 1 - depth];
    if (frame === undefined) throw new AdmissionError('WASM_INVALID', `branch to missing label ${depth} in ${this.where}`);
    frame.targeted = true;
  }

  private becomeUnreachable(): void {
    this.height = this.innermost().height;
    this.region = UNREACHABLE;
  }

  private popPush(pops: number, pushes: number): void {
    // Below the construct's entry height the stack is polymorphic (unreachable code): clamp.
    this.height = Math.max(this.innermost().height, this.height - pops) + pushes;
    if (this.height > this.maxHeight) this.maxHeight = this.height;
  }

  private edit(start: number, end: number, kind: number, value = 0): void {
    this.edits.push(start, end, kind, value);
  }

  /** Adds a charge edit and returns the slot of its cost. */
  private startRegion(at: number, kind: number): number {
    this.edit(at, at, kind);
    return this.edits.length - 1;
  }
}
