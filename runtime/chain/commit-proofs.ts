import { concatBytes } from '../../host-api/encoding/bytes.js';
import { hexToBytes } from '../../host-api/encoding/hex.js';
import { compileSchema, FracpackError, type Schema } from '../../host-api/fracpack/index.js';
import { CORE_SCHEMA, type Claim } from '../../host-api/types/index.js';
import type { ClaimVerifier } from './interface.js';
import { ChainError } from './errors.js';

// A block's BFT commit proof (docs/p2p.md §3.5, §5.4, §5.5): the BlockConfirm a leader puts in
// auxConsensusData, the commits (psibase's ProducerConfirm) of a quorum of each producer set, and
// what each producer signed: its prepare or commit message of §2.2 (38, 39), re-packed with its
// claim. The P2P messages (runtime/network/messages) take these formats from here, so a block's
// proof, a snapshot's light validation and the BFT messages read one definition.

export const CONFIRM_SCHEMA = {
  PrepareMessage: { Object: { blockId: 'Checksum256', producer: 'AccountNumber', signer: 'Claim' } },
  /** A Struct, so that stored ProducerConfirms can be re-packed into it and checked again. */
  CommitMessage: { Struct: { blockId: 'Checksum256', producer: 'AccountNumber', signer: 'Claim' } },
  ProducerConfirm: { Object: { producer: 'AccountNumber', signature: 'bytes' } },
  /** Not a message: the content of SignedBlock.auxConsensusData (docs/p2p.md §2.2, §5.4). */
  BlockConfirm: {
    Object: { blockNum: 'u32', commits: { List: 'ProducerConfirm' }, nextCommits: { Option: { List: 'ProducerConfirm' } } },
  },
} as const satisfies Schema;

/** The P2P type bytes of a prepare and a commit (docs/p2p.md §2.1): the first byte of what a producer signs. */
export const CONFIRM_TYPES = { PrepareMessage: 38, CommitMessage: 39 } as const;

export type ConfirmKind = keyof typeof CONFIRM_TYPES;

/** psibase's ProducerConfirm: one producer's signature over a prepare or commit of a block (`S` as the caller keeps a signature). */
export interface ProducerConfirm<S> {
  readonly producer: bigint;
  readonly signature: S;
}

/** The irreversibility proof a leader puts in auxConsensusData (§3.5, §5.4). */
export interface BlockConfirm<S> {
  readonly blockNum: number;
  readonly commits: readonly ProducerConfirm<S>[];
  readonly nextCommits?: readonly ProducerConfirm<S>[];
}

const schema = compileSchema({ ...CORE_SCHEMA, ...CONFIRM_SCHEMA });
const BLOCK_CONFIRM = schema.type('BlockConfirm');
const SIGNED_BODY = { PrepareMessage: schema.type('PrepareMessage'), CommitMessage: schema.type('CommitMessage') };

/** Confirms as decoded, without anything else the wire value carries. */
export function producerConfirms(list: readonly ProducerConfirm<Uint8Array>[]): ProducerConfirm<Uint8Array>[] {
  return list.map(({ producer, signature }) => ({ producer, signature }));
}

/** auxConsensusData for a commit proof (§3.5). */
export function encodeBlockConfirm(confirm: BlockConfirm<Uint8Array>): Uint8Array {
  return BLOCK_CONFIRM.pack({ blockNum: confirm.blockNum, commits: [...confirm.commits], nextCommits: confirm.nextCommits ? [...confirm.nextCommits] : null });
}

/** The commit proof in a block's auxConsensusData; BLOCK_INVALID when it is not a BlockConfirm. */
export function readBlockConfirm(aux: Uint8Array): BlockConfirm<Uint8Array> {
  try {
    const { blockNum, commits, nextCommits } = BLOCK_CONFIRM.unpack(aux);
    return { blockNum, commits: producerConfirms(commits), ...(nextCommits ? { nextCommits: producerConfirms(nextCommits) } : {}) };
  } catch (err) {
    if (err instanceof FracpackError) throw new ChainError('BLOCK_INVALID', `auxConsensusData is not a BlockConfirm: ${err.message}`, { cause: err });
    throw err;
  }
}

/**
 * psibase's verifyMsig for one signature: the prepare or commit of block `blockId` (hex) re-packed
 * with the producer's claim (§2.2: both encodings are canonical), `[type] ‖ fracpack(body)` (§2.0),
 * must verify. A producer without a claim fails.
 */
export function confirmVerifier(claims: ClaimVerifier, claimOf: (producer: bigint, blockId: string, group: number) => Claim | undefined) {
  return (kind: ConfirmKind, blockId: string, producer: bigint, signature: Uint8Array, group: number): boolean => {
    const signer = claimOf(producer, blockId, group);
    if (!signer) return false;
    const preimage = concatBytes(Uint8Array.of(CONFIRM_TYPES[kind]), SIGNED_BODY[kind].pack({ blockId: hexToBytes(blockId), producer, signer }));
    return claims.verifies(signer, preimage, signature);
  };
}
