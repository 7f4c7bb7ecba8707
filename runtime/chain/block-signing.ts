import { concatBytes } from '../../host-api/encoding/bytes.js';
import { blockKey } from '../../host-api/abi/keys.js';
import { DbId } from '../../host-api/abi/databases.js';
import type { Claim } from '../../host-api/types/index.js';
import { sha256 } from '../crypto/sha256.js';
import type { KvReader, KvWriter } from '../db/store.js';
import type { Signer } from '../keys/signer.js';
import type { Executor } from '../wasm/executor.js';
import { firstFailedProof } from './claim-proofs.js';

// Block signatures (docs/chain.md §2, docs/p2p.md §3.3): a producer whose consensus entry carries a
// claim signs each of its blocks for that claim's verify service, over sha256(00 CE A8 42 ‖ block
// id), the hash verifySys is given as its transactionHash. The signature is kept in db 7 under the
// block's number, beside the block log. An empty claim means unsigned blocks.

const BLOCK_SIGNING_PREFIX = Uint8Array.of(0x00, 0xce, 0xa8, 0x42);

/** The signer a node holds for a producer's claim, or undefined when it holds none. */
export type BlockSigners = (claim: Claim) => Signer | undefined;

/** The claim of a producer without a key: its blocks and messages are unsigned. */
export const EMPTY_CLAIM: Claim = Object.freeze({ service: 0n, rawData: new Uint8Array(0) });

export function isEmptyClaim(claim: Claim): boolean {
  return claim.service === 0n && claim.rawData.length === 0;
}

/** What a block's producer signs (psibase's BlockSignatureInfo). */
export function blockSignatureInfo(blockId: Uint8Array): Uint8Array {
  return concatBytes(BLOCK_SIGNING_PREFIX, blockId);
}

/** The signature of block `blockId` by `signer`. */
export function signBlock(blockId: Uint8Array, signer: Signer): Uint8Array {
  return signer(sha256(blockSignatureInfo(blockId)));
}

/**
 * Runs the claim's verify service on a block's signature; returns why it failed, or undefined.
 * Under an empty claim any signature passes, as in psibase (docs/p2p.md §2.0).
 */
export function blockSignatureFailure(executor: Executor, claim: Claim, blockId: Uint8Array, signature: Uint8Array): Promise<Error | undefined> {
  if (isEmptyClaim(claim)) return Promise.resolve(undefined);
  const signedData = blockSignatureInfo(blockId);
  return firstFailedProof(executor, [{ claim, proof: signature, signedData, digest: sha256(signedData) }]);
}

/** Keeps a block's signature in db 7; an unsigned block (empty signature) has no row. */
export function writeBlockSignature(db: KvWriter, blockNum: number, signature: Uint8Array): void {
  if (signature.length > 0) db.put(DbId.blockProof, blockKey(blockNum), signature);
}

/** The signature of block `blockNum`, if it was signed. */
export function readBlockSignature(db: KvReader, blockNum: number): Uint8Array | undefined {
  return db.get(DbId.blockProof, blockKey(blockNum));
}
