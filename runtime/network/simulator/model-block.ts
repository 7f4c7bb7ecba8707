import { bytesToHex } from '../../../host-api/encoding/hex.js';
import { utf8Bytes } from '../../../host-api/encoding/utf8.js';
import { sha256 } from '../../crypto/sha256.js';
import type { BftBlockConfirm } from '../consensus/bft-io.js';
import type { SyncHeader } from '../sync/block-header.js';
import { consensusText, type ModelConsensus } from './model-consensus.js';

// The simulator's blocks: a header and nothing else. The id is a hash of the other fields with the
// block number in its first four bytes, big-endian, like a real block id (docs/p2p.md §3.2).
// BFT blocks may carry a commit proof (auxConsensusData, §3.5), which the id does not cover.

export interface ModelBlock extends SyncHeader {
  readonly producer: string;
  /** The producer sets after this block, in a run where they can change. */
  readonly consensus?: ModelConsensus;
  /** Tells apart two blocks a Byzantine leader makes at one height in one term. */
  readonly variant?: string;
  readonly aux?: BftBlockConfirm<string>;
}

export function modelBlockId(fields: Omit<ModelBlock, 'id'>): string {
  const { previous, num, producer, term, commitNum, consensus, variant } = fields;
  const extra = `${consensus ? `/${consensusText(consensus)}` : ''}${variant === undefined ? '' : `/${variant}`}`;
  const digest = sha256(utf8Bytes(`${previous}/${num}/${producer}/${term}/${commitNum}${extra}`));
  new DataView(digest.buffer, digest.byteOffset).setUint32(0, num);
  return bytesToHex(digest);
}

export function makeModelBlock(fields: Omit<ModelBlock, 'id'>): ModelBlock {
  return { ...fields, id: modelBlockId(fields) };
}

/** A model block carries its own header; sync reads it as is. */
export function modelHeader(block: ModelBlock): SyncHeader {
  return block;
}
