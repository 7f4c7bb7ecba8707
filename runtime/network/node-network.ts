import { bytesToHex } from '../../host-api/encoding/hex.js';
import { accountNumberFromName } from '../../host-api/names/index.js';
import type { SignedBlock } from '../../host-api/types/index.js';
import type { BlockSigners } from '../chain/block-signing.js';
import type { ClosedBlock } from '../chain/block-builder.js';
import type { BlockOrigin, NetworkChain } from '../chain/interface.js';
import { activeProducers, nextBlockConsensus } from '../chain/consensus.js';
import { ChainError, type ChainErrorCode } from '../chain/errors.js';
import type { LinkListener, PeerLink, PeerLinks, Refused } from './links/peer-links.js';
import { P2PMessageError, decodeMessage, encodeMessage, type MessageOf, type P2PMessage } from './messages/index.js';
import type { LoadedSnapshot } from '../snapshot/apply-snapshot.js';
import type { StateChecksumBody } from '../snapshot/node-snapshots.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import type { SnapshotContent } from '../snapshot/snapshot-file.js';
import { SnapshotReceiver, type SnapshotOffer } from '../snapshot/snapshot-transfer.js';
import { verifiesMessage } from './message-signatures.js';
import { randomId } from './random-id.js';
import { writeLog, type NetworkLog, type PeerId } from './peer-io.js';
import { forwardedTransaction, transactionMessage } from './producer-messages.js';
import { Router, type RoutingEvent, type RoutingReady } from './routing/index.js';
import { BlockSync } from './sync/block-sync.js';
import type { SyncApply, SyncEvent, SyncReady } from './sync/sync-io.js';
import { NodeConsensus, restoreBftCommit, type ConsensusPorts } from './node-consensus.js';
import { StepQueue } from './step-queue.js';
import type { SyncState } from '../../host-api/http/sync-status.js';
import { SyncProgress } from './sync-progress.js';
import { frameBlockId, frameBytesOf, noteFrame, storedSignedBlock, syncFrameOf, syncHeaderOf, syncMessageOf } from './wire-blocks.js';

// The node's part in a network (docs/p2p.md "What we build"): the peer links carry native P2P
// messages, decoded here; the router reaches the producers (§A); block sync streams blocks and
// applies received ones through the chain (§6.2). Both are state machines that take events and
// say what to do; this class is where their sockets, timers and chain are. Consensus is the
// driver in node-consensus.ts. Every step of block sync and of the driver, and the carrying out
// of each routing step, is one turn of a step queue, so carrying out one machine's Ready never
// steps a machine from inside it (docs/p2p.md "What we build" 7).
//
// Hostile peers (docs/p2p.md "What we build" 1, "Peers that attack"): what a peer sent that is
// invalid is refused through the links, which log it and count it against the peer; a link whose
// blocks on the way to the best block pile up is held until they are applied.

/** A link's blocks waiting to be applied on the way to the best block past which it is held (not read). */
const HOLD_BLOCKS = 32;
const HOLD_BYTES = 32 * 1024 * 1024;
/** An invalid message: it counts against the peer, and the link is closed. */
const OFFENCE: Refused = { offence: true, close: true };
/** The chain's refusals of a received block that are the block's fault (docs/p2p.md §3.4), not this node's state's. */
const INVALID_BLOCK: ReadonlySet<ChainErrorCode> = new Set(['BLOCK_INVALID', 'BLOCK_SIGNATURE', 'BLOCK_TRANSACTION', 'BLOCK_MISMATCH']);

/** What the network counts for the perf report and metrics. */
export interface NetworkCounters {
  blocksReceived: number;
  blocksApplied: number;
  blocksRefused: number;
}

/** What consensus needs beside the chain: the keys that sign for producer claims, the slot, the kept CFT vote and BFT state. */
export interface ConsensusSettings {
  readonly blockSigners: BlockSigners;
  readonly blockIntervalMs: number;
  readonly votes: ConsensusPorts['votes'];
  readonly bft: ConsensusPorts['bft'];
  /** BFT safety is broken (docs/p2p.md §3.6): this node stopped producing. */
  readonly consensusFailed: (reason: string) => void;
}

/** The node's snapshots, as the network passes them between peers (docs/p2p.md §7.2, §7.4). */
export interface SnapshotPorts {
  /** A state checksum from a peer; true when it was new here, to be flooded on. */
  receiveChecksum(body: StateChecksumBody): boolean;
  /** The newest signed snapshot to pass on to a peer whose irreversible block we no longer have. */
  offer(): SnapshotOffer | undefined;
  /** A snapshot from a peer becomes the state, or is refused with a SnapshotError. */
  load(content: SnapshotContent): LoadedSnapshot;
}

export class NodeNetwork implements LinkListener {
  readonly counters: NetworkCounters = { blocksReceived: 0, blocksApplied: 0, blocksRefused: 0 };
  private readonly router: Router;
  private readonly sync: BlockSync<SignedBlock>;
  private readonly consensus: NodeConsensus;
  private readonly turns = new StepQueue();
  private readonly progress: SyncProgress;
  private readonly routerTimers = new Map<string, NodeJS.Timeout>();
  /** Snapshots being received, by link (docs/p2p.md §7.4). */
  private readonly receivingSnapshots = new Map<PeerId, SnapshotReceiver>();
  /** Links held because their blocks wait to be applied. */
  private readonly held = new Set<PeerId>();
  private stopped = false;
  /** The producers routes reached after the last routing step, as consensus was told them. */
  private reachable = '';

  constructor(private readonly links: PeerLinks, private readonly chain: NetworkChain, private readonly log: NetworkLog, settings: ConsensusSettings, private readonly snapshots?: SnapshotPorts) {
    this.router = new Router({
      routerId: randomId(),
      verify: (message, peer) => {
        if (verifiesMessage(chain.claims, message)) return true;
        // A neighbour checks what it relays, so the link it came on is the one to blame.
        this.links.refused(peer, `${message.kind}: its signature does not verify`, { offence: true, close: false });
        return false;
      },
    });
    restoreBftCommit(chain, settings.bft.restored);
    // The irreversible block is sync's root; the reversible ones above it are already executed.
    const head = chain.head;
    const storedAt = (num: number) => storedSignedBlock(chain.signedBlockAt(num)!);
    // Block 2 is the first there is (docs/chain.md §1.4).
    const irreversible = head && head.irreversible >= 2 ? head.irreversible : undefined;
    const applied: SignedBlock[] = [];
    for (let num = Math.max(irreversible ?? 1, 1) + 1; head && num <= head.header.blockNum; num++) applied.push(storedAt(num));
    this.sync = new BlockSync<SignedBlock>({
      headerOf: syncHeaderOf,
      committedBlocks: {
        blockAt: (num) => {
          const stored = chain.signedBlockAt(num);
          return stored && storedSignedBlock(stored);
        },
      },
      committedHead: irreversible === undefined ? undefined : storedAt(irreversible),
      appliedBlocks: applied,
      logStart: chain.logStart,
      sizeOf: frameBytesOf,
    });
    this.progress = new SyncProgress((text) => log.info(text), Date.now);
    this.consensus = new NodeConsensus({
      chain,
      log,
      blockSigners: settings.blockSigners,
      blockIntervalMs: settings.blockIntervalMs,
      turns: this.turns,
      route: (to, message) => this.route(to === 'producers' ? { type: 'multicastProducers', message } : { type: 'sendTo', producer: to, message }),
      sendToLinks: (message, to) => (to === undefined ? this.flood(message) : this.links.send(to, encodeMessage(message))),
      reachable: () => this.router.reachable(),
      sync: (event) => this.step(() => event),
      failed: settings.consensusFailed,
      votes: settings.votes,
      bft: settings.bft,
    });
  }

  /** How far behind its peers the node is, and how fast it catches up. */
  syncState(): SyncState {
    return this.progress.state();
  }

  /**
   * The timeout of the consensus that runs now: BFT's view-change timeout while the current set is
   * BFT, else CFT's election timeout (its base T). Both grow while faults last (docs/p2p.md
   * "What we build" 5), so after faults they bound how long the producers take to agree again.
   */
  get consensusTimeoutMs(): number {
    return this.consensus.timeoutMs;
  }

  /** Starts following the links; the chain's committed blocks are to be passed to `committed`. */
  start(): void {
    this.routeProducers();
    this.consensus.start();
    this.links.attach(this);
  }

  stop(): void {
    this.stopped = true;
    this.consensus.stop();
    for (const timer of this.routerTimers.values()) clearTimeout(timer);
    this.routerTimers.clear();
  }

  /**
   * Passes a transaction this node does not apply itself on to the producers (docs/p2p.md "What
   * we build" 4); false when no producer is reachable through the links.
   */
  forward(packed: Uint8Array): boolean {
    return this.route({ type: 'multicastProducers', message: transactionMessage(packed) }).sends.length > 0;
  }

  /** Floods a state checksum to every link but `except` (docs/p2p.md §7.2). */
  floodStateChecksum(body: StateChecksumBody, except?: PeerId): void {
    this.flood({ kind: 'StateChecksumMessage', body }, except);
  }

  /** Sends a message on every link but `except` (the one it came from, when passing it on). */
  private flood(message: P2PMessage, except?: PeerId): void {
    const frame = encodeMessage(message);
    for (const link of this.links.list()) if (link.id !== except) this.links.send(link.id, frame);
  }

  onLinkUp(link: PeerLink): void {
    this.route({ type: 'linkUp', peer: link.id });
    this.step(() => ({ type: 'linkUp', peer: link.id }));
    this.consensus.linkUp(link.id);
  }

  onLinkDown(link: PeerLink): void {
    if (this.receivingSnapshots.delete(link.id)) this.progress.snapshotEnded();
    this.held.delete(link.id);
    this.route({ type: 'linkDown', peer: link.id });
    this.step(() => ({ type: 'linkDown', peer: link.id }));
  }

  onMessage(linkId: PeerId, frame: Uint8Array): void {
    // A block sync holds already (each peer streams the new block, so it comes again from the
    // others) is not decoded again: sync only learns that this peer has it.
    const id = frameBlockId(frame);
    const held = id === undefined ? undefined : this.sync.held(id);
    let message: P2PMessage;
    if (held) {
      message = { kind: 'BlockMessage', body: { block: held } };
    } else {
      try {
        message = decodeMessage(frame);
      } catch (err) {
        if (!(err instanceof P2PMessageError)) throw err;
        this.links.refused(linkId, err.message, OFFENCE);
        return;
      }
      if (message.kind === 'BlockMessage') noteFrame(message.body.block, frame);
    }
    this.route({ type: 'receive', peer: linkId, message });
  }

  /**
   * The chain committed a block, the one way a block reaches the network: one it produced goes
   * to sync to be streamed; one it received (sync had it apply it) is applied there once
   * consensus has the head. Either way the producer set may have changed.
   */
  committed({ block: { header }, blockId: id }: ClosedBlock, origin: BlockOrigin): void {
    const applied = origin === 'received';
    if (applied) this.counters.blocksApplied++;
    if (this.stopped) return;
    if (!applied) {
      this.consensus.produced(header, id);
      this.step(() => ({ type: 'produced', block: storedSignedBlock(this.chain.signedBlockAt(header.blockNum)!) }));
      this.step(() => ({ type: 'commit', num: header.commitNum }));
    }
    this.routeProducers();
    this.consensus.head(header, id);
    // The chain's irreversible block (under BFT from the commits and commit proofs, §5.4, not
    // the header, unless one producer makes every block), committed before sync hands out the
    // next block: one on a fork below it (a hostile peer's) cannot be applied.
    if (applied) this.step(() => ({ type: 'applied', id: bytesToHex(id), ok: true, commit: this.chain.head!.irreversible }));
  }

  /** The node's keys changed (a device unlocked, a key added): BFT signs what it could not (docs/p2p.md §5.1). */
  keysChanged(): void {
    this.consensus.keysChanged();
  }

  /** The auxConsensusData of a block this node produces naming `commitNum` (BFT's commit proof, docs/p2p.md §3.5). */
  auxConsensusData(commitNum: number): Uint8Array | null {
    return this.consensus.auxConsensusData(commitNum);
  }

  /**
   * The router learns the active producers and whether this node is one of them: those the next
   * block starts under, so that a change made irreversible by the head ends joint consensus for
   * routing too (docs/p2p.md §6.1).
   */
  private routeProducers(): void {
    const status = this.chain.status;
    if (!status) return;
    const names = activeProducers(nextBlockConsensus(status)).map((p) => p.name);
    this.route({ type: 'producers', producers: names });
    const self = accountNumberFromName(this.chain.producer);
    this.route({ type: 'self', name: self !== 0n && names.includes(self) ? self : null });
  }

  /** Steps the router at once (a forward needs to know whether it reached a producer) and carries out its Ready on its turn. */
  private route(event: RoutingEvent): RoutingReady {
    const ready = this.router.step(event, Date.now());
    this.turns.run(() => this.carryOutRouting(ready));
    return ready;
  }

  private carryOutRouting(ready: RoutingReady): void {
    for (const { peer, frame } of ready.sends) {
      // A frame that waits for the peer to have a block (BFT's prepares and commits, docs/p2p.md §A)
      // is sent at once: a peer without the block drops it, as psibase's does.
      this.links.send(peer, frame);
    }
    for (const { peer, message } of ready.delivered) this.deliver(peer, message);
    for (const { name, at } of ready.timers) this.setRouterTimer(name, at);
    for (const { peer, reason, offence } of ready.disconnects) {
      if (offence) this.links.refused(peer, reason, OFFENCE);
      else this.links.close(peer, reason);
    }
    writeLog(this.log, ready.log);
    this.routesChanged();
  }

  /** Consensus learns at once when a producer is reached, or reached no more (docs/p2p.md "What we build" 5). */
  private routesChanged(): void {
    const reachable = this.router.reachable().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const key = reachable.join();
    if (key === this.reachable || this.stopped) return;
    const before = new Set(this.reachable.split(','));
    this.reachable = key;
    this.consensus.routesChanged(reachable);
    if (reachable.some((p) => !before.has(String(p)))) this.chain.producerReached();
  }

  private setRouterTimer(name: 'seqno', at: number): void {
    clearTimeout(this.routerTimers.get(name));
    const timer = setTimeout(() => {
      this.routerTimers.delete(name);
      if (!this.stopped) this.route({ type: 'timer', name });
    }, Math.max(0, at - Date.now()));
    timer.unref();
    this.routerTimers.set(name, timer);
  }

  /** A message for this node, from a link or out of an envelope addressed to it. */
  private deliver(peer: PeerId, message: P2PMessage): void {
    const sync = syncMessageOf(message);
    if (sync) {
      if (sync.kind === 'BlockMessage') {
        this.counters.blocksReceived++;
        const header = syncHeaderOf(sync.body.block);
        this.progress.peerHas(header.num);
        // BFT checks the block's leader and commit proof before block sync has it (§5.4).
        const refused = this.consensus.receiveBlock(sync.body.block, header.id);
        if (refused !== undefined) {
          this.counters.blocksRefused++;
          this.links.refused(peer, `block ${header.num} ${header.id} was refused: ${refused}`, OFFENCE);
          return;
        }
      } else {
        this.progress.peerHas(sync.body.xid.num);
      }
      this.step(() => ({ type: 'receive', peer, message: sync }));
    } else if (message.kind === 'WasmProducerMessage') {
      this.receiveTransaction(peer, message);
    } else if (message.kind === 'ConfirmMessage' || message.kind === 'RequestVoteRequest' || message.kind === 'RequestVoteResponse'
      || message.kind === 'PrepareMessage' || message.kind === 'CommitMessage' || message.kind === 'ViewChangeMessage' || message.kind === 'RequestViewMessage') {
      this.consensus.receive(message, peer);
    } else if (message.kind === 'StateChecksumMessage') {
      if (this.snapshots?.receiveChecksum(message.body)) this.floodStateChecksum(message.body, peer);
    } else if (message.kind === 'BlockHeaderMessage' || message.kind === 'SnapshotPartMessage' || message.kind === 'SnapshotVerifyMessage') {
      this.receiveSnapshot(peer, message);
    }
  }

  /**
   * Sends `peer` our newest signed snapshot (docs/p2p.md §7.4), as fast as it reads it; the link
   * then streams on after its block.
   */
  private sendSnapshot(peer: PeerId): void {
    const offer = this.snapshots?.offer();
    if (!offer) return this.step(() => ({ type: 'snapshotSent', peer, block: undefined }));
    function* frames(): Generator<Uint8Array> {
      for (const block of offer!.headers) yield encodeMessage({ kind: 'BlockHeaderMessage', body: { block } });
      for (const part of offer!.parts) yield encodeMessage({ kind: 'SnapshotPartMessage', body: part });
      yield encodeMessage({ kind: 'SnapshotVerifyMessage', body: offer!.verify });
    }
    this.links.sendAll(peer, frames(), () => {
      if (this.stopped) return;
      this.log.info(`link ${peer}: sent the snapshot of block ${offer.block.block.header.blockNum} (${offer.parts.length} parts)`);
      this.step(() => ({ type: 'snapshotSent', peer, block: offer.block }));
    });
  }

  /**
   * A snapshot message from a peer: headers and parts are gathered, and the verify message loads
   * the snapshot, which becomes the head sync goes on from. A refused snapshot closes the link,
   * except one no newer than our state, which is ignored.
   */
  private receiveSnapshot(peer: PeerId, message: MessageOf<'BlockHeaderMessage' | 'SnapshotPartMessage' | 'SnapshotVerifyMessage'>): void {
    if (!this.snapshots) return;
    let receiver = this.receivingSnapshots.get(peer);
    if (!receiver) this.receivingSnapshots.set(peer, (receiver = new SnapshotReceiver()));
    try {
      if (message.kind !== 'SnapshotVerifyMessage') {
        if (message.kind === 'BlockHeaderMessage') receiver.header(message.body.block);
        else receiver.part(message.body);
        const { block, rows, bytes } = receiver.received;
        return this.progress.snapshotReceived(block, rows, bytes);
      }
      this.receivingSnapshots.delete(peer);
      this.progress.snapshotEnded();
      // The state must not change under a block being applied or built; the peer offers it again on a new link.
      if (this.sync.applying !== undefined || (this.chain.hasChain && this.chain.producing)) {
        throw new SnapshotError('SNAPSHOT_BUSY', 'a block is being applied or produced here');
      }
      const loaded = this.snapshots.load(receiver.verify(message.body));
      this.chain.snapshotLoaded();
      this.log.info(`link ${peer}: loaded the snapshot of block ${loaded.blockNum}`);
      this.step(() => ({ type: 'snapshotLoaded', peer, block: storedSignedBlock(this.chain.signedBlockAt(loaded.blockNum)!) }));
      this.routeProducers();
      this.consensus.producersChanged();
    } catch (err) {
      if (!(err instanceof SnapshotError)) throw err;
      this.receivingSnapshots.delete(peer);
      this.progress.snapshotEnded();
      if (err.code === 'SNAPSHOT_NOT_NEWER') return this.log.debug(`link ${peer}: snapshot ignored: ${err.message}`);
      this.log.warning(`link ${peer}: snapshot refused: ${err.message}; closing it`);
      this.links.close(peer, err.message);
    }
  }

  /** A transaction another node passed on: a producer applies it as if it were pushed here. */
  private receiveTransaction(peer: PeerId, message: MessageOf<'WasmProducerMessage'>): void {
    const packed = forwardedTransaction(message);
    if (!packed) return this.log.debug(`link ${peer}: a producer message that is not a transaction was ignored`);
    // Every producer gets it; only the one producing now applies it, the others hold it for when they lead.
    this.chain.passedOn(packed).then(
      (trace) => { if (trace && trace.error !== null) this.log.debug(`a transaction from link ${peer} failed: ${trace.error}`); },
      (err: Error) => this.log.debug(`a transaction from link ${peer} was refused: ${err.message}`),
    );
  }

  /** Steps block sync on its turn, with the event as things are then, and carries out its Ready. */
  private step(event: () => SyncEvent<SignedBlock>): void {
    this.turns.run(() => {
      if (!this.stopped) this.carryOut(this.sync.step(event()));
    });
  }

  private carryOut(ready: SyncReady<SignedBlock>): void {
    for (const { peer, message } of ready.sends) {
      // The next block is handed out once this one is written: the stream goes as fast as the
      // peer reads it, and the node serves its other work in between.
      this.links.send(peer, syncFrameOf(message), () => this.step(() => ({ type: 'sent', peer })));
      if (message.kind === 'BlockMessage') this.consensus.blockSent(peer, syncHeaderOf(message.body.block).id);
    }
    for (const { peer, reason, offence } of ready.disconnects) {
      if (offence) {
        this.links.refused(peer, reason, OFFENCE);
      } else {
        this.log.warning(`link ${peer}: ${reason}; closing it`);
        this.links.close(peer, reason);
      }
    }
    writeLog(this.log, ready.log);
    if (ready.head) this.progress.head(ready.head.num);
    for (const entry of ready.apply) this.apply(entry);
    for (const peer of ready.snapshots) this.sendSnapshot(peer);
    this.holdWaitingLinks();
  }

  /** Holds the links whose blocks on the way to the best block pile up, and lets go of those that caught up. */
  private holdWaitingLinks(): void {
    const waiting = this.sync.waitingOnBestPath();
    const over = (peer: PeerId) => {
      const w = waiting.get(peer);
      return w !== undefined && (w.blocks >= HOLD_BLOCKS || w.bytes >= HOLD_BYTES);
    };
    for (const peer of this.held) {
      if (over(peer)) continue;
      this.held.delete(peer);
      this.links.hold(peer, false);
    }
    for (const peer of waiting.keys()) {
      if (this.held.has(peer) || !over(peer)) continue;
      this.held.add(peer);
      this.links.hold(peer, true);
    }
  }

  /**
   * Applies a block sync handed out, on its parent: the chain first takes back the blocks above
   * the parent (another fork's, docs/chain.md §1.6). Applied, it comes back through the chain's
   * committed event (origin 'received'); a refusal blacklists it (sync) and closes the link that sent it.
   */
  private apply({ header: { id }, block, sender }: SyncApply<SignedBlock>): void {
    this.chain.revertTo(block.block.header.blockNum - 1).then(() => this.chain.applyBlock(block)).catch((err: Error) => {
      this.counters.blocksRefused++;
      if (this.stopped) return;
      const reason = `block ${block.block.header.blockNum} ${id} was refused: ${err.message}`;
      if (sender !== undefined && err instanceof ChainError && INVALID_BLOCK.has(err.code)) {
        this.links.refused(sender, reason, OFFENCE);
      } else {
        this.log.warning(reason);
        if (sender !== undefined) this.links.close(sender, reason);
      }
      this.step(() => ({ type: 'applied', id, ok: false, reason: err.message }));
    });
  }
}
