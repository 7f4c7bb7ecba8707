import { sha256 } from '@noble/hashes/sha2.js';

// docs/chain.md §1.1: leaf = sha256(0x00 ‖ item), node = sha256(0x01 ‖ left ‖ right), the empty tree
// is 32 zero bytes, minimal depth with left subtrees filled first (3 leaves -> ((1,2),3)).
// SHA-256 is @noble/hashes' unless the caller brings a faster one (the node uses node:crypto).

export type Sha256 = (data: Uint8Array) => Uint8Array;

export function merkleLeaf(packedItem: Uint8Array, hash: Sha256 = sha256): Uint8Array {
  const input = new Uint8Array(1 + packedItem.length);
  input.set(packedItem, 1);
  return hash(input);
}

function merkleNode(left: Uint8Array, right: Uint8Array, hash: Sha256): Uint8Array {
  const input = new Uint8Array(65);
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
