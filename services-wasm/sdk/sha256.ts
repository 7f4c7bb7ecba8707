// SHA-256 (FIPS 180-4) in wasm: the host has no hash import, and ids such as a transaction's
// (sha256 of its packed bytes) must be computed by services themselves.

import { Checksum256 } from "./fracpack/checksum";

const K: StaticArray<u32> = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

const BLOCK = 64;

/** Hash state and the message schedule of one block. */
class Sha256 {
  h: StaticArray<u32> = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  w: StaticArray<u32> = new StaticArray<u32>(64);

  /** Compresses the 64 bytes at `block`. */
  compress(block: usize): void {
    const w = this.w;
    for (let i = 0; i < 16; i++) w[i] = bswap<u32>(load<u32>(block + (<usize>i << 2)));
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15];
      const b = w[i - 2];
      const s0 = rotr<u32>(a, 7) ^ rotr<u32>(a, 18) ^ (a >>> 3);
      const s1 = rotr<u32>(b, 17) ^ rotr<u32>(b, 19) ^ (b >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    const h = this.h;
    let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (let i = 0; i < 64; i++) {
      const t1 = k + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      const t2 = (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      k = g; g = f; f = e; e = d + t1;
      d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
}

/** The SHA-256 digest of `data`. */
export function sha256(data: Uint8Array): Checksum256 {
  const state = new Sha256();
  const length = <usize>data.length;
  const whole = length & ~(<usize>BLOCK - 1);
  for (let at: usize = 0; at < whole; at += BLOCK) state.compress(data.dataStart + at);

  // The tail, the 0x80 marker and the bit length fill one or two final blocks.
  const rest = length - whole;
  const tail = new Uint8Array(rest < 56 ? BLOCK : 2 * BLOCK);
  memory.copy(tail.dataStart, data.dataStart + whole, rest);
  tail[<i32>rest] = 0x80;
  store<u64>(tail.dataStart + <usize>tail.length - 8, bswap<u64>(<u64>length << 3));
  for (let at: usize = 0; at < <usize>tail.length; at += BLOCK) state.compress(tail.dataStart + at);

  const digest = new Uint8Array(32);
  for (let i = 0; i < 8; i++) store<u32>(digest.dataStart + (<usize>i << 2), bswap<u32>(state.h[i]));
  return new Checksum256(digest);
}
