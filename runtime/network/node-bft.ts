import { equalBytes } from '../../host-api/encoding/bytes.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import type { BlockHeader, Claim, Consensus, SignedBlock } from '../../host-api/types/index.js';
import type { JointConsensus } from '../../host-api/types/native.js';
import { EMPTY_CLAIM, type BlockSigners } from '../chain/block-signing.js';
import type { Chain } from '../chain/chain.js';
import { activeSets, claimAmong, nextBlockConsensus, producersOf } from '../chain/consensus.js';
import { BlockProducerSets } from './block-producer-sets.js';
import { confirmVerifier, encodeBlockConfirm } from '../chain/commit-proofs.js';
import { bftMessageOf, bftPreimage, bftWireMessage, decodeBlockConfirm, type BftWireKind } from './bft-wire.js';
import { Bft, sameGroup } from './consensus/bft.js';
import type { CftTakeOver } from './consensus/cft-io.js';
import type { BftBlock, BftBlockConfirm, BftConfirm, BftEvent, BftGroup, BftKept, BftMessage, BftUnsigned } from './consensus/bft-io.js';
import { ConsensusTimer } from './consensus-timer.js';
import { P2PMessageError, type MessageOf, type P2PMessage } from './messages/index.js';
import { writeLog, type NetworkLog, type PeerId } from './peer-io.js';
import { claimOf, sameClaim, signForClaim } from './producer-claims.js';
import type { ProducerName } from './routing/routing-io.js';

// BFT in the node (docs/p2p.md §5, §6.1): the state machine of consensus/bft.ts with its timer,
// its messages signed with this producer's claim, received blocks checked and their commit
// proofs (auxConsensusData) taken before block sync has them, and its verdicts carried out on
// the chain (lead, stop, commit) and on block sync (commit, root). The node runs it while the
// current producer set is a BftConsensus; under CFT it stays nonvoting.

/** What BFT uses of the rest of the node. */
export interface BftPorts {
  readonly chain: Chain;
  readonly log: NetworkLog;
  readonly blockSigners: BlockSigners;
  readonly blockIntervalMs: number;
  /** Multicasts to every producer (routing, §A). */
  readonly multicastProducers: (message: P2PMessage) => void;
  /** Sends to every linked peer, or to one. */
  readonly sendToLinks: (message: P2PMessage, to?: PeerId) => void;
  /** Irreversibility moved: block sync commits too. */
  readonly committed: (num: number) => void;
  /** Fork choice keeps to this block's subtree (§3.6). */
  readonly root: (id: string) => void;
  /** Safety is broken (§3.6): the node stops producing and says so. */
  readonly failed: (reason: string) => void;
  /** The state kept from before a restart, and where to keep it (consensus-bft-file.ts). */
  readonly kept: { readonly restored: BftKept<Uint8Array> | undefined; readonly keep: (kept: BftKept<Uint8Array>) => void };
}

/** The producer sets of a consensus as BFT reads them: each with its algorithm, names sorted as u64 (§5.1). */
export function bftGroups(consensus: JointConsensus): BftGroup[] {
  return activeSets(consensus).map(groupOf);
}

function groupOf(consensus: Consensus): BftGroup {
  const producers = producersOf(consensus).map((p) => p.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { algorithm: 'CftConsensus' in consensus.data ? 'cft' : 'bft', producers };
}

/** Whether the current producer set of `consensus` runs BFT. */
export function runsBft(consensus: JointConsensus): boolean {
  return 'BftConsensus' in consensus.current.data;
}

/**
 * After a restart the chain is irreversible up to the block BFT committed last (kept in
 * consensus-bft.json), if it is still the chain's block there: under BFT a header's commitNum
 * proves nothing (docs/p2p.md §5.4), so the chain does not learn it from the head.
 */
export function restoreBftCommit(chain: Chain, kept: BftKept<Uint8Array> | undefined): void {
  const committed = kept?.committed;
  const id = committed && chain.blockIdAt(committed.num);
  if (id && bytesToHex(id) === committed.id) chain.commitTo(committed.num);
}

export class NodeBft {
  private bft: Bft<Uint8Array>;
  private readonly timer = new ConsensusTimer();
  /** Tries again to sign a view change that could not be signed (psibase's sync-term timer). */
  private readonly retryTimer = new ConsensusTimer();
  /** The producer sets of the blocks seen, so that a received block is checked against its parent's (§6.1). */
  private readonly sets = new BlockProducerSets();
  private groups: BftGroup[] = [];
  private self: ProducerName | null = null;
  /** The state last kept on disk (or restored from it). */
  private keptNow: BftKept<Uint8Array> | undefined;
  /** Whether this node has run under a CFT set: a switch to BFT then starts a term of its own. */
  private afterCft = false;
  /** The link the message being handled came from (a RequestViewMessage's answers go back on it). */
  private sender: PeerId | undefined;
  private stopped = false;

  constructor(private readonly ports: BftPorts) {
    const restored = ports.kept.restored;
    this.keptNow = restored;
    this.bft = this.machine(restored);
    this.learnChain();
  }

  private machine(restored: BftKept<Uint8Array> | undefined): Bft<Uint8Array> {
    return new Bft<Uint8Array>({
      // docs/p2p.md §5.1: 10 s (and 30 s for the sync-term retry) at psibase's 1 s blocks, scaled with the block interval.
      baseTimeoutMs: 10 * this.ports.blockIntervalMs,
      retryViewChangeMs: 30 * this.ports.blockIntervalMs,
      sign: (message) => this.sign(message),
      verify: confirmVerifier(this.ports.chain.executor, (producer, blockId, group) => this.claimIn(blockId, producer, group)),
      ...(restored ? { restored } : {}),
    });
  }

  /**
   * `producer`'s claim in group `group` of block `blockId`'s sets, which for a block before a
   * change of claims are not the head's; the head's when the block's sets are not known here.
   */
  private claimIn(blockId: string, producer: ProducerName, group: number): Claim | undefined {
    const consensus = this.sets.consensusOf(blockId);
    if (!consensus) return claimOf(this.ports.chain, producer);
    const set = activeSets(consensus)[group];
    return set && claimAmong(producersOf(set), producer);
  }

  /** The view-change timeout in milliseconds (docs/p2p.md "What we build" 5). */
  get viewTimeoutMs(): number {
    return this.bft.viewTimeoutMs;
  }

  /** Whether this node's BFT takes part now (the current set is BFT). */
  get active(): boolean {
    return this.groups[0]?.algorithm === 'bft';
  }

  /** Where BFT is while it runs: its term and whether this node leads it (CFT goes on from there, §6.1). */
  get takeOver(): CftTakeOver | undefined {
    return this.active ? { term: this.bft.currentTerm, leading: this.bft.role === 'leader' } : undefined;
  }

  /**
   * The machine learns the chain's blocks from the irreversible one to the head (as it does when
   * the node starts), before it learns the producers and the head.
   */
  private learnChain(): void {
    const chain = this.ports.chain;
    const head = chain.head;
    const groups = this.statusGroups();
    const status = chain.status;
    if (head && status) this.sets.applied(head.header, bytesToHex(head.blockId), status.consensus);
    // Block 2 is the first there is (docs/chain.md §1.4).
    for (let num = Math.max(head?.irreversible ?? 2, 2); head && num <= head.header.blockNum; num++) {
      const stored = chain.signedBlockAt(num);
      if (stored) this.step({ type: 'block', block: this.blockOf(stored.signed.block.header, bytesToHex(stored.blockId), groups) });
    }
  }

  /** The producer sets or this node's name changed. */
  producersChanged(consensus: JointConsensus, self: ProducerName | null): void {
    const groups = bftGroups(consensus);
    if (self === this.self && sameGroups(groups, this.groups)) return;
    const switching = !this.active && groups[0]?.algorithm === 'bft';
    if (groups[0]?.algorithm === 'cft') this.afterCft = true;
    const headTerm = this.ports.chain.head?.header.term ?? 0;
    if (switching && this.afterCft && this.bft.currentTerm <= headTerm) {
      // BFT takes over from CFT in a term after the last CFT leader's (§6.1): its leader's blocks
      // then rank above any that leader made, and no block of one term comes from both.
      this.bft = this.machine({ ...this.bft.kept, term: headTerm + 1 });
      this.learnChain();
    }
    this.self = self;
    this.groups = groups;
    if (this.active) this.ports.chain.followConsensus();
    this.step({ type: 'producers', groups, self });
  }

  /**
   * Why a received block is refused, if it is (a wrong leader, a bad commit proof, aux data that
   * is not a BlockConfirm); otherwise BFT takes it and its proof, before block sync does.
   */
  receiveBlock(block: SignedBlock, id: string): string | undefined {
    // A block this node already holds was taken when it first came (a peer sends it again).
    const held = this.ports.chain.blockIdAt(block.block.header.blockNum);
    if (held && bytesToHex(held) === id) return undefined;
    let aux: BftBlockConfirm<Uint8Array> | undefined;
    try {
      aux = block.auxConsensusData ? decodeBlockConfirm(block.auxConsensusData) : undefined;
    } catch (err) {
      if (err instanceof P2PMessageError) return err.message;
      throw err;
    }
    // Checked against the sets of the block it builds on (§6.1); a block whose parent is unknown here goes nowhere anyway.
    const consensus = this.sets.received(block.block.header, id);
    const header = consensus ? this.blockUnder(block.block.header, id, consensus) : this.blockOf(block.block.header, id);
    const refused = this.bft.checkBlock(header, aux);
    if (refused !== undefined) return refused;
    this.step({ type: 'block', block: header, ...(aux ? { aux } : {}) });
    return undefined;
  }

  /** A block this node produced, before block sync streams it (and before producersChanged hears of its status row). */
  produced(header: BlockHeader, id: Uint8Array): void {
    this.step({ type: 'block', block: this.appliedBlock(header, bytesToHex(id)) });
  }

  /** The head changed: a block applied or produced (§5.3). */
  head(header: BlockHeader, id: Uint8Array): void {
    const irreversible = this.ports.chain.head?.irreversible ?? 0;
    this.sets.forgetBelow(irreversible);
    this.step({ type: 'head', head: this.appliedBlock(header, bytesToHex(id)), commitIndex: irreversible });
  }

  /** A BFT message that passed routing's signature check; its signer must be its producer's claim. */
  receive(message: MessageOf<BftWireKind>, from: PeerId): void {
    if (message.kind !== 'RequestViewMessage') {
      const body = (message as MessageOf<'PrepareMessage' | 'ViewChangeMessage'>).body;
      const claim = claimOf(this.ports.chain, body.producer);
      if (!claim || !sameClaim(claim, body.signer)) {
        this.ports.log.debug(`${message.kind} from ${body.producer} dropped: not signed for that producer's claim`);
        return;
      }
    }
    this.sender = from;
    try {
      this.step({ type: 'receive', message: bftMessageOf(message) });
    } finally {
      this.sender = undefined;
    }
  }

  /** A new link: the peer gets every view change held (psibase's send_all_view_changes, §5.2). */
  linkUp(peer: PeerId): void {
    for (const message of this.bft.viewChanges()) this.send('link', message, peer);
  }

  /** This node sent `peer` block `id`: every prepare and commit held for it follows (psibase's post_send_block, §5.3). */
  blockSent(peer: PeerId, id: string): void {
    for (const message of this.bft.confirmsOf(id)) this.send('link', message, peer);
  }

  /** The auxConsensusData of a block this node produces: the commit proof of its commitNum's block (§3.5). */
  auxConsensusData(commitNum: number): Uint8Array | null {
    if (!this.active) return null;
    const committed = this.ports.chain.blockIdAt(commitNum);
    const proof = committed && this.bft.proofOf(bytesToHex(committed));
    return proof ? encodeBlockConfirm(proof) : null;
  }

  /** This node's keys changed (a device unlocked, a key added): a view change it could not sign is signed now (§5.1). */
  keysChanged(): void {
    this.step({ type: 'keysChanged' });
  }

  stop(): void {
    this.stopped = true;
    this.timer.clear();
    this.retryTimer.clear();
  }

  /**
   * A header as BFT reads it, with the producer sets the chain's next block starts under: those
   * of the blocks at and around the head this node works on (§6.1). They are the sets the last
   * producersChanged gave, which hears of every new status row, unless `groups` says otherwise.
   */
  private blockOf(header: BlockHeader, id: string, groups: readonly BftGroup[] = this.groups, nextSince?: number): BftBlock {
    return {
      id, num: header.blockNum, previous: bytesToHex(header.previous), term: header.term, producer: header.producer, commitNum: header.commitNum, groups,
      ...(nextSince !== undefined ? { nextSince } : {}),
    };
  }

  /** A header with the sets of `consensus`, the consensus after the block (psibase's BlockHeaderState, §6.1). */
  private blockUnder(header: BlockHeader, id: string, consensus: JointConsensus): BftBlock {
    return this.blockOf(header, id, bftGroups(consensus), consensus.next?.blockNum);
  }

  /** The head block, applied or produced here: its sets are the status row's (and its children's start from them). */
  private appliedBlock(header: BlockHeader, id: string): BftBlock {
    const status = this.ports.chain.status;
    if (!status) return this.blockOf(header, id);
    this.sets.applied(header, id, status.consensus);
    return this.blockUnder(header, id, status.consensus);
  }

  /** The producer sets the chain's next block starts under, read from the status row. */
  private statusGroups(): BftGroup[] {
    const status = this.ports.chain.status;
    return status ? bftGroups(nextBlockConsensus(status)) : [];
  }

  private step(event: BftEvent<Uint8Array>): void {
    if (this.stopped) return;
    const ready = this.bft.step(event);
    // What the messages below depend on is on disk before they leave.
    const kept = this.bft.kept;
    if (!sameKept(this.keptNow, kept)) {
      this.ports.kept.keep(kept);
      this.keptNow = kept;
    }
    const chain = this.ports.chain;
    if (ready.consensusFailure !== undefined) {
      this.stop();
      chain.stopLeading();
      this.ports.failed(ready.consensusFailure);
      return;
    }
    if (ready.stopLeading) chain.stopLeading();
    if (ready.lead !== undefined) chain.lead(ready.lead);
    if (ready.stopTimer) this.timer.clear();
    if (ready.timerMs !== undefined) this.timer.set(ready.timerMs, () => this.step({ type: 'timeout' }));
    if (ready.retryViewChangeMs !== undefined) this.retryTimer.set(ready.retryViewChangeMs, () => this.step({ type: 'retryViewChange' }));
    const sender = this.sender;
    for (const { to, message } of ready.sends) this.send(to === 'sender' ? 'link' : to, message, sender);
    if (ready.root !== undefined) this.ports.root(ready.root);
    if (ready.commit !== undefined) {
      chain.commitTo(ready.commit);
      this.ports.committed(ready.commit);
    }
    writeLog(this.ports.log, ready.log);
  }

  /** 'producers' through routing; 'all' to every link (receivers flood it on); 'link' to one. */
  private send(to: 'producers' | 'all' | 'link', message: BftMessage<Uint8Array>, peer?: PeerId): void {
    let signer: Claim | undefined;
    if (message.kind !== 'RequestViewMessage') {
      signer = claimOf(this.ports.chain, message.body.producer);
      if (!signer) return;
    }
    const wire = bftWireMessage(message, signer ?? EMPTY_CLAIM);
    if (to === 'producers') this.ports.multicastProducers(wire);
    else if (to === 'all') this.ports.sendToLinks(wire);
    else if (peer !== undefined) this.ports.sendToLinks(wire, peer);
  }

  /** Signs one of this producer's messages with its claim (§2.0); undefined without a key for it. */
  private sign(message: BftUnsigned<Uint8Array>): Uint8Array | undefined {
    const claim = this.self === null ? undefined : claimOf(this.ports.chain, this.self);
    if (!claim) return undefined;
    const signature = signForClaim(this.ports.blockSigners, claim, bftPreimage(message, claim));
    if (!signature) this.ports.log.warning(`${message.kind} not sent: this node holds no key for its producer claim`);
    return signature;
  }
}

/** Whether two kept states hold the same term, blocks, prepares and commit proof. */
function sameKept(a: BftKept<Uint8Array> | undefined, b: BftKept<Uint8Array>): boolean {
  const sameBlock = (x: BftKept<Uint8Array>['bestConfirm'], y: BftKept<Uint8Array>['bestConfirm']) =>
    x === y || (x !== undefined && y !== undefined && x.id === y.id && x.num === y.num && x.term === y.term);
  const sameConfirms = (p: readonly BftConfirm<Uint8Array>[] = [], q: readonly BftConfirm<Uint8Array>[] = []) =>
    p.length === q.length && p.every((c, i) => c.producer === q[i]!.producer && equalBytes(c.signature, q[i]!.signature));
  const [x, y] = [a?.committed?.proof, b.committed?.proof];
  const sameProof = x === y || (x !== undefined && y !== undefined && x.blockNum === y.blockNum && sameConfirms(x.commits, y.commits)
    && (x.nextCommits === undefined) === (y.nextCommits === undefined) && sameConfirms(x.nextCommits, y.nextCommits));
  return a !== undefined && a.term === b.term && sameBlock(a.bestConfirm, b.bestConfirm) && sameBlock(a.bestPrepared, b.bestPrepared)
    && sameConfirms(a.bestPrepared?.prepares, b.bestPrepared?.prepares) && sameBlock(a.committed, b.committed) && sameProof;
}

function sameGroups(a: readonly BftGroup[], b: readonly BftGroup[]): boolean {
  return a.length === b.length && a.every((g, i) => sameGroup(g, b[i]));
}
