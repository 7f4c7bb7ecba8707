// psibase account numbers (docs/formats.md §4): the high 56 bits are the name's rank among all valid
// names (at every position: name ends < '-' < '0'..'9' < 'a'..'z'), the low byte a subaccount.
// All arithmetic is on u64 integers.

import { AccountNumber } from "./types";
import { abort } from "../abort";

const MAX_LENGTH = 10;
// W[m]: completions of at most m chars after a letter or digit, the empty one included.
// X[m]: those that start with a letter or digit; X[m - 1] counts m-char completions after '-'.
const W: StaticArray<u64> = [1, 37, 1369, 50617, 1871497, 69196105, 2558433673, 94594672009, 3497511804553, 129315833156233];
const X: StaticArray<u64> = [0, 36, 1332, 49284, 1822212, 67373892, 2491059780, 92103612228, 3405408192324, 125910424963908];
/** The rank of "zzzzzzzzzz". */
const MAX_RANK: u64 = 4655369993624388;
const DASH = 0;
const INVALID: u64 = u64.MAX_VALUE;

/** '-' = 0, '0'-'9' = 1..10, 'a'-'z' (either case) = 11..36, anything else -1. */
function charIndex(c: i32): i32 {
  if (c == 0x2d) return DASH;
  if (c >= 0x30 && c <= 0x39) return c - 0x30 + 1;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 11;
  if (c >= 0x41 && c <= 0x5a) return c - 0x41 + 11;
  return -1;
}

// Rank of name[0, end), or INVALID.
function rankOf(name: string, end: i32): u64 {
  let rank: u64 = 0;
  let remaining = MAX_LENGTH;
  let dashAllowed = false;
  let endAllowed = true;
  for (let i = 0; i < end; i++) {
    if (remaining == 0) return INVALID;
    const k = charIndex(name.charCodeAt(i));
    if (k < 0 || (k == DASH && !dashAllowed)) return INVALID;
    // Count the shorter name that ends here, then the names with a smaller char at this position.
    if (endAllowed) rank += 1;
    if (k != DASH) rank += <u64>(k - 1) * unchecked(W[remaining - 1]) + (dashAllowed ? unchecked(X[remaining - 1]) : 0);
    dashAllowed = endAllowed = k != DASH;
    remaining--;
  }
  return endAllowed ? rank : INVALID;
}

// Decimal 1..255 without leading zeros in name[start..], or -1.
function subaccountOf(name: string, start: i32): i32 {
  const length = name.length - start;
  if (length < 1 || length > 3 || name.charCodeAt(start) == 0x30) return -1;
  let value = 0;
  for (let i = start; i < name.length; i++) {
    const digit = name.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value <= 255 ? value : -1;
}

/** Whether `name` (or `name+N`) is a valid account name. */
export function isValidAccountName(name: string): bool {
  const plus = name.indexOf("+");
  if (rankOf(name, plus < 0 ? name.length : plus) == INVALID) return false;
  return plus < 0 || subaccountOf(name, plus + 1) >= 0;
}

/** The number of `name` or `name+N` (uppercase folds to lowercase; "" is 0); aborts when invalid. */
export function account(name: string): AccountNumber {
  const plus = name.indexOf("+");
  const rank = rankOf(name, plus < 0 ? name.length : plus);
  const subaccount = plus < 0 ? 0 : subaccountOf(name, plus + 1);
  if (rank == INVALID || subaccount < 0) abort("invalid account name \"" + name + "\"");
  return (rank << 8) | <u64>subaccount;
}

/** Whether `n` is the number of a nonempty valid name (with or without a subaccount). */
export function isValidAccountNumber(n: AccountNumber): bool {
  const rank = n >> 8;
  return rank != 0 && rank <= MAX_RANK;
}

const INDEX_CHARS = "-0123456789abcdefghijklmnopqrstuvwxyz";
/** A name's chars as they are found, so the name costs one string (services never free memory). */
const NAME_CHARS = memory.data(MAX_LENGTH << 1);

/** The lowercase name of an account number, with `+N` for a nonzero subaccount. */
export function accountName(n: AccountNumber): string {
  let rank = n >> 8;
  if (rank > MAX_RANK) abort("invalid account number " + n.toString());
  let length: usize = 0;
  let remaining = MAX_LENGTH;
  let dashAllowed = false;
  let endAllowed = true;
  for (;;) {
    if (endAllowed) {
      if (rank == 0) break;
      rank -= 1;
    }
    let c: i32 = 0x2d; // '-'
    if (dashAllowed && rank < unchecked(X[remaining - 1])) {
      dashAllowed = endAllowed = false;
    } else {
      if (dashAllowed) rank -= unchecked(X[remaining - 1]);
      const width = unchecked(W[remaining - 1]);
      c = INDEX_CHARS.charCodeAt(<i32>(rank / width) + 1);
      rank %= width;
      dashAllowed = endAllowed = true;
    }
    store<u16>(NAME_CHARS + (length++ << 1), <u16>c);
    remaining--;
  }
  const name = String.UTF16.decodeUnsafe(NAME_CHARS, length << 1);
  const subaccount = <u32>(n & 0xff);
  return subaccount == 0 ? name : name + "+" + subaccount.toString();
}
