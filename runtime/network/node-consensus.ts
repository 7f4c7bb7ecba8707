import { equalBytes } from '../../host-api/encoding/bytes.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { accountNumberFromName } from '../../host-api/names/index.js';
import type { BlockHeader, Claim, SignedBlock } from '../../host-api/types/index.js';
import type { JointConsensus } from '../../host-api/types/native.js';
import { EMPTY_CLAIM, type BlockSigners } from '../chain/block-signing.js';
import type { ConsensusTarget } from '../chain/interface.js';
import { activeSets, claimAmong, nextBlockConsensus, producersOf } from '../chain/consensus.js';
import { BlockProducerSets } from './block-producer-sets.js';
import { confirmVerifier, encodeBlockConfirm } from '../chain/commit-proofs.js';
import { bftMessageOf, bftPreimage, bftWireMessage, decodeBlockConfirm, type BftWireKind } from './bft-wire.js';
import type { BftBlock, BftBlockConfirm, BftKept, BftMessage, BftUnsigned } from './consensus/bft-io.js';
import type { CftMessage } from './consensus/cft-io.js';
import { bftGroupsOf, ConsensusDriver } from './consensus/driver.js';
import type { DriverEvent, DriverProducers, DriverReady, DriverSend, DriverTimer, DriverVote } from './consensus/driver-io.js';
import { ConsensusTimer } from './consensus-timer.js';
import { P2PMessageError, signedMessage, signingPreimage, type MessageOf, type P2PMessage } from './messages/index.js';
import { writeLog, type NetworkLog, type PeerId } from './peer-io.js';
import { claimOf, sameClaim, signForClaim } from './producer-claims.js';
import { producerSetsOf } from './producer-sets.js';
import type { ProducerName } from './routing/routing-io.js';
import type { StepQueue } from './step-queue.js';

// Consensus in the node (docs/p2p.md §4, §5, §6.1): the consensus driver (consensus/driver.ts,
// the same one the simulator runs) fed with the chain's blocks and producer sets, the messages
// that passed their signature check and claim, and its timers; its Ready carried out here, one
// per turn of the network's step queue: the kept vote and BFT state written before the messages
// leave, CFT messages signed with this producer's claim and routed to the producers (§A), BFT
// messages as wire messages 38-41, the chain told to follow, lead, stop and commit, block sync's
// part (commit, root) handed on. Received blocks are checked, with their commit proofs, before
// block sync has them.

type CftKind = CftMessage['kind'];

/** What consensus uses of the rest of the node. */
export interface ConsensusPorts {
  readonly chain: ConsensusTarget;
  readonly log: NetworkLog;
  readonly blockSigners: BlockSigners;
  /** The block interval: the timeouts scale with it (3 slots for CFT's election, 10 for BFT's view change). */
  readonly blockIntervalMs: number;
  /** The network's step queue: each driver step is one turn. */
  readonly turns: StepQueue;
  /** Routes to one producer, or multicasts to every producer (§A). */
  readonly route: (to: ProducerName | 'producers', message: P2PMessage) => void;
  /** Sends on every link, or on one. */
  readonly sendToLinks: (message: P2PMessage, to?: PeerId) => void;
  /** The producers routes reach now. */
  readonly reachable: () => ProducerName[];
  /** Block sync's part of a Ready: irreversibility moved, or fork choice keeps to a subtree (§3.6). */
  readonly sync: (event: { readonly type: 'commit'; readonly num: number } | { readonly type: 'root'; readonly id: string }) => void;
  /** BFT safety is broken (§3.6): this node stopped producing. */
  readonly failed: (reason: string) => void;
  /** The term and vote kept from before a restart, and where to keep them (consensus-vote-file.ts). */
  readonly votes: { readonly restored: DriverVote | undefined; readonly keep: (vote: DriverVote) => void };
  /** The BFT state kept from before a restart, and where to keep it (consensus-bft-file.ts). */
  readonly bft: { readonly restored: BftKept<Uint8Array> | undefined; readonly keep: (kept: BftKept<Uint8Array>) => void };
}

/**
 * After a restart the chain is irreversible up to the block BFT committed last (kept in
 * consensus-bft.json), if it is still the chain's block there: under BFT a header's commitNum
 * proves nothing (docs/p2p.md §5.4), so the chain does not learn it from the head.
 */
export function restoreBftCommit(chain: ConsensusTarget, kept: BftKept<Uint8Array> | undefined): void {
  const committed = kept?.committed;
  const id = committed && chain.blockIdAt(committed.num);
  if (id && bytesToHex(id) === committed.id) chain.commitTo(committed.num);
}

export class NodeConsensus {
  private readonly driver: ConsensusDriver<Uint8Array, PeerId>;
  private readonly timers: Record<DriverTimer, ConsensusTimer> = { election: new ConsensusTimer(), viewChange: new ConsensusTimer(), viewChangeRetry: new ConsensusTimer() };
  /** The producer sets of the blocks seen, so that a received block is checked against its parent's (§6.1). */
  private readonly sets = new BlockProducerSets();
  private stopped = false;

  constructor(private readonly ports: ConsensusPorts) {
    const { chain, blockIntervalMs } = ports;
    this.driver = new ConsensusDriver<Uint8Array, PeerId>({
      cft: { random: Math.random, now: Date.now, baseTimeoutMs: 3 * blockIntervalMs, promptElectionMs: blockIntervalMs },
      bft: {
        // docs/p2p.md §5.1: 10 s (and 30 s for the sync-term retry) at psibase's 1 s blocks, scaled with the block interval.
        baseTimeoutMs: 10 * blockIntervalMs,
        retryViewChangeMs: 30 * blockIntervalMs,
        sign: (message) => this.sign(message),
        verify: confirmVerifier(chain.claims, (producer, blockId, group) => this.claimIn(blockId, producer, group)),
      },
      sameSignature: equalBytes,
      chainBlocks: () => this.chainBlocks(),
      restored: { ...(ports.votes.restored ? { vote: ports.votes.restored } : {}), ...(ports.bft.restored ? { bft: ports.bft.restored } : {}), headTerm: chain.head?.header.term ?? 0 },
    });
  }

  /**
   * The timeout of the consensus that runs now: BFT's view-change timeout while the current set is
   * BFT, else CFT's election timeout (its base T). Both grow while faults last (docs/p2p.md
   * "What we build" 5), so after faults they bound how long the producers take to agree again.
   */
  get timeoutMs(): number {
    return this.driver.timeoutMs;
  }

  /** The node starts on its chain: the producers the next block starts under, and the head. */
  start(): void {
    this.step(() => {
      const head = this.ports.chain.head;
      const block = head && this.appliedBlock(head.header, bytesToHex(head.blockId));
      return { type: 'start', producers: this.producers(), ...(block ? { head: block } : {}), commitIndex: head?.irreversible ?? 0 };
    });
  }

  /** The producer sets may have changed without a new head (a snapshot loaded). */
  producersChanged(): void {
    this.step(() => ({ type: 'producers', producers: this.producers() }));
  }

  /** A block this node produced, before block sync streams it. */
  produced(header: BlockHeader, id: Uint8Array): void {
    this.step(() => ({ type: 'block', block: this.appliedBlock(header, bytesToHex(id)) }));
  }

  /** The head changed: a block applied or produced (§4 steps 4, 8, 9; §5.3). */
  head(header: BlockHeader, id: Uint8Array): void {
    this.step(() => {
      const irreversible = this.ports.chain.head?.irreversible ?? 0;
      this.sets.forgetBelow(irreversible);
      return { type: 'head', producers: this.producers(), head: this.appliedBlock(header, bytesToHex(id)), commitIndex: irreversible };
    });
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
    const refused = this.driver.checkBlock(header, aux);
    if (refused !== undefined) return refused;
    this.step(() => ({ type: 'block', block: header, ...(aux ? { aux } : {}) }));
    return undefined;
  }

  /** A consensus message that passed routing's signature check; its signer must be its producer's claim. */
  receive(message: MessageOf<CftKind | BftWireKind>, from: PeerId): void {
    if (message.kind === 'RequestViewMessage') return this.step(() => ({ type: 'receive', message: { kind: 'RequestViewMessage' }, from }));
    const signer = signerOf(message);
    const claim = claimOf(this.ports.chain, signer.producer);
    if (!claim || !sameClaim(claim, signer.claim)) {
      this.ports.log.debug(`${message.kind} from ${signer.producer} dropped: not signed for that producer's claim`);
      return;
    }
    if (message.kind === 'ConfirmMessage' || message.kind === 'RequestVoteRequest' || message.kind === 'RequestVoteResponse') {
      const { signer: _signer, ...fields } = message.body as typeof message.body & { signer: Claim };
      const unsigned = { kind: message.kind, body: fields } as CftMessage;
      return this.step(() => ({ type: 'receive', message: unsigned }));
    }
    const bft = bftMessageOf(message as MessageOf<BftWireKind>);
    this.step(() => ({ type: 'receive', message: bft, from }));
  }

  /** The producers that routes reach changed: a follower that lost its leader stands promptly (docs/p2p.md "What we build" 5). */
  routesChanged(reachable: readonly ProducerName[]): void {
    this.step(() => ({ type: 'routes', reachable }));
  }

  /** A new link: the peer gets every view change held (psibase's send_all_view_changes, §5.2). */
  linkUp(peer: PeerId): void {
    this.step(() => ({ type: 'linkUp', peer }));
  }

  /** This node sent `peer` block `id`: every prepare and commit held for it follows (psibase's post_send_block, §5.3). */
  blockSent(peer: PeerId, id: string): void {
    this.step(() => ({ type: 'blockSent', peer, id }));
  }

  /** This node's keys changed (a device unlocked, a key added): a view change it could not sign is signed now (§5.1). */
  keysChanged(): void {
    this.step(() => ({ type: 'keysChanged' }));
  }

  /** The auxConsensusData of a block this node produces: the commit proof of its commitNum's block (§3.5). */
  auxConsensusData(commitNum: number): Uint8Array | null {
    const committed = this.ports.chain.blockIdAt(commitNum);
    const proof = committed && this.driver.proofOf(bytesToHex(committed));
    return proof ? encodeBlockConfirm(proof) : null;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of Object.values(this.timers)) timer.clear();
  }

  /** Steps the driver on its turn, with the event as things are then, and carries out its Ready. */
  private step(event: () => DriverEvent<Uint8Array, PeerId>): void {
    this.ports.turns.run(() => {
      if (!this.stopped) this.carryOut(this.driver.step(event()));
    });
  }

  private carryOut(ready: DriverReady<Uint8Array, PeerId>): void {
    const { chain, votes, bft } = this.ports;
    // What the messages below depend on is on disk before they leave.
    if (ready.persist.vote) votes.keep(ready.persist.vote);
    if (ready.persist.bft) bft.keep(ready.persist.bft);
    for (const command of ready.chain) {
      if (command.type === 'follow') chain.followConsensus();
      else if (command.type === 'lead') chain.lead(command.term);
      else chain.stopLeading();
    }
    for (const command of ready.timers) {
      const timer = this.timers[command.timer];
      if ('clear' in command) timer.clear();
      else timer.set(command.ms, () => this.step(() => ({ type: 'timeout', timer: command.timer, reachable: this.ports.reachable() })));
    }
    writeLog(this.ports.log, ready.log);
    if (ready.failure !== undefined) {
      this.ports.failed(ready.failure);
      return;
    }
    for (const send of ready.sends) this.send(send);
    if (ready.root !== undefined) this.ports.sync({ type: 'root', id: ready.root });
    if (ready.commit !== undefined) {
      chain.commitTo(ready.commit);
      this.ports.sync({ type: 'commit', num: ready.commit });
    }
  }

  private send(send: DriverSend<Uint8Array, PeerId>): void {
    if (send.algorithm === 'cft') {
      const signed = this.signedCft(send.message);
      if (signed) this.ports.route(send.to, signed);
      return;
    }
    const wire = this.bftWire(send.message);
    if (!wire) return;
    if (send.to === 'producers') this.ports.route('producers', wire);
    else if (send.to === 'all') this.ports.sendToLinks(wire);
    else this.ports.sendToLinks(wire, send.to.peer);
  }

  /** Signs with this producer's claim (§2.0); a claim whose key this node lacks sends nothing. */
  private signedCft(message: CftMessage): MessageOf<CftKind> | undefined {
    const claim = claimOf(this.ports.chain, cftSenderOf(message));
    if (!claim) return undefined;
    const body = { ...message.body, signer: claim } as MessageOf<CftKind>['body'];
    const signature = signForClaim(this.ports.blockSigners, claim, signingPreimage(message.kind, body as never));
    if (!signature) {
      this.ports.log.warning(`${message.kind} not sent: this node holds no key for its producer claim`);
      return undefined;
    }
    return signedMessage(message.kind, body as never, signature) as MessageOf<CftKind>;
  }

  /** A BFT message on the wire, with its producer's claim as signer (the empty claim for a RequestViewMessage). */
  private bftWire(message: BftMessage<Uint8Array>): P2PMessage | undefined {
    if (message.kind === 'RequestViewMessage') return bftWireMessage(message, EMPTY_CLAIM);
    const signer = claimOf(this.ports.chain, message.body.producer);
    return signer && bftWireMessage(message, signer);
  }

  /** Signs one of this producer's BFT messages with its claim (§2.0); undefined without a key for it. */
  private sign(message: BftUnsigned<Uint8Array>): Uint8Array | undefined {
    const claim = claimOf(this.ports.chain, message.body.producer);
    if (!claim) return undefined;
    const signature = signForClaim(this.ports.blockSigners, claim, bftPreimage(message, claim));
    if (!signature) this.ports.log.warning(`${message.kind} not sent: this node holds no key for its producer claim`);
    return signature;
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

  /**
   * The producers the next block starts under (so that a change made irreversible by the head
   * ends joint consensus for elections too, docs/p2p.md §6.1) and whether this node is one of them.
   */
  private producers(): DriverProducers {
    const { chain } = this.ports;
    const status = chain.status;
    const headTerm = chain.head?.header.term ?? 0;
    if (!status) return { sets: [], self: null, headTerm };
    const sets = producerSetsOf(nextBlockConsensus(status));
    const self = this.selfName();
    return { sets, self: self !== 0n && sets.some((set) => set.producers.includes(self)) ? self : null, headTerm };
  }

  private selfName(): ProducerName {
    return accountNumberFromName(this.ports.chain.producer);
  }

  /**
   * The chain's blocks from the irreversible one to the head, as BFT learns them at start: the
   * head with its status row's sets, the others with the sets the next block starts under.
   */
  private chainBlocks(): BftBlock[] {
    const { chain } = this.ports;
    const head = chain.head;
    const status = chain.status;
    if (!head || !status) return [];
    this.sets.applied(head.header, bytesToHex(head.blockId), status.consensus);
    const groups = producerSetsOf(nextBlockConsensus(status));
    const blocks: BftBlock[] = [];
    // Block 2 is the first there is (docs/chain.md §1.4).
    for (let num = Math.max(head.irreversible, 2); num <= head.header.blockNum; num++) {
      const stored = chain.signedBlockAt(num);
      if (stored) blocks.push(this.blockOf(stored.signed.block.header, bytesToHex(stored.blockId), bftGroupsOf(groups)));
    }
    return blocks;
  }

  /**
   * A header as BFT reads it, with the producer sets the chain's next block starts under (those
   * of the blocks at and around the head this node works on, §6.1) unless `groups` says otherwise.
   */
  private blockOf(header: BlockHeader, id: string, groups = this.statusGroups(), nextSince?: number): BftBlock {
    return {
      id, num: header.blockNum, previous: bytesToHex(header.previous), term: header.term, producer: header.producer, commitNum: header.commitNum, groups,
      ...(nextSince !== undefined ? { nextSince } : {}),
    };
  }

  /** A header with the sets of `consensus`, the consensus after the block (psibase's BlockHeaderState, §6.1). */
  private blockUnder(header: BlockHeader, id: string, consensus: JointConsensus): BftBlock {
    return this.blockOf(header, id, bftGroupsOf(producerSetsOf(consensus)), consensus.next?.blockNum);
  }

  /** The head block, applied or produced here: its sets are the status row's (and its children's start from them). */
  private appliedBlock(header: BlockHeader, id: string): BftBlock {
    const status = this.ports.chain.status;
    if (!status) return this.blockOf(header, id);
    this.sets.applied(header, id, status.consensus);
    return this.blockUnder(header, id, status.consensus);
  }

  /** The producer sets the chain's next block starts under, read from the status row. */
  private statusGroups(): BftBlock['groups'] {
    const status = this.ports.chain.status;
    return status ? bftGroupsOf(producerSetsOf(nextBlockConsensus(status))) : [];
  }
}

/** The producer of a signed consensus message and the claim it names as signer. */
function signerOf(message: MessageOf<Exclude<CftKind | BftWireKind, 'RequestViewMessage'>>): { producer: ProducerName; claim: Claim } {
  switch (message.kind) {
    case 'ConfirmMessage': return { producer: message.body.followerId, claim: message.body.signer };
    case 'RequestVoteRequest': return { producer: message.body.candidateId, claim: message.body.signer };
    case 'RequestVoteResponse': return { producer: message.body.voterId, claim: message.body.signer };
    default: return { producer: message.body.producer, claim: message.body.signer };
  }
}

/** The producer a CFT message comes from. */
function cftSenderOf(message: CftMessage): ProducerName {
  switch (message.kind) {
    case 'ConfirmMessage': return message.body.followerId;
    case 'RequestVoteRequest': return message.body.candidateId;
    case 'RequestVoteResponse': return message.body.voterId;
  }
}
