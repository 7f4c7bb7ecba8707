// psibase's method-name coder transcribed step by step, as the test oracle for host-api's
// optimized one: bits are gathered MSB-first into a byte that is flushed whole into a BigInt,
// all arithmetic is on u32 (`>>> 0`) as in psibase, and the code is thrown away for the hashed
// form once a bit would go past 64 or a 1 would land in the 64th. Nothing here is shared with
// host-api/names/method.ts but the frequency table, which the psibase vectors check.

import { METHOD_SYMBOL_FREQUENCIES, seahash } from '../../../../host-api/names/index.js';

const SYMBOL_TO_CHAR = '\0eaiotnrslcuhdpmygbfwvkzxqj';
const WIDTH = 27;
const MAX_CODE = 0x1ffff;
const ONE_FOURTH = 0x8000;
const ONE_HALF = 2 * ONE_FOURTH;
const THREE_FOURTHS = 3 * ONE_FOURTH;

// model_cf[context][symbol]: cumulative frequencies, one more column than symbols.
const MODEL_CF: number[][] = METHOD_SYMBOL_FREQUENCIES.map((row) => {
  const cf = [0];
  for (const f of row) cf.push(cf[cf.length - 1] + f);
  return cf;
});

/** psibase's char -> symbol: letters in either case, '0'-'9' as 1..10, '_' as 25, else 0. */
export function referenceSymbol(ch: string): number {
  if (ch >= '0' && ch <= '9') return 1 + ch.charCodeAt(0) - 0x30;
  if (ch === '_') return 25;
  const lower = ch.toLowerCase();
  if (lower < 'a' || lower > 'z') return 0;
  return SYMBOL_TO_CHAR.indexOf(lower);
}

/** The name's letters as the decoder gives them back: each char becomes its symbol's letter. */
export function foldedName(name: string): string {
  return [...name].map((ch) => SYMBOL_TO_CHAR[referenceSymbol(ch)]).join('');
}

/** True when some symbol of the name (or its end) has frequency 0 after the symbol before it. */
export function hasUncodablePair(name: string): boolean {
  let last = 0;
  for (const c of [...[...name].map(referenceSymbol), 0]) {
    if (MODEL_CF[last][c + 1] === MODEL_CF[last][c]) return true;
    last = c;
  }
  return false;
}

/** Method number of a name of valid chars (no `#` form), as psibase computes it. */
export function referenceMethodNumber(name: string): bigint {
  if (name.length === 0) return 0n;
  let bit = 0; // bits flushed into output
  let nextByte = 0;
  let mask = 0x80;
  let output = 0n;
  let bitc = 0; // bits put
  const putBit = (b: boolean): void => {
    if (b && bitc === 63) {
      output = 0n;
      bit = 64;
      return;
    }
    bitc++;
    if (b) nextByte |= mask;
    mask >>= 1;
    if (mask === 0 && bit < 64) {
      output |= BigInt(nextByte) << BigInt(bit);
      bit += 8;
      mask = 0x80;
      nextByte = 0;
    }
  };
  let pendingBits = 0;
  const putBitPlusPending = (b: boolean): void => {
    putBit(b);
    for (; pendingBits > 0; pendingBits--) putBit(!b);
  };

  let high = MAX_CODE;
  let low = 0;
  let last = 0;
  const symbols = [...name].map(referenceSymbol);
  for (let i = 0; i <= symbols.length; i++) {
    if (bit >= 64) break;
    const c = i < symbols.length ? symbols[i] : 0;
    const cf = MODEL_CF[last];
    last = c;
    const range = (high - low + 1) >>> 0;
    high = (low + Math.floor((range * cf[c + 1]) / cf[WIDTH]) - 1) >>> 0;
    low = (low + Math.floor((range * cf[c]) / cf[WIDTH])) >>> 0;
    for (;;) {
      if (bit >= 64) break;
      if (high < ONE_HALF) putBitPlusPending(false);
      else if (low >= ONE_HALF) putBitPlusPending(true);
      else if (low >= ONE_FOURTH && high < THREE_FOURTHS) {
        pendingBits++;
        low = (low - ONE_FOURTH) >>> 0;
        high = (high - ONE_FOURTH) >>> 0;
      } else break;
      high = (((high << 1) >>> 0) + 1) & MAX_CODE;
      low = ((low << 1) >>> 0) & MAX_CODE;
    }
  }
  pendingBits++;
  putBitPlusPending(low >= ONE_FOURTH);
  if (mask !== 0x80) {
    if (bit < 64) output |= BigInt(nextByte) << BigInt(bit);
    else output = 0n;
  }
  if (output === 0n) output = seahash(new TextEncoder().encode(name)) | (1n << 56n);
  return output;
}

/** Name of a method number, as psibase decodes it (`#` + 16 hash digits for hashes). */
export function referenceMethodName(n: bigint): string {
  if (n === 0n) return '';
  if ((n & (1n << 56n)) !== 0n) {
    let s = '#';
    for (let i = 0n; i < 16n; i++) s += SYMBOL_TO_CHAR[Number((n >> (4n * i)) & 15n) + 1];
    return s;
  }
  let input = n;
  let currentByte = 0;
  let lastMask = 1;
  let notEof = 64 + 16;
  const getBit = (): number => {
    if (lastMask === 1) {
      currentByte = Number(input & 0xffn);
      input >>= 8n;
      lastMask = 0x80;
    } else {
      lastMask >>= 1;
    }
    notEof--;
    return (currentByte & lastMask) !== 0 ? 1 : 0;
  };
  let out = '';
  let high = MAX_CODE;
  let low = 0;
  let value = 0;
  for (let i = 0; i < 17; i++) value = ((value << 1) >>> 0) + getBit();
  let last = 0;
  while (notEof > 0) {
    const range = (high - low + 1) >>> 0;
    const cf = MODEL_CF[last];
    const scaled = Math.floor((((Math.imul((value - low + 1) >>> 0, cf[WIDTH]) >>> 0) - 1) >>> 0) / range);
    let c = 0;
    let found = false;
    for (let i = 0; i < WIDTH; i++) {
      if (scaled < cf[i + 1]) {
        c = i;
        found = true;
        break;
      }
    }
    if (!found || c === 0) break;
    last = c;
    out += SYMBOL_TO_CHAR[c];
    high = (low + Math.floor((range * cf[c + 1]) / cf[WIDTH]) - 1) >>> 0;
    low = (low + Math.floor((range * cf[c]) / cf[WIDTH])) >>> 0;
    while (notEof > 0) {
      if (high < ONE_HALF) {
        // the top bit is 0
      } else if (low >= ONE_HALF) {
        value = (value - ONE_HALF) >>> 0;
        low = (low - ONE_HALF) >>> 0;
        high = (high - ONE_HALF) >>> 0;
      } else if (low >= ONE_FOURTH && high < THREE_FOURTHS) {
        value = (value - ONE_FOURTH) >>> 0;
        low = (low - ONE_FOURTH) >>> 0;
        high = (high - ONE_FOURTH) >>> 0;
      } else break;
      low = (low << 1) >>> 0;
      high = (((high << 1) >>> 0) + 1) >>> 0;
      value = (((value << 1) >>> 0) + getBit()) >>> 0;
    }
  }
  return out;
}
