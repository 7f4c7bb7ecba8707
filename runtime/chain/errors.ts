import { TsibaseError } from '../../host-api/errors.js';

export type ChainErrorCode =
  | 'CHAIN_ALREADY_BOOTED'     // push_boot on a node that has a chain
  | 'CHAIN_NOT_BOOTED'         // a transaction before boot
  | 'CHAIN_NO_PRODUCER'        // booting or producing without a producer name
  | 'CHAIN_NO_BLOCK_KEY'       // the producer's claim asks for signed blocks and the node holds no key for it
  | 'TRANSACTION_INVALID'      // undecodable or malformed transaction
  | 'TRANSACTION_PROOFS'       // proofs and claims differ in number, or a proof does not verify
  | 'BLOCK_FAILED';            // a block could not be built (startBlock or boot failed)

/** The node refused a transaction or a block before any trace existed; the message says why. */
export class ChainError extends TsibaseError {
  declare readonly code: ChainErrorCode;

  constructor(code: ChainErrorCode, message: string) {
    super(code, message);
  }
}
