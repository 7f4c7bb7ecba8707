import { sha256 } from '@noble/hashes/sha2.js';

// docs/chain.md §1.1: leaf = sha256(0x00 ‖ item), node = sha256(0x01 ‖ left ‖ right), the empty tree
// is 32 zero bytes, minimal depth with left subtrees filled first (3 leaves -> ((1,2),3)).
// SHA-256 is @noble/hashes' unless the caller brings a faster one (the node uses node:crypto).
//
// A block's roots hash every transaction and event twice or so (a leaf, a share of the nodes):
// each input is built in one reused buffer, as a new array of over 64 bytes costs V8 a backing
// store of its own (about as much as the hash itself, node:crypto's ~1 µs, and its collection).

/** SHA-256 of `data`, in a new array; it must not keep `data` (its bytes are reused after it returns). */
export type Sha256 = (data: Uint8Array) => Uint8Array;

/** Where each leaf's and node's input is built; grown for a larger item, up to MAX_SCRATCH. */
let scratch = new Uint8Array(256);
/** An item larger than this gets an array of its own, so that one huge event is not held for good. */
const MAX_SCRATCH = 64 * 1024;

/** `length` bytes to build an input in (their content is whatever was left there). */
function scratchOf(length: number): Uint8Array {
  if (length > MAX_SCRATCH) return new Uint8Array(length);
  if (scratch.length < length) scratch = new Uint8Array(Math.min(MAX_SCRATCH, Math.max(length, scratch.length * 2)));
  return scratch.subarray(0, length);
}

export function merkleLeaf(packedItem: Uint8Array, hash: Sha256 = sha256): Uint8Array {
  const input = scratchOf(1 + packedItem.length);
  input[0] = 0;
  input.set(packedItem, 1);
  return hash(input);
}

function merkleNode(left: Uint8Array, right: Uint8Array, hash: Sha256): Uint8Array {
  const input = scratchOf(65);
  input[0] = 1;
  input.set(left, 1);
  input.set(right, 33);
  return hash(input);
}

/** The root over leaf hashes (see merkleLeaf). */
export function merkleRootOfLeaves(leaves: readonly Uint8Array[], hash: Sha256 = sha256): Uint8Array {
  if (leaves.length === 0) return new Uint8Array(32);
  const root = (from: number, count: number): Uint8Array => {
    if (count === 1) return leaves[from]!;
    // The left subtree holds the largest power of two below `count`.
    let left = 1;
    while (left * 2 < count) left *= 2;
    return merkleNode(root(from, left), root(from + left, count - left), hash);
  };
  return root(0, leaves.length);
}

/** The root over packed items. */
export function merkleRoot(packedItems: readonly Uint8Array[], hash: Sha256 = sha256): Uint8Array {
  return merkleRootOfLeaves(packedItems.map((item) => merkleLeaf(item, hash)), hash);
}
