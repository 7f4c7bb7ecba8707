// Upper bound of the machine stack a call of a function takes, charged against the stack
// budget so our counter, not V8's RangeError, decides when recursion is too deep.
//
// Measured on Node 20 (x64, V8 Liftoff, the larger of V8's two tiers; TurboFan frames came out
// at ~48 bytes whatever the locals): a frame is ~64 bytes plus 8 bytes per local or operand-stack
// slot, 16 for v128. The estimate adds headroom to the fixed part and counts every operand slot
// of a function that uses SIMD as 16 bytes.

const FRAME_BASE_BYTES = 96;
const SCALAR_SLOT_BYTES = 8;
const VECTOR_SLOT_BYTES = 16;

export interface FrameShape {
  /** Parameters and locals of types i32, i64, f32, f64. */
  readonly scalarLocals: number;
  readonly vectorLocals: number;
  /** Highest operand-stack depth the body can reach. */
  readonly maxOperandDepth: number;
  readonly usesVectors: boolean;
}

export function estimateFrameBytes(shape: FrameShape): number {
  const operandSlotBytes = shape.usesVectors ? VECTOR_SLOT_BYTES : SCALAR_SLOT_BYTES;
  return (
    FRAME_BASE_BYTES +
    shape.scalarLocals * SCALAR_SLOT_BYTES +
    shape.vectorLocals * VECTOR_SLOT_BYTES +
    shape.maxOperandDepth * operandSlotBytes
  );
}
