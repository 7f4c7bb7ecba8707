// Light validation of a snapshot's consensus-change headers (docs/p2p.md §5.5, §7.3, §7.4;
// psibase's LightValidator / LightHeaderState): starting from the producers this node trusts (its
// own chain's, or for a new database the empty set before genesis), each header must follow the
// last one, carry the hash of the joint consensus tracked so far, and a header that ends joint
// consensus must prove the change irreversible under the outgoing set: CFT by the signature of a
// producer of that set, BFT by the commits in its auxConsensusData from both sets. What is left is
// the producer set the snapshot's signatures must come from.

import { blockId as computeBlockId } from '../../host-api/chain/block-id.js';
import { equalBytes } from '../../host-api/encoding/bytes.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { accountNameFromNumber } from '../../host-api/names/index.js';
import type { Claim, Consensus, SignedBlock } from '../../host-api/types/index.js';
import { JointConsensus, type ConsensusChangeRow, type StatusRow } from '../../host-api/types/native.js';
import { genesisConsensus } from '../chain/block-builder.js';
import { blockSignatureInfo, EMPTY_CLAIM, isEmptyClaim } from '../chain/block-signing.js';
import { confirmVerifier, readBlockConfirm, type ProducerConfirm } from '../chain/commit-proofs.js';
import { activeProducers, claimAmong, nextBlockConsensus, producersOf } from '../chain/consensus.js';
import { quorumOf } from '../chain/quorum.js';
import { sha256 } from '../crypto/sha256.js';
import type { ClaimVerifier } from '../chain/interface.js';
import { SnapshotError } from './snapshot-error.js';

/** A quorum of a set (psibase's strongThreshold). */
function strongThreshold(consensus: Consensus): number {
  return quorumOf('CftConsensus' in consensus.data ? 'cft' : 'bft', producersOf(consensus).length);
}

const refuse = (message: string): never => {
  throw new SnapshotError('SNAPSHOT_HEADERS', message);
};

export class LightValidator {
  private state: JointConsensus;
  private stateHash: Uint8Array;
  private last: number;
  /** The ids of the headers seen since joint consensus started: a BFT proof names one of them. */
  private joint = new Map<number, Uint8Array>();

  /**
   * Starts from `local`, this node's status (its head and the consensus the next block starts
   * under), or before genesis when the database is new. `claims` checks signatures by their verify services.
   */
  constructor(local: StatusRow | undefined, private readonly claims: ClaimVerifier) {
    this.state = local?.head ? nextBlockConsensus(local) : { current: genesisConsensus().current, next: null };
    this.stateHash = sha256(JointConsensus.pack(this.state));
    this.last = local?.head?.header.blockNum ?? 1;
  }

  /** The last block validated (or this node's head). */
  get blockNum(): number {
    return this.last;
  }

  /** The producers as validated so far. */
  get consensus(): JointConsensus {
    return this.state;
  }

  /** Takes the next header; returns the change it ends, if it ends one. Throws SNAPSHOT_HEADERS when it does not validate. */
  push(signed: SignedBlock): ConsensusChangeRow | undefined {
    const { header } = signed.block;
    const num = header.blockNum;
    if (num <= this.last) refuse(`header ${num} does not follow header ${this.last}`);
    if (header.newConsensus) {
      if (this.state.next) refuse(`header ${num} starts a producer change while another is pending`);
      this.state = { ...this.state, next: { consensus: header.newConsensus, blockNum: num } };
      this.stateHash = sha256(JointConsensus.pack(this.state));
    }
    if (!equalBytes(this.stateHash, header.consensusState)) refuse(`header ${num}: consensus state does not match`);
    const id = computeBlockId(header);
    this.last = num;
    const next = this.state.next;
    if (!next) return undefined;
    this.joint.set(num, id);
    if (header.commitNum < next.blockNum) return undefined;
    const commit = 'CftConsensus' in this.state.current.data ? this.cftProof(signed, id) : this.bftProof(signed);
    this.state = { current: next.consensus, next: null };
    this.stateHash = sha256(JointConsensus.pack(this.state));
    this.joint.clear();
    return { start: next.blockNum, commit, end: num };
  }

  /** CFT: the ending block is signed by one of its producers; its commitNum is the commit. */
  private cftProof(signed: SignedBlock, id: Uint8Array): number {
    const { header } = signed.block;
    // A leader elected during joint consensus may be of the next set only when that set is CFT
    // too, and the chain takes its blocks (docs/p2p.md §6.1, §7.3): so a producer of either set.
    const claim = producersOf(this.state.current).length === 0
      ? EMPTY_CLAIM
      : claimAmong(activeProducers(this.state), header.producer) ?? refuse(`${accountNameFromNumber(header.producer)} is not an active producer (header ${header.blockNum})`);
    if (!isEmptyClaim(claim)) {
      const signedData = blockSignatureInfo(id);
      const failure = this.claims.proofError({ claim, proof: signed.signature, signedData, digest: sha256(signedData) });
      if (failure) refuse(`header ${header.blockNum}: the signature of ${accountNameFromNumber(header.producer)} does not verify: ${failure.message}`);
    }
    return header.commitNum;
  }

  /** BFT (docs/p2p.md §5.5): aux commits of a joint-consensus block by a quorum of each set. */
  private bftProof(signed: SignedBlock): number {
    const { header } = signed.block;
    if (signed.auxConsensusData === null) refuse(`header ${header.blockNum}: BFT requires auxConsensusData to prove irreversibility`);
    let confirm;
    try {
      confirm = readBlockConfirm(signed.auxConsensusData!);
    } catch (err) {
      return refuse(`header ${header.blockNum}: ${(err as Error).message}`);
    }
    const blockId = this.joint.get(confirm.blockNum) ?? refuse(`header ${header.blockNum}: its proof names block ${confirm.blockNum}, not a known header of the producer change`);
    this.checkCommits(this.state.current, blockId, confirm.commits);
    if (!confirm.nextCommits) refuse(`header ${header.blockNum}: the commits of the next producers are missing`);
    this.checkCommits(this.state.next!.consensus, blockId, confirm.nextCommits!);
    return confirm.blockNum;
  }

  private checkCommits(consensus: Consensus, blockId: Uint8Array, commits: readonly ProducerConfirm<Uint8Array>[]): void {
    const num = commits.length;
    if (num < strongThreshold(consensus)) refuse(`${num} commits for block ${bytesToHex(blockId)}, fewer than the ${strongThreshold(consensus)} needed`);
    const verify = confirmVerifier(this.claims, (producer) => this.claimOf(consensus, producer));
    const hexId = bytesToHex(blockId);
    commits.forEach(({ producer, signature }, i) => {
      if (i > 0 && commits[i - 1]!.producer >= producer) refuse('the commits are not ordered by producer');
      if (!verify('CommitMessage', hexId, producer, signature, 0)) refuse(`the commit of ${accountNameFromNumber(producer)} for block ${hexId} does not verify`);
    });
  }

  /** A producer's claim in `consensus`; a set without producers signs with the empty claim. */
  private claimOf(consensus: Consensus, producer: bigint): Claim {
    const producers = producersOf(consensus);
    if (producers.length === 0) return EMPTY_CLAIM;
    return claimAmong(producers, producer) ?? refuse(`${accountNameFromNumber(producer)} is not an active producer`);
  }
}
