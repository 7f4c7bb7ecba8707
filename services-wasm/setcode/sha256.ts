// SHA-256 (FIPS 180-4): the host has no hash import, and the code tables are keyed by the
// SHA-256 of the code.

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

const INITIAL_STATE: StaticArray<u32> = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

const BLOCK_SIZE = 64;

/** The 32-byte SHA-256 digest of `data`. */
export function sha256(data: Uint8Array): Uint8Array {
  const state = INITIAL_STATE.slice<StaticArray<u32>>();
  const w = new StaticArray<u32>(64);
  const padded = pad(data);
  for (let offset = 0; offset < padded.length; offset += BLOCK_SIZE) compress(state, w, padded.dataStart + offset);
  const digest = new Uint8Array(32);
  for (let i = 0; i < 8; i++) store<u32>(digest.dataStart + i * 4, bswap<u32>(unchecked(state[i])));
  return digest;
}

/** The message, a 0x80 byte, zeros, and the bit length (u64 big-endian), to whole blocks. */
function pad(data: Uint8Array): Uint8Array {
  const length = data.length;
  const padded = new Uint8Array(((length + 8) / BLOCK_SIZE + 1) * BLOCK_SIZE);
  memory.copy(padded.dataStart, data.dataStart, length);
  padded[length] = 0x80;
  store<u64>(padded.dataStart + padded.length - 8, bswap<u64>(<u64>length << 3));
  return padded;
}

function compress(state: StaticArray<u32>, w: StaticArray<u32>, block: usize): void {
  for (let t = 0; t < 16; t++) unchecked(w[t] = bswap<u32>(load<u32>(block + t * 4)));
  for (let t = 16; t < 64; t++) {
    const w15 = unchecked(w[t - 15]);
    const w2 = unchecked(w[t - 2]);
    const s0 = rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10);
    unchecked(w[t] = unchecked(w[t - 16]) + s0 + unchecked(w[t - 7]) + s1);
  }
  let a = unchecked(state[0]), b = unchecked(state[1]), c = unchecked(state[2]), d = unchecked(state[3]);
  let e = unchecked(state[4]), f = unchecked(state[5]), g = unchecked(state[6]), h = unchecked(state[7]);
  for (let t = 0; t < 64; t++) {
    const t1 = h + (rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25)) + ((e & f) ^ (~e & g)) + unchecked(K[t]) + unchecked(w[t]);
    const t2 = (rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g; g = f; f = e; e = d + t1;
    d = c; c = b; b = a; a = t1 + t2;
  }
  unchecked(state[0] = state[0] + a); unchecked(state[1] = state[1] + b);
  unchecked(state[2] = state[2] + c); unchecked(state[3] = state[3] + d);
  unchecked(state[4] = state[4] + e); unchecked(state[5] = state[5] + f);
  unchecked(state[6] = state[6] + g); unchecked(state[7] = state[7] + h);
}
