// A node's part in scheduled snapshots (docs/p2p.md §7.2). When a block transact scheduled a
// snapshot of is committed, its state is kept (kept-states.ts) and its checksum recorded in the
// block's SnapshotRow. Once the irreversible block is past it, a producer of the current set
// signs the checksum; the signed StateChecksumMessage is flooded. Checksums received from peers
// are verified and added to the row: to `state` when they match this node's own, to `other` when
// not. Signed snapshots are offered to peers and received from them (docs/p2p.md §7.4).

import { equalBytes } from '../../host-api/encoding/bytes.js';
import type { BlockHeader } from '../../host-api/types/index.js';
import type { SnapshotRow, SnapshotStateItem, StateChecksum, StateSignature, StatusRow } from '../../host-api/types/native.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import type { BlockSigners } from '../chain/block-signing.js';
import { isEmptyClaim } from '../chain/block-signing.js';
import { readStatus } from '../chain/chain-state.js';
import { producersOf } from '../chain/consensus.js';
import type { Store } from '../db/store.js';
import type { ClaimVerifier } from '../chain/interface.js';
import { readBlock } from '../chain/block-log.js';
import { blockId as computeBlockId, blockNumOfId } from '../../host-api/chain/block-id.js';
import { applySnapshot, type LoadedSnapshot } from './apply-snapshot.js';
import type { IsSigned, KeptStates } from './kept-states.js';
import type { SnapshotContent } from './snapshot-file.js';
import { snapshotOffer, type SnapshotOffer } from './snapshot-transfer.js';
import { isScheduledSnapshot, readSnapshotRow, sameChecksum, writeSnapshotRow } from './snapshot-rows.js';
import { enoughSignatures, signState, signingProducer, stateSignatureFailure } from './state-signatures.js';

/** The body of a StateChecksumMessage (docs/p2p.md §2.2, type 42): a producer's signature over the state of a block. */
export interface StateChecksumBody {
  readonly blockId: Uint8Array;
  readonly state: StateChecksum;
  readonly signature: StateSignature;
}

interface Unsigned {
  readonly blockNum: number;
  readonly blockId: Uint8Array;
  readonly checksum: StateChecksum;
}

/** At most this many checksums wait for their blocks (a peer far ahead sends them in vain). */
const MAX_EARLY = 64;

export class NodeSnapshots {
  /** Kept states not yet signed here, waiting for their block to become irreversible. */
  private unsigned: Unsigned[] = [];
  /** Checksums received for blocks this node has not reached yet (a producer floods them as it signs). */
  private early: StateChecksumBody[] = [];

  constructor(
    private readonly store: Store,
    /** Checks the state signatures of peers and of snapshots (the chain's). */
    private readonly claims: ClaimVerifier,
    private readonly kept: KeptStates,
    private readonly signers: BlockSigners,
    /** This node's producer account (0 when it produces nothing). */
    private readonly producer: () => bigint,
    private readonly warn: (message: string) => void,
  ) {
    // After a restart: kept states are signed once irreversible, unless this node signed them already.
    for (const { blockNum, blockId } of kept.list()) {
      const row = readSnapshotRow(store, blockId);
      if (row?.state && !row.state.signatures.some((s) => s.account === producer())) this.unsigned.push({ blockNum, blockId, checksum: row.state.state });
    }
  }

  /**
   * Block `header`/`blockId` was just committed, so the store holds its state: a scheduled
   * snapshot's state is kept now. Returns the checksums this node signs, `irreversible` being
   * the irreversible block now, and the early checksums from peers this block made new here:
   * all of them are to be flooded.
   */
  blockCommitted(header: BlockHeader, blockId: Uint8Array, irreversible: number): StateChecksumBody[] {
    if (isScheduledSnapshot(this.store, header.blockNum)) {
      const checksum = this.kept.keep(header.blockNum, blockId, this.store, this.signedStates());
      this.record(blockId, checksum, undefined);
      this.unsigned.push({ blockNum: header.blockNum, blockId, checksum });
    }
    const reached = this.early.filter((e) => blockNumOfId(e.blockId) <= header.blockNum);
    this.early = this.early.filter((e) => blockNumOfId(e.blockId) > header.blockNum);
    return [...reached.filter((e) => this.receiveChecksum(e)), ...this.signIrreversible(irreversible)];
  }

  /**
   * Signs the kept states the irreversible block has moved past (psibase's onCommit fires one
   * block after a block becomes irreversible), if this node is a producer of the current set.
   */
  private signIrreversible(irreversible: number): StateChecksumBody[] {
    const due = this.unsigned.filter((u) => u.blockNum < irreversible);
    if (due.length === 0) return [];
    this.unsigned = this.unsigned.filter((u) => u.blockNum >= irreversible);
    const status = readStatus(this.store);
    const signed: StateChecksumBody[] = [];
    for (const u of due) {
      // A fork switch may have replaced the block whose state was kept.
      const block = readBlock(this.store, u.blockNum);
      if (!block || !equalBytes(computeBlockId(block.header), u.blockId) || !status) continue;
      const signature = this.ownSignature(status, u.checksum);
      if (!signature) continue;
      this.record(u.blockId, u.checksum, signature);
      signed.push({ blockId: u.blockId, state: u.checksum, signature });
    }
    return signed;
  }

  /**
   * Whether a kept state has the signatures a peer needs, counted against the head's producers
   * (newestSignedState counts them against the state's own, read from its file). The status is
   * read once, for all the states one pruning asks about.
   */
  private signedStates(): IsSigned {
    const consensus = readStatus(this.store)?.consensus.current;
    return (blockId) => {
      const signatures = readSnapshotRow(this.store, blockId)?.state?.signatures;
      return signatures !== undefined && consensus !== undefined && enoughSignatures(consensus, signatures);
    };
  }

  private ownSignature(status: StatusRow, checksum: StateChecksum): StateSignature | undefined {
    const self = this.producer();
    const producer = self === 0n ? undefined : producersOf(status.consensus.current).find((p) => p.name === self);
    if (!producer) return undefined;
    if (isEmptyClaim(producer.auth)) return signState(checksum, producer, undefined);
    const signer = this.signers(producer.auth);
    if (!signer) {
      this.warn(`snapshot: no key to sign the state checksum as producer ${producer.name}`);
      return undefined;
    }
    return signState(checksum, producer, signer);
  }

  /** The newest signed snapshot this node kept, to pass on to a peer (docs/p2p.md §7.4). */
  offer(): SnapshotOffer | undefined {
    return snapshotOffer(this.store, this.kept);
  }

  /** A snapshot received from a peer becomes this node's state (or is refused with a SnapshotError). */
  load(content: SnapshotContent): LoadedSnapshot {
    return applySnapshot(this.store, this.claims, this.kept, content);
  }

  /**
   * A StateChecksumMessage from a peer. One for a block above the head waits for that block.
   * Checksums of blocks this node does not have, by accounts
   * that are no current producer, or whose signature fails are dropped. Returns whether it was
   * new here (then it is flooded on).
   */
  receiveChecksum(body: StateChecksumBody): boolean {
    const num = blockNumOfId(body.blockId);
    const status = readStatus(this.store);
    if (num > (status?.head?.header.blockNum ?? 0)) {
      if (this.early.length < MAX_EARLY) this.early.push(body);
      return false;
    }
    const block = readBlock(this.store, num);
    if (!block || !equalBytes(computeBlockId(block.header), body.blockId)) return false;
    if (!status || !signingProducer(status.consensus.current, body.signature)) return false;
    const failure = stateSignatureFailure(this.claims, body.state, body.signature);
    if (failure) {
      this.warn(`snapshot: a state signature by ${body.signature.account} for block ${bytesToHex(body.blockId)} fails: ${failure.message}`);
      return false;
    }
    return this.record(body.blockId, body.state, body.signature);
  }

  /**
   * Adds a checksum (ours when `signature` is absent) and a signature to the block's SnapshotRow;
   * returns whether the signature was new.
   */
  private record(blockId: Uint8Array, checksum: StateChecksum, signature: StateSignature | undefined): boolean {
    const row: SnapshotRow = readSnapshotRow(this.store, blockId) ?? { id: blockId, state: null, other: [] };
    let added = false;
    const addTo = (item: SnapshotStateItem) => {
      if (!signature || item.signatures.some((s) => s.account === signature.account)) return;
      item.signatures.push(signature);
      added = true;
    };
    if (!signature) {
      // Our own checksum: the signatures received for it so far move into `state`.
      const matching = row.other.find((o) => sameChecksum(o.state, checksum));
      row.other = row.other.filter((o) => o !== matching);
      row.state = { state: checksum, signatures: matching?.signatures ?? [] };
    } else if (row.state && sameChecksum(row.state.state, checksum)) {
      addTo(row.state);
    } else {
      const other = row.other.find((o) => sameChecksum(o.state, checksum));
      if (other) addTo(other);
      else {
        row.other.push({ state: checksum, signatures: [signature] });
        added = true;
      }
    }
    writeSnapshotRow(this.store, row);
    this.store.subjective.commit();
    return added || !signature;
  }
}
