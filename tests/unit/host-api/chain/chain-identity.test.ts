// docs/chain.md §1.1-1.2 and §2: Merkle roots, block ids and TaPoS references.
import { createHash } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  BlockHeader, blockId, blockNumOfId, blockSuffix, merkleLeaf, merkleRoot, milestoneBlockIndex, recentBlockIndex, taposReference,
} from '../../../../host-api/index.js';
import { bytesToHex, hex } from '../../../lib/hex.js';

const node = (l: Uint8Array, r: Uint8Array) => sha256(Uint8Array.from([1, ...l, ...r]));
const items = [1, 2, 3, 4, 5].map((i) => Uint8Array.of(i));
const leaves = items.map((item) => merkleLeaf(item));

test('§1.1 merkle: leaf = sha256(00 ‖ item); empty tree = 32 zero bytes; one leaf is the root', () => {
  assert.is(bytesToHex(leaves[0]!), bytesToHex(sha256(Uint8Array.of(0, 1))));
  assert.is(bytesToHex(merkleRoot([])), '00'.repeat(32));
  assert.is(bytesToHex(merkleRoot(items.slice(0, 1))), bytesToHex(leaves[0]!));
});

test('§1.1 merkle: 3 leaves -> ((1,2),3); 5 leaves -> (((1,2),(3,4)),5)', () => {
  assert.is(bytesToHex(merkleRoot(items.slice(0, 3))), bytesToHex(node(node(leaves[0]!, leaves[1]!), leaves[2]!)));
  const four = node(node(leaves[0]!, leaves[1]!), node(leaves[2]!, leaves[3]!));
  assert.is(bytesToHex(merkleRoot(items)), bytesToHex(node(four, leaves[4]!)));
});

test('§1.1 merkle: a caller-supplied SHA-256 (node:crypto, as the node uses) gives the same roots', () => {
  const nodeSha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
  for (let n = 0; n <= items.length; n++) {
    assert.is(bytesToHex(merkleRoot(items.slice(0, n), nodeSha256)), bytesToHex(merkleRoot(items.slice(0, n))), `${n} items`);
  }
  assert.is(bytesToHex(merkleRoot(items, () => new Uint8Array(32))), '00'.repeat(32), 'the hash given is the hash used');
});

test('§1.1 merkle: items of any size, one after another, hash only their own bytes (the inputs are built in a reused buffer)', () => {
  // Fresh arrays for every input: the rule as written.
  const leaf = (item: Uint8Array) => sha256(Uint8Array.from([0, ...item]));
  const rootOf = (hashes: Uint8Array[]): Uint8Array => {
    if (hashes.length === 1) return hashes[0]!;
    let left = 1;
    while (left * 2 < hashes.length) left *= 2;
    return node(rootOf(hashes.slice(0, left)), rootOf(hashes.slice(left)));
  };
  // Long items first (the buffer grows, and keeps their bytes), then short ones, then an empty one.
  const sizes = [1000, 300, 5, 2000, 1, 64, 65, 70_000, 0, 3];
  const varied = sizes.map((size, i) => Uint8Array.from({ length: size }, (_, j) => (i * 31 + j) & 0xff || 0x5a));
  assert.is(bytesToHex(merkleRoot(varied)), bytesToHex(rootOf(varied.map(leaf))));
  for (const item of varied) assert.is(bytesToHex(merkleLeaf(item)), bytesToHex(leaf(item)), `${item.length} bytes`);
  // What a hash is given is the input alone, whatever was built before it.
  const seen: string[] = [];
  merkleRoot([Uint8Array.of(9), Uint8Array.of(8)], (data) => (seen.push(bytesToHex(data)), new Uint8Array(32)));
  assert.equal(seen, ['0009', '0008', `01${'00'.repeat(64)}`]);
});

test('docs/host-abi.md §9: an event merkle leaf of the empty record is sha256(00 00 00)', () => {
  assert.is(bytesToHex(merkleLeaf(Uint8Array.of(0, 0))), bytesToHex(sha256(Uint8Array.of(0, 0, 0))));
});

const header: BlockHeader = BlockHeader.fromJson({
  previous: '00'.repeat(32), blockNum: 0x01020304, time: '2025-01-02T03:04:05.000000Z', producer: 'prod', term: 1, commitNum: 7,
  consensusState: '11'.repeat(32), trxMerkleRoot: '22'.repeat(32), eventMerkleRoot: '33'.repeat(32), newConsensus: null, authCode: null,
});

test('§1.2 block id: sha256 of the header without authCode, first 4 bytes = block number', () => {
  const id = blockId(header);
  const digest = sha256(BlockHeader.pack(header));
  assert.is(bytesToHex(id.subarray(0, 4)), '01020304');
  assert.is(bytesToHex(id.subarray(4)), bytesToHex(digest.subarray(4)));
  assert.is(blockNumOfId(id), 0x01020304);
  const withCode = { ...header, authCode: [{ vmType: 0, vmVersion: 0, code: hex('0061736D') }] };
  assert.is(bytesToHex(blockId(withCode)), bytesToHex(id), 'authCode is not hashed');
  assert.is.not(bytesToHex(blockId({ ...header, commitNum: 8 })), bytesToHex(id));
});

test('§2 TaPoS: index of recent and milestone blocks; suffix = last 4 id bytes little-endian', () => {
  assert.is(recentBlockIndex(130), 2);
  assert.is(milestoneBlockIndex(8192 * 3), 0x83);
  assert.throws(() => milestoneBlockIndex(100), /multiple of 8192/);
  const id = hex('00000005' + '00'.repeat(24) + '44332211');
  assert.is(blockSuffix(id), 0x11223344);
  assert.equal(taposReference(5, id), { refBlockIndex: 5, refBlockSuffix: 0x11223344 });
});

test.run();
