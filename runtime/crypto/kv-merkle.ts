// The Merkle root of a key-value database (docs/p2p.md §7.2), psibase's KvMerkle: a bit trie over
// the keys, built in one pass over rows added in increasing key order.
//
// A leaf is sha256(00 ‖ u32le keyLen ‖ key ‖ u32le valueLen ‖ value); an inner node is
// sha256(01 ‖ left ‖ right). The subtrees of keys continuing with bit 0 and bit 1 pair up; a key's
// leaf pairs with the subtree of the keys it is a prefix of. A missing side (32 zero bytes) passes
// the other through; an empty database's root is 32 zero bytes.

import { hash } from 'node:crypto';
import { TsibaseError } from '../../host-api/errors.js';

const ZERO = new Uint8Array(32);

function isZero(hash: Uint8Array): boolean {
  for (let i = 0; i < hash.length; i++) if (hash[i] !== 0) return false;
  return true;
}

/**
 * Where a hash's input is laid out before one one-shot SHA-256: a state has a leaf and a node
 * per row, and a Hash object with an update per part costs several times the hashing.
 */
let scratch = Buffer.allocUnsafe(4096);

function scratchOf(length: number): Buffer {
  if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, scratch.length * 2));
  return scratch;
}

/** The hash as node:crypto gives it, a Buffer of its own: the trie keeps these, and hands out copies as Uint8Arrays. */
function sha256Of(input: Buffer, length: number): Buffer {
  return hash('sha256', input.subarray(0, length), 'buffer');
}

/** A row's leaf hash. */
export function kvLeafHash(key: Uint8Array, value: Uint8Array): Uint8Array {
  return new Uint8Array(leafHash(key, value));
}

/** An inner node; a zero side is absent and yields the other side. */
export function kvCombine(left: Uint8Array, right: Uint8Array): Uint8Array {
  return new Uint8Array(combine(left, right));
}

function leafHash(key: Uint8Array, value: Uint8Array): Uint8Array {
  const length = 9 + key.length + value.length;
  const input = scratchOf(length);
  input[0] = 0;
  input.writeUInt32LE(key.length, 1);
  input.set(key, 5);
  input.writeUInt32LE(value.length, 5 + key.length);
  input.set(value, 9 + key.length);
  return sha256Of(input, length);
}

function combine(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (isZero(left)) return right;
  if (isZero(right)) return left;
  const input = scratchOf(65);
  input[0] = 1;
  input.set(left, 1);
  input.set(right, 33);
  return sha256Of(input, 65);
}

function popcount(byte: number): number {
  let n = 0;
  for (let b = byte; b !== 0; b &= b - 1) n++;
  return n;
}

/** Bits shared by the previous key and the next one, which must be greater. */
function commonPrefixBits(previous: Uint8Array, next: Uint8Array): number {
  const len = Math.min(previous.length, next.length);
  for (let i = 0; i < len; i++) {
    if (previous[i] !== next[i]) {
      if (previous[i]! > next[i]!) throw outOfOrder();
      return i * 8 + Math.clz32(previous[i]! ^ next[i]!) - 24;
    }
  }
  if (len >= next.length) throw outOfOrder();
  return len * 8;
}

function outOfOrder(): TsibaseError {
  return new TsibaseError('KV_MERKLE_ORDER', 'KvMerkle rows must be added in increasing key order');
}

/**
 * How many stack entries `key` holds past its first `bits` bits: for each byte from there, the
 * leaf of the prefix ending before it and one pending left subtree per set bit.
 */
function entriesAfter(key: Uint8Array, bits: number): number {
  let i = bits >> 3;
  if (i === key.length) return 0;
  let count = 1 + popcount(key[i]! & (0xff >> (bits & 7)));
  for (i++; i < key.length; i++) count += 1 + popcount(key[i]!);
  return count;
}

/**
 * The stack holds, for the last key added: for each byte position, the leaf of the key's prefix
 * up to it and the finished left subtrees of its set bits; then the key's own leaf. Adding a key
 * folds what lies past the shared prefix into one subtree and opens the new key's path.
 */
export class KvMerkle {
  private stack: Uint8Array[] = [];
  private currentKey = new Uint8Array(0);

  push(key: Uint8Array, value: Uint8Array): void {
    this.pushHash(key, leafHash(key, value));
  }

  private pushHash(key: Uint8Array, leaf: Uint8Array): void {
    if (this.stack.length === 0) {
      if (key.length === 0) {
        this.stack.push(leaf);
        return;
      }
      this.stack.push(ZERO);
    }
    const shared = commonPrefixBits(this.currentKey, key);
    const removed = entriesAfter(this.currentKey, shared);
    const added = entriesAfter(key, shared);
    const size = this.stack.length - removed + added;
    if (removed > 0) this.fold(removed - 1);
    while (this.stack.length < size) this.stack.push(ZERO);
    this.stack[size - 1] = leaf;
    this.currentKey = key.slice();
  }

  /** The root of every row added; the object starts empty again. */
  root(): Uint8Array {
    if (this.stack.length === 0) return ZERO.slice();
    this.fold(this.stack.length - 1);
    const root = new Uint8Array(this.stack[0]!);
    this.stack = [];
    this.currentKey = new Uint8Array(0);
    return root;
  }

  /** Combines the top `n` + 1 entries into one. */
  private fold(n: number): void {
    let top = this.stack.pop()!;
    for (let i = 0; i < n; i++) top = combine(this.stack.pop()!, top);
    this.stack.push(top);
  }
}
