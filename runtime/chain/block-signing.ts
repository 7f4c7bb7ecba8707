import { concatBytes } from '../../host-api/encoding/bytes.js';
import { blockKey } from '../../host-api/abi/keys.js';
import { DbId } from '../../host-api/abi/databases.js';
import type { Claim } from '../../host-api/types/index.js';
import { sha256 } from '../crypto/sha256.js';
import type { KvReader, KvWriter } from '../db/store.js';
import type { Signer } from '../keys/signer.js';

// Block signatures (docs/chain.md §2): a producer whose consensus entry carries a claim signs each
// of its blocks for that claim's verify service, over sha256(00 CE A8 42 ‖ block id), the hash
// verifySys is given as its transactionHash. The signature is kept in db 7 under the block's
// number, beside the block log. An empty claim means unsigned blocks.

const BLOCK_SIGNING_PREFIX = Uint8Array.of(0x00, 0xce, 0xa8, 0x42);

/** The digest a block's signature signs. */
function blockSigningDigest(blockId: Uint8Array): Uint8Array {
  return sha256(concatBytes(BLOCK_SIGNING_PREFIX, blockId));
}

/** The signer a node holds for a producer's claim, or undefined when it holds none. */
export type BlockSigners = (claim: Claim) => Signer | undefined;

export function isEmptyClaim(claim: Claim): boolean {
  return claim.service === 0n && claim.rawData.length === 0;
}

/** Signs block `blockId` and keeps the signature in db 7. */
export function signBlock(db: KvWriter, blockNum: number, blockId: Uint8Array, signer: Signer): void {
  db.put(DbId.blockProof, blockKey(blockNum), signer(blockSigningDigest(blockId)));
}

/** The signature of block `blockNum`, if it was signed. */
export function readBlockSignature(db: KvReader, blockNum: number): Uint8Array | undefined {
  return db.get(DbId.blockProof, blockKey(blockNum));
}
