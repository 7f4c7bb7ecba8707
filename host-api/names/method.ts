// psibase method numbers: an order-1 arithmetic code of the name in at most 64 bits, or,
// when the whole code (its final bits included) does not fit, SeaHash of the name with bit 56
// set (shown as `#` + 16 chars). A code is never cut short: a truncated code would read back
// as another name (`checkFirstAuth` as `checkfirstautr`).
// The coder works on 17-bit Numbers; BigInt appears only when the result is assembled.

import { NameError } from './errors.js';
import { seahash } from './seahash.js';

const SYMBOL_CHARS = '\0eaiotnrslcuhdpmygbfwvkzxqj'; // symbol -> char; 0 is the end symbol
const END = 0;
const SYMBOLS = 27;

// char code -> symbol: letters in either case, '0'-'9' as symbols 1..10, '_' as 25; 0 = invalid.
const SYMBOL_OF = new Uint8Array(128);
for (let symbol = 1; symbol < SYMBOLS; symbol++) {
  const code = SYMBOL_CHARS.charCodeAt(symbol);
  SYMBOL_OF[code] = symbol;
  SYMBOL_OF[code - 0x20] = symbol;
}
for (let digit = 0; digit < 10; digit++) SYMBOL_OF[0x30 + digit] = 1 + digit;
SYMBOL_OF[0x5f] = 25;

// Symbol frequencies given the previous symbol (row); every row sums to TOTAL. Exported for the
// service SDK, whose method-number encoder is compiled with this table (scripts/build-services.js).
export const METHOD_SYMBOL_FREQUENCIES: readonly (readonly number[])[] = [
  [0, 1956, 2190, 1917, 1360, 1882, 971, 950, 2461, 1220, 1224, 925, 1313, 1553, 1722, 1566, 1394, 461, 1333, 2077, 1933, 987, 330, 642, 35, 221, 144],
  [4880, 363, 1426, 1045, 758, 1162, 1985, 3614, 1505, 1293, 619, 343, 1920, 1740, 2564, 585, 602, 185, 1655, 1068, 2086, 447, 235, 103, 295, 217, 72],
  [1737, 1164, 119, 646, 68, 4809, 4091, 2889, 1685, 4159, 1582, 458, 1195, 960, 908, 1531, 322, 722, 1682, 313, 211, 833, 303, 109, 102, 147, 22],
  [1420, 2034, 1468, 210, 1619, 3208, 4034, 554, 4106, 1829, 2573, 543, 358, 1111, 499, 2400, 7, 510, 851, 510, 776, 1065, 197, 493, 50, 332, 10],
  [4209, 1000, 294, 491, 785, 3030, 3925, 2660, 1334, 3006, 902, 2097, 338, 714, 1409, 2288, 84, 837, 783, 708, 489, 717, 194, 88, 149, 213, 23],
  [6157, 3056, 1167, 2914, 2637, 669, 229, 1158, 155, 432, 93, 388, 2732, 619, 2043, 323, 832, 59, 3510, 1608, 1010, 204, 224, 131, 260, 138, 19],
  [4891, 4022, 1859, 2263, 2183, 3900, 775, 187, 1122, 912, 1454, 327, 497, 2154, 214, 984, 277, 2513, 503, 339, 274, 600, 240, 58, 17, 144, 58],
  [4689, 4843, 3307, 3305, 3191, 2092, 453, 703, 1145, 1083, 593, 553, 820, 666, 592, 1178, 966, 302, 966, 219, 116, 521, 181, 26, 1, 240, 16],
  [5750, 3745, 907, 1725, 955, 6386, 216, 26, 1971, 2094, 825, 976, 1406, 102, 869, 2261, 278, 23, 432, 72, 427, 263, 138, 37, 0, 877, 6],
  [1827, 3591, 1825, 4355, 2208, 678, 488, 460, 100, 1253, 78, 578, 1024, 833, 3768, 1560, 1823, 74, 544, 2534, 1859, 223, 574, 9, 46, 6, 449],
  [3085, 3817, 4484, 2112, 5194, 2510, 44, 1572, 132, 1030, 504, 1478, 4206, 8, 5, 210, 896, 1, 5, 1, 3, 295, 1111, 9, 0, 55, 0],
  [1460, 1028, 894, 808, 192, 3615, 5592, 3121, 4499, 3909, 1060, 26, 228, 749, 1206, 1829, 41, 607, 1003, 310, 42, 155, 81, 96, 66, 137, 13],
  [3497, 5972, 2112, 2068, 2101, 3856, 252, 504, 47, 3319, 10, 372, 1910, 150, 114, 1957, 999, 7, 49, 146, 377, 623, 117, 45, 0, 2159, 4],
  [7725, 5931, 1896, 2660, 1224, 2886, 244, 685, 192, 2804, 20, 437, 105, 651, 162, 1945, 1272, 130, 256, 154, 69, 666, 13, 16, 0, 596, 28],
  [3654, 3023, 1227, 2037, 2902, 3389, 318, 3365, 385, 2542, 56, 508, 1721, 119, 685, 1812, 358, 52, 168, 931, 2723, 268, 153, 84, 14, 227, 46],
  [2259, 1983, 2116, 2318, 1777, 210, 698, 982, 160, 519, 27, 519, 1493, 1612, 4531, 910, 1661, 26, 2942, 1346, 1293, 2136, 474, 490, 152, 77, 56],
  [8569, 2357, 343, 189, 761, 3200, 392, 357, 3464, 2232, 369, 39, 1312, 313, 666, 2523, 591, 161, 2509, 550, 823, 585, 11, 58, 36, 356, 1],
  [5421, 4807, 3033, 3174, 2018, 85, 1058, 2881, 272, 2431, 9, 1426, 1710, 45, 21, 313, 906, 622, 109, 35, 70, 2304, 10, 4, 0, 1, 2],
  [3536, 4697, 1015, 1419, 1249, 4282, 168, 896, 358, 4721, 43, 719, 329, 746, 475, 3302, 491, 16, 694, 758, 946, 580, 178, 100, 0, 993, 56],
  [6957, 1820, 505, 1832, 969, 2596, 67, 426, 1617, 2634, 8, 645, 380, 897, 250, 1228, 1103, 113, 30, 2909, 4010, 1262, 13, 150, 0, 343, 3],
  [4391, 2879, 878, 870, 481, 4927, 228, 98, 3819, 5100, 10, 15, 895, 123, 87, 2974, 50, 5, 2186, 199, 647, 797, 23, 141, 1, 916, 27],
  [508, 4637, 1807, 2299, 1125, 609, 155, 585, 18, 759, 11, 149, 2940, 1585, 5268, 172, 929, 6, 2957, 4147, 1898, 10, 67, 5, 62, 22, 37],
  [2561, 6923, 1042, 2186, 432, 10933, 675, 161, 398, 4246, 27, 230, 357, 28, 51, 1404, 332, 17, 131, 121, 157, 213, 61, 1, 0, 64, 16],
  [1902, 8654, 2259, 686, 1417, 3602, 80, 33, 2998, 4578, 9, 173, 403, 95, 944, 2974, 439, 8, 520, 286, 123, 64, 5, 403, 0, 101, 11],
  [3478, 3019, 1811, 4292, 1218, 3220, 84, 30, 376, 3220, 1158, 349, 344, 78, 1804, 1254, 3042, 38, 76, 182, 2002, 349, 9, 52, 0, 1279, 3],
  [17596, 685, 174, 801, 619, 646, 78, 350, 89, 375, 3, 2063, 1453, 872, 806, 1660, 1285, 2, 755, 1272, 867, 65, 9, 98, 78, 2, 64],
  [392, 7916, 2687, 509, 1844, 8832, 14, 37, 17, 1733, 0, 2665, 332, 22, 14, 3395, 26, 0, 22, 17, 29, 194, 7, 114, 0, 1043, 906],
];
const TOTAL = 32767;

// Cumulative frequencies, row-major: CUMULATIVE[p * ROW + c] = F_p[0] + ... + F_p[c - 1].
const ROW = SYMBOLS + 1;
const CUMULATIVE = new Uint16Array(SYMBOLS * ROW);
METHOD_SYMBOL_FREQUENCIES.forEach((frequencies, p) => {
  for (let c = 0; c < SYMBOLS; c++) CUMULATIVE[p * ROW + c + 1] = CUMULATIVE[p * ROW + c] + frequencies[c];
});

const MAX_CODE = 0x1ffff;
const HALF = 0x10000;
const QUARTER = 0x8000;
const THREE_QUARTERS = 0x18000;
const CODE_BITS = 17;
const MAX_BITS = 64;
const MAX_DECODE_BITS = 80; // the decoder may read 16 zero bits past the end, as psibase does

// Bits land MSB-first within bytes, bytes little-endian: output bit i is value bit i ^ 7.
// The code word is built here, as two uint32 halves, so encoding allocates nothing.
let codeLo = 0;
let codeHi = 0;
let bitsOut = 0;

// Appends one bit; false when it would be the 65th, or a 1 in bit 56, which flags hashes.
function putBit(bit: number): boolean {
  if (bitsOut === MAX_BITS) return false;
  if (bit === 1) {
    if (bitsOut === MAX_BITS - 1) return false;
    const position = bitsOut ^ 7;
    if (position < 32) codeLo |= 1 << position;
    else codeHi |= 1 << (position - 32);
  }
  bitsOut++;
  return true;
}

// Appends `bit` then `followers` copies of its complement (the coder's pending bits).
function putBits(bit: number, followers: number): boolean {
  if (!putBit(bit)) return false;
  for (let i = 0; i < followers; i++) if (!putBit(bit ^ 1)) return false;
  return true;
}

// Codes a name whose chars are all valid into codeHi:codeLo; false when it does not fit.
function arithmeticEncode(name: string): boolean {
  codeLo = codeHi = bitsOut = 0;
  let low = 0;
  let high = MAX_CODE;
  let pending = 0;
  let context = END;
  for (let i = 0; i <= name.length; i++) {
    if (bitsOut === MAX_BITS) return false; // the final bits would not fit
    const symbol = i < name.length ? SYMBOL_OF[name.charCodeAt(i)] : END;
    const row = context * ROW;
    context = symbol;
    const range = high - low + 1;
    high = low + Math.floor((range * CUMULATIVE[row + symbol + 1]) / TOTAL) - 1;
    low = low + Math.floor((range * CUMULATIVE[row + symbol]) / TOTAL);
    while (bitsOut < MAX_BITS) {
      if (high < HALF) {
        if (!putBits(0, pending)) return false;
        pending = 0;
      } else if (low >= HALF) {
        if (!putBits(1, pending)) return false;
        pending = 0;
      } else if (low >= QUARTER && high < THREE_QUARTERS) {
        pending++;
        low -= QUARTER;
        high -= QUARTER;
      } else {
        break;
      }
      high = ((high << 1) | 1) & MAX_CODE;
      low = (low << 1) & MAX_CODE;
    }
  }
  return putBits(low < QUARTER ? 0 : 1, pending + 1);
}

function codeBit(lo: number, hi: number, index: number): number {
  if (index >= MAX_BITS) return 0;
  const position = index ^ 7;
  return position < 32 ? (lo >>> position) & 1 : (hi >>> (position - 32)) & 1;
}

function arithmeticDecode(lo: number, hi: number): string {
  let value = 0;
  let bitsRead = 0;
  while (bitsRead < CODE_BITS) value = value * 2 + codeBit(lo, hi, bitsRead++);
  let low = 0;
  let high = MAX_CODE;
  let context = END;
  let name = '';
  while (bitsRead < MAX_DECODE_BITS) {
    const range = high - low + 1;
    const scaled = Math.floor(((value - low + 1) * TOTAL - 1) / range);
    const row = context * ROW;
    let symbol = 0;
    while (symbol < SYMBOLS && scaled >= CUMULATIVE[row + symbol + 1]) symbol++;
    if (symbol === END || symbol === SYMBOLS) break; // SYMBOLS: past every range, also the end
    name += SYMBOL_CHARS[symbol];
    context = symbol;
    high = low + Math.floor((range * CUMULATIVE[row + symbol + 1]) / TOTAL) - 1;
    low = low + Math.floor((range * CUMULATIVE[row + symbol]) / TOTAL);
    while (bitsRead < MAX_DECODE_BITS) {
      if (high < HALF) {
        // top bit 0: nothing to subtract
      } else if (low >= HALF) {
        value -= HALF;
        low -= HALF;
        high -= HALF;
      } else if (low >= QUARTER && high < THREE_QUARTERS) {
        value -= QUARTER;
        low -= QUARTER;
        high -= QUARTER;
      } else {
        break;
      }
      low *= 2;
      high = high * 2 + 1;
      value = value * 2 + codeBit(lo, hi, bitsRead++);
    }
  }
  return name;
}

const HASH_SIGN = 0x23; // '#'
const HASH_FORM_LENGTH = 17;
const HASH_DIGITS = 'eaiotnrslcuhdpmy'; // nibble -> char, i.e. symbol - 1
const HASH_FLAG_HI = 0x01000000; // bit 56 of the number, in the high half
const HASH_FLAG = 1n << 56n;

// Moves u64s between BigInt and uint32 halves; cheaper than BigInt shifts and masks.
const u64 = new DataView(new ArrayBuffer(8));

function toU64(hi: number, lo: number): bigint {
  hi >>>= 0;
  if (hi < 0x200000) return BigInt(hi * 0x100000000 + (lo >>> 0)); // below 2^53: exact
  u64.setUint32(0, hi);
  u64.setUint32(4, lo);
  return u64.getBigUint64(0);
}

// `#` + 16 hash digits, least significant nibble first; 0n when malformed. Like psibase,
// digits go through the symbol table, so uppercase and '0'-'9' are accepted too.
function hashFormValue(name: string): bigint {
  if (name.length !== HASH_FORM_LENGTH) return 0n;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < 16; i++) {
    const code = name.charCodeAt(i + 1);
    const nibble = (code < 128 ? SYMBOL_OF[code] : 0) - 1;
    if (nibble < 0 || nibble > 15) return 0n;
    if (i < 8) lo |= nibble << (4 * i);
    else hi |= nibble << (4 * (i - 8));
  }
  return toU64(hi, lo);
}

// The hash covers the name's bytes; valid names are ASCII, so char codes are the bytes.
let hashInput = new Uint8Array(64);

function hashedMethodNumber(name: string): bigint {
  if (hashInput.length < name.length) hashInput = new Uint8Array(name.length * 2);
  for (let i = 0; i < name.length; i++) hashInput[i] = name.charCodeAt(i);
  return seahash(hashInput, name.length) | HASH_FLAG;
}

/** Method number for `name`, or 0n when the name is empty or invalid. */
export function tryMethodNumberFromName(name: string): bigint {
  if (name.length === 0) return 0n;
  if (name.charCodeAt(0) === HASH_SIGN) return hashFormValue(name);
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 128 || SYMBOL_OF[code] === 0) return 0n;
  }
  if (arithmeticEncode(name) && (codeLo | codeHi) !== 0) return toU64(codeHi, codeLo);
  return hashedMethodNumber(name);
}

function invalidMethodName(name: string): NameError {
  let why: string;
  if (name.charCodeAt(0) === HASH_SIGN) {
    why = /^#[eE0]{16}$/.test(name)
      ? 'its hash form is 0, which only the empty name may have'
      : `a hash form must be '#' and 16 of '${HASH_DIGITS}'`;
  } else {
    const bad = [...name].find((ch) => {
      const code = ch.codePointAt(0) as number;
      return code >= 128 || SYMBOL_OF[code] === 0;
    });
    why = `bad character '${bad}' (allowed: letters, digits, '_')`;
  }
  return new NameError('INVALID_METHOD_NAME', `Invalid method name "${name}": ${why}`);
}

/** Method number for `name` ("" is 0n); throws NameError INVALID_METHOD_NAME for invalid names. */
export function methodNumberFromName(name: string): bigint {
  const n = tryMethodNumberFromName(name);
  if (n === 0n && name.length !== 0) throw invalidMethodName(name);
  return n;
}

const U64_LIMIT = 1n << 64n;

/** Name for a method number: "" for 0n, `#` + 16 chars for hashes, else the decoded name. */
export function methodNameFromNumber(n: bigint): string {
  if (n < 0n || n >= U64_LIMIT) {
    throw new NameError('INVALID_METHOD_NUMBER', `Invalid method number ${n}: not a u64`);
  }
  if (n === 0n) return '';
  u64.setBigUint64(0, n);
  const hi = u64.getUint32(0);
  const lo = u64.getUint32(4);
  if ((hi & HASH_FLAG_HI) === 0) return arithmeticDecode(lo, hi);
  let name = '#';
  for (let i = 0; i < 8; i++) name += HASH_DIGITS[(lo >>> (4 * i)) & 15];
  for (let i = 0; i < 8; i++) name += HASH_DIGITS[(hi >>> (4 * i)) & 15];
  return name;
}
