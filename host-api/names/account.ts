// psibase account numbers: the high 56 bits are the name's rank among all valid names
// (ordered: name ends < '-' < '0'..'9' < 'a'..'z' at every position), the low byte is a
// subaccount. Ranks stay below 2^53, so all arithmetic is on Numbers until the final BigInt.

import { NameError } from './errors.js';

const MAX_LENGTH = 10;

// W[m]: completions of at most m chars after a letter or digit, the empty one included.
// X[m]: those that start with a letter or digit (36 * W[m - 1]); so X[m - 1] counts the
// completions of m chars that start with '-'.
const W = new Float64Array(MAX_LENGTH);
const X = new Float64Array(MAX_LENGTH);
W[0] = 1;
X[0] = 0;
for (let m = 1; m < MAX_LENGTH; m++) {
  X[m] = 36 * W[m - 1];
  W[m] = X[m - 1] + X[m] + 1;
}

// Highest rank: the rank of "zzzzzzzzzz".
const MAX_RANK = 36 * W[MAX_LENGTH - 1];

const DASH = 0;
const UNKNOWN = -1;

// char code -> index ('-'=0, '0'-'9'=1..10, 'a'-'z'=11..36, uppercase folded), else UNKNOWN.
const CHAR_INDEX = new Int8Array(128).fill(UNKNOWN);
CHAR_INDEX[0x2d] = DASH;
for (let i = 0; i < 10; i++) CHAR_INDEX[0x30 + i] = 1 + i;
for (let i = 0; i < 26; i++) {
  CHAR_INDEX[0x61 + i] = 11 + i;
  CHAR_INDEX[0x41 + i] = 11 + i;
}

const INDEX_CHAR = '-0123456789abcdefghijklmnopqrstuvwxyz';

const MAX_SUBACCOUNT = 255;

// Moves u64s between BigInt and uint32 halves; cheaper than BigInt shifts and masks.
const u64 = new DataView(new ArrayBuffer(8));
const TWO_24 = 0x1000000;

// Why a name failed; negative so rankOf can return either a rank or a failure.
const TOO_LONG = -1;
const BAD_CHAR = -2;
const LEADING_DASH = -3;
const DOUBLE_DASH = -4;
const TRAILING_DASH = -5;
const BAD_SUBACCOUNT = -6;

// Rank of name[0, end), or a negative failure code.
function rankOf(name: string, end: number): number {
  let rank = 0;
  let remaining = MAX_LENGTH;
  let dashAllowed = false;
  let endAllowed = true;
  for (let i = 0; i < end; i++) {
    if (remaining === 0) return TOO_LONG;
    const code = name.charCodeAt(i);
    const k = code < 128 ? CHAR_INDEX[code] : UNKNOWN;
    if (k === UNKNOWN) return BAD_CHAR;
    if (k === DASH && !dashAllowed) return i === 0 ? LEADING_DASH : DOUBLE_DASH;
    // Count the prefix read so far, a shorter name that sorts first ...
    if (endAllowed) rank += 1;
    // ... and the names with a smaller char at this position.
    if (k !== DASH) rank += (k - 1) * W[remaining - 1] + (dashAllowed ? X[remaining - 1] : 0);
    dashAllowed = endAllowed = k !== DASH;
    remaining--;
  }
  return endAllowed ? rank : TRAILING_DASH;
}

// Decimal 1..255 without leading zeros in name[start..], or BAD_SUBACCOUNT.
function subaccountOf(name: string, start: number): number {
  const length = name.length - start;
  if (length < 1 || length > 3 || name.charCodeAt(start) === 0x30) return BAD_SUBACCOUNT;
  let value = 0;
  for (let i = start; i < name.length; i++) {
    const digit = name.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return BAD_SUBACCOUNT;
    value = value * 10 + digit;
  }
  return value <= MAX_SUBACCOUNT ? value : BAD_SUBACCOUNT;
}

function firstBadChar(name: string): string {
  for (const ch of name) {
    const code = ch.codePointAt(0) as number;
    if (code >= 128 || CHAR_INDEX[code] === UNKNOWN) return ch;
  }
  return '';
}

function invalidName(name: string, failure: number): NameError {
  const plus = name.indexOf('+');
  const base = plus < 0 ? name : name.slice(0, plus);
  let why: string;
  switch (failure) {
    case TOO_LONG: why = `longer than ${MAX_LENGTH} characters`; break;
    case BAD_CHAR: why = `bad character '${firstBadChar(base)}'`; break;
    case LEADING_DASH: why = "starts with '-'"; break;
    case DOUBLE_DASH: why = "contains '--'"; break;
    case TRAILING_DASH: why = "ends with '-'"; break;
    default: why = `bad subaccount '${name.slice(plus + 1)}' (must be 1..${MAX_SUBACCOUNT})`;
  }
  return new NameError('INVALID_ACCOUNT_NAME', `Invalid account name "${name}": ${why}`);
}

/** Parses `name` or `name+N` (N 1..255); uppercase folds to lowercase; "" is 0n. */
export function accountNumberFromName(name: string): bigint {
  const plus = name.indexOf('+');
  const rank = rankOf(name, plus < 0 ? name.length : plus);
  if (rank < 0) throw invalidName(name, rank);
  if (plus < 0) return BigInt(rank * 256); // exact: rank < 2^53 and *256 only moves the exponent
  const subaccount = subaccountOf(name, plus + 1);
  if (subaccount < 0) throw invalidName(name, subaccount);
  u64.setUint32(0, Math.floor(rank / TWO_24));
  u64.setUint32(4, (rank % TWO_24) * 256 + subaccount);
  return u64.getBigUint64(0);
}

export function isValidAccountName(name: string): boolean {
  const plus = name.indexOf('+');
  if (rankOf(name, plus < 0 ? name.length : plus) < 0) return false;
  return plus < 0 || subaccountOf(name, plus + 1) >= 0;
}

const U64_LIMIT = 1n << 64n;

/** Lowercase name for `n`, with `+N` when the subaccount byte is nonzero. */
export function accountNameFromNumber(n: bigint): string {
  if (n < 0n || n >= U64_LIMIT) {
    throw new NameError('INVALID_ACCOUNT_NUMBER', `Invalid account number ${n}: not a u64`);
  }
  u64.setBigUint64(0, n);
  const low32 = u64.getUint32(4);
  let rank = u64.getUint32(0) * TWO_24 + (low32 >>> 8); // inexact only far above MAX_RANK
  if (rank > MAX_RANK) {
    throw new NameError('INVALID_ACCOUNT_NUMBER',
      `Invalid account number ${n}: rank ${n >> 8n} exceeds the largest name rank ${MAX_RANK}`);
  }
  const subaccount = low32 & 0xff;
  let name = '';
  let remaining = MAX_LENGTH;
  let dashAllowed = false;
  let endAllowed = true;
  for (;;) {
    if (endAllowed) {
      if (rank === 0) break;
      rank -= 1;
    }
    if (dashAllowed && rank < X[remaining - 1]) {
      name += '-';
      dashAllowed = endAllowed = false;
    } else {
      if (dashAllowed) rank -= X[remaining - 1];
      const width = W[remaining - 1];
      const rest = rank % width; // exact, unlike flooring a rounded quotient
      name += INDEX_CHAR[(rank - rest) / width + 1];
      rank = rest;
      dashAllowed = endAllowed = true;
    }
    remaining--;
  }
  return subaccount === 0 ? name : `${name}+${subaccount}`;
}
