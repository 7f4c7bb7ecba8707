import { TsibaseError } from '../../host-api/errors.js';

export type ChainErrorCode =
  | 'CHAIN_ALREADY_BOOTED'     // push_boot on a node that has a chain
  | 'CHAIN_NOT_BOOTED'         // a transaction before boot
  | 'CHAIN_NO_PRODUCER'        // booting or producing without a producer name, or as one not in the producer set
  | 'CHAIN_NO_BLOCK_KEY'       // the producer's claim asks for signed blocks and the node holds no key for it
  | 'CHAIN_CLOSED'             // a block asked of a chain whose production stopped for good
  | 'CHAIN_HEAD_HELD'          // a block asked for while a received block is being verified
  | 'TRANSACTION_INVALID'      // undecodable or malformed transaction
  | 'TRANSACTION_PROOFS'       // proofs and claims differ in number, or a proof does not verify
  | 'CHAIN_IRREVERSIBLE'       // a revert that would take back an irreversible block
  | 'CHAIN_DEV_FORK'           // a block from another node offered to a development fork
  | 'BLOCK_FAILED'             // a block could not be built (startBlock, endBlock or boot failed)
  | 'BLOCK_NOT_NEXT'           // a received block's number or previous id does not follow the head
  | 'BLOCK_INVALID'            // a received block breaks a rule: time not after the head's, unknown producer, subjective data, an auxConsensusData that is no BlockConfirm
  | 'BLOCK_SIGNATURE'          // a received block's signature does not verify under its producer's claim
  | 'BLOCK_TRANSACTION'        // a transaction of a received block is malformed, its proofs fail, or it fails to run
  | 'BLOCK_MISMATCH';          // executing a received block derives another header (docs/p2p.md §3.4 "blockId does not match")

/** The node refused a transaction or a block before any trace existed; the message says why. */
export class ChainError extends TsibaseError {
  declare readonly code: ChainErrorCode;

  constructor(code: ChainErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
