// SeaHash, the hash psibase uses for method names too long for the arithmetic coder.
// 64-bit words are kept as two uint32 halves so hashing needs no BigInt until the result.

const P_HI = 0x6eed0e9d;
const P_LO = 0xa4d94a4f;
const TWO_16 = 0x10000;
const TWO_32 = 0x100000000;

// Output of the last multiply; module-level so the hot loop allocates nothing.
let productHi = 0;
let productLo = 0;

// Assembles the BigInt result without BigInt shifts and ors.
const result = new DataView(new ArrayBuffer(8));

// product = P * x mod 2^64. The low halves are multiplied in 16-bit limbs so every
// partial sum stays an exact double; the cross terms only matter mod 2^32 (Math.imul).
function multiplyByP(xHi: number, xLo: number): void {
  const p1 = P_LO >>> 16;
  const p0 = P_LO & 0xffff;
  const x1 = xLo >>> 16;
  const x0 = xLo & 0xffff;
  const middle = p0 * x1 + p1 * x0;
  const low = p0 * x0 + (middle % TWO_16) * TWO_16;
  productLo = low >>> 0;
  productHi = (p1 * x1 + Math.floor(middle / TWO_16) + Math.floor(low / TWO_32)
    + Math.imul(P_HI, xLo) + Math.imul(P_LO, xHi)) >>> 0;
}

// SeaHash's diffusion g(x): y = P*x; y ^= (y >> 32) >> (y >> 60); return P*y.
function diffuse(xHi: number, xLo: number): void {
  multiplyByP(xHi, xLo);
  const yHi = productHi;
  multiplyByP(yHi, productLo ^ (yHi >>> (yHi >>> 28)));
}

/** SeaHash of bytes[0, length) as an unsigned 64-bit value. */
export function seahash(bytes: Uint8Array, length: number = bytes.length): bigint {
  let s0Hi = 0x16f11fe8, s0Lo = 0x9b0d677c;
  let s1Hi = 0xb480a793, s1Lo = 0xd8e6c86c;
  let s2Hi = 0x6fe2e5aa, s2Lo = 0xf078ebc9;
  let s3Hi = 0x14f994a4, s3Lo = 0xc5259381;
  for (let start = 0; start < length; start += 8) {
    // Little-endian 8-byte chunk; a short last chunk is zero-extended.
    let chunkLo = 0;
    let chunkHi = 0;
    const end = Math.min(start + 8, length);
    for (let i = start; i < end; i++) {
      const shift = (i - start) * 8;
      if (shift < 32) chunkLo |= bytes[i] << shift;
      else chunkHi |= bytes[i] << (shift - 32);
    }
    switch ((start >>> 3) & 3) {
      case 0: diffuse(s0Hi ^ chunkHi, s0Lo ^ chunkLo); s0Hi = productHi; s0Lo = productLo; break;
      case 1: diffuse(s1Hi ^ chunkHi, s1Lo ^ chunkLo); s1Hi = productHi; s1Lo = productLo; break;
      case 2: diffuse(s2Hi ^ chunkHi, s2Lo ^ chunkLo); s2Hi = productHi; s2Lo = productLo; break;
      default: diffuse(s3Hi ^ chunkHi, s3Lo ^ chunkLo); s3Hi = productHi; s3Lo = productLo;
    }
  }
  diffuse(s0Hi ^ s1Hi ^ s2Hi ^ s3Hi ^ Math.floor(length / TWO_32), s0Lo ^ s1Lo ^ s2Lo ^ s3Lo ^ length);
  result.setUint32(0, productHi);
  result.setUint32(4, productLo);
  return result.getBigUint64(0);
}
