import { bytesToHex, hexToBytes } from '../../host-api/encoding/hex.js';
import type { Claim } from '../../host-api/types/index.js';
import { ChainError } from '../chain/errors.js';
import { producerConfirms, readBlockConfirm } from '../chain/commit-proofs.js';
import type { BftBlockConfirm, BftMessage, BftUnsigned, BftViewChange } from './consensus/bft-io.js';
import { P2PMessageError, signedMessage, signingPreimage, type MessageOf, type P2PMessage } from './messages/index.js';

// Between the wire (docs/p2p.md §2.2: BFT messages 38-41 with their signer claim, ids as
// Checksum256 bytes, BlockConfirm in auxConsensusData) and the BFT state machine (ids as hex,
// signatures as the bytes the producer's claim made, no claims: consensus/bft-io.ts). The commit
// proof's format and its signature check are the chain's (chain/commit-proofs.ts).

export type BftWireKind = 'PrepareMessage' | 'CommitMessage' | 'ViewChangeMessage' | 'RequestViewMessage';

/** A received BFT message (its signature already checked) as the state machine takes it. */
export function bftMessageOf(message: MessageOf<BftWireKind>): BftMessage<Uint8Array> {
  switch (message.kind) {
    case 'RequestViewMessage':
      return { kind: 'RequestViewMessage' };
    case 'PrepareMessage':
    case 'CommitMessage': {
      const { blockId, producer } = (message as MessageOf<'PrepareMessage'>).body;
      return { kind: message.kind, body: { blockId: bytesToHex(blockId), producer }, signature: message.signature };
    }
    case 'ViewChangeMessage': {
      const body = (message as MessageOf<'ViewChangeMessage'>).body;
      const view: BftViewChange<Uint8Array> = {
        term: body.term,
        producer: body.producer,
        bestPrepared: bytesToHex(body.bestPrepared),
        bestPreparedTerm: body.bestPreparedTerm,
        prepares: producerConfirms(body.prepares),
        ...(body.nextPrepares ? { nextPrepares: producerConfirms(body.nextPrepares) } : {}),
      };
      return { kind: 'ViewChangeMessage', body: view, signature: message.signature };
    }
  }
}

/** The wire body of one of this producer's messages, with the claim it signs for. */
function wireBody(message: BftUnsigned<Uint8Array>, signer: Claim) {
  if (message.kind !== 'ViewChangeMessage') return { blockId: hexToBytes(message.body.blockId), producer: message.body.producer, signer };
  const { term, producer, bestPrepared, bestPreparedTerm, prepares, nextPrepares } = message.body;
  return { term, producer, signer, bestPrepared: hexToBytes(bestPrepared), bestPreparedTerm, prepares: [...prepares], nextPrepares: nextPrepares ? [...nextPrepares] : null };
}

/** What a producer signs for a message (docs/p2p.md §2.0): `[type] ‖ fracpack(body with its claim)`. */
export function bftPreimage(message: BftUnsigned<Uint8Array>, signer: Claim): Uint8Array {
  return signingPreimage(message.kind as 'PrepareMessage', wireBody(message, signer) as never);
}

/** The wire message of a BFT message made (and signed) by `signer`'s producer. */
export function bftWireMessage(message: BftMessage<Uint8Array>, signer: Claim): P2PMessage {
  if (message.kind === 'RequestViewMessage') return { kind: 'RequestViewMessage', body: {} };
  return signedMessage(message.kind as 'PrepareMessage', wireBody(message, signer) as never, message.signature);
}

/** The commit proof in a block's auxConsensusData; P2P_BAD_MESSAGE when it is not a BlockConfirm. */
export function decodeBlockConfirm(aux: Uint8Array): BftBlockConfirm<Uint8Array> {
  try {
    return readBlockConfirm(aux);
  } catch (err) {
    if (err instanceof ChainError) throw new P2PMessageError('P2P_BAD_MESSAGE', err.message, { cause: err.cause });
    throw err;
  }
}
