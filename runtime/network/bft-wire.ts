import { bytesToHex, hexToBytes } from '../../host-api/encoding/hex.js';
import { FracpackError } from '../../host-api/fracpack/index.js';
import type { Claim } from '../../host-api/types/index.js';
import type { Executor } from '../wasm/executor.js';
import type { BftBlockConfirm, BftConfirm, BftMessage, BftOptions, BftUnsigned, BftViewChange } from './consensus/bft-io.js';
import { verifiesMessage } from './message-signatures.js';
import { P2PMessageError, p2pSchema, signedMessage, signingPreimage, type MessageOf, type P2PMessage } from './messages/index.js';
import type { ProducerName } from './routing/routing-io.js';

// Between the wire (docs/p2p.md §2.2: BFT messages 38-41 with their signer claim, ids as
// Checksum256 bytes, BlockConfirm in auxConsensusData) and the BFT state machine (ids as hex,
// signatures as the bytes the producer's claim made, no claims: consensus/bft-io.ts).

export type BftWireKind = 'PrepareMessage' | 'CommitMessage' | 'ViewChangeMessage' | 'RequestViewMessage';
type Confirms = readonly { readonly producer: bigint; readonly signature: Uint8Array }[];

const BLOCK_CONFIRM = p2pSchema.type('BlockConfirm');

function confirmsOf(list: Confirms): BftConfirm<Uint8Array>[] {
  return list.map(({ producer, signature }) => ({ producer, signature }));
}

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
        prepares: confirmsOf(body.prepares),
        ...(body.nextPrepares ? { nextPrepares: confirmsOf(body.nextPrepares) } : {}),
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

/**
 * psibase's verifyMsig for one signature: the prepare or commit re-packed with the producer's
 * claim (§2.2: both encodings are canonical) must verify. A producer without a claim fails.
 */
export function confirmVerifier(executor: Executor, claimOf: (producer: ProducerName, blockId: string, group: number) => Claim | undefined): BftOptions<Uint8Array>['verify'] {
  return (kind, blockId, producer, signature, group) => {
    const signer = claimOf(producer, blockId, group);
    if (!signer) return false;
    const body = { blockId: hexToBytes(blockId), producer, signer };
    return verifiesMessage(executor, signedMessage(kind as 'PrepareMessage', body, signature));
  };
}

/** auxConsensusData for a commit proof (§3.5). */
export function encodeBlockConfirm(confirm: BftBlockConfirm<Uint8Array>): Uint8Array {
  return BLOCK_CONFIRM.pack({ blockNum: confirm.blockNum, commits: [...confirm.commits], nextCommits: confirm.nextCommits ? [...confirm.nextCommits] : null });
}

/** The commit proof in a block's auxConsensusData; P2P_BAD_MESSAGE when it is not a BlockConfirm. */
export function decodeBlockConfirm(aux: Uint8Array): BftBlockConfirm<Uint8Array> {
  try {
    const { blockNum, commits, nextCommits } = BLOCK_CONFIRM.unpack(aux);
    return { blockNum, commits: confirmsOf(commits), ...(nextCommits ? { nextCommits: confirmsOf(nextCommits) } : {}) };
  } catch (err) {
    if (err instanceof FracpackError) throw new P2PMessageError('P2P_BAD_MESSAGE', `auxConsensusData is not a BlockConfirm: ${err.message}`, { cause: err });
    throw err;
  }
}
