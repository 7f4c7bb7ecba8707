import { Cft } from '../consensus/cft.js';
import type { CftMessage, CftReady } from '../consensus/cft-io.js';
import { BlockSync, NO_COMMON_BLOCK } from '../sync/block-sync.js';
import type { PeerId } from '../peer-io.js';
import type { SyncEvent, SyncReady } from '../sync/sync-io.js';
import type { SyncMessage } from '../sync/sync-messages.js';
import type { BftMessage } from '../consensus/bft-io.js';
import { makeModelBlock, modelHeader, type ModelBlock } from './model-block.js';
import { activeSets, consensusAfter, consensusGroups, consensusOf, sameSet, startingConsensus, type ModelConsensus, type ModelSet } from './model-consensus.js';
import type { DurableChain } from './model-chain.js';
import { electionTimeoutMs, electsLeaders, switchesAlgorithm } from './schedule.js';
import { SimBft } from './sim-bft.js';
import { producerAccount, type ConsensusEndpoint, type NodeContext } from './sim-context.js';
import type { LinkEndpoint } from './sim-network.js';

// One simulated node: block sync over a model chain and, among several producers, CFT or BFT
// consensus beside it (docs/p2p.md §4, §5), fed by the same events, their Ready carried out the
// same way. A single producer makes a block every interval; among several, the leader does. With
// CFT, nodes that do not produce take irreversibility from the headers they apply (§4 step 10);
// with BFT, from commit quorums and the proofs in blocks (§5.4, §6.3). A crash loses everything
// but the DurableChain (the node's database).

export class SimNode implements LinkEndpoint, ConsensusEndpoint {
  private sync: BlockSync<ModelBlock> | undefined;
  private cft: Cft | undefined;
  private bft: SimBft | undefined;
  /** The term this node leads, while it does (CFT or BFT). */
  private leading: number | undefined;
  /** The node's live links (an equivocating leader sends its second blocks on some of them). */
  private readonly links = new Set<PeerId>();
  /** Bumped at each crash, so that work scheduled before it is void. */
  private life = 0;
  /** Bumped when the election timer is set again or stopped, so that the old one is void. */
  private timerGeneration = 0;
  /** The producer sets consensus was last told (node indexes). */
  private groups: (readonly number[])[] = [];
  /** The same sets with their algorithms. */
  private sets: ModelSet[] = [];
  /** The producers run BFT now, in a run that switches algorithm: CFT waits (as the node's NodeConsensus.suspend). */
  private cftSuspended = false;

  constructor(
    readonly index: number,
    readonly name: string,
    readonly durable: DurableChain,
    private readonly context: NodeContext,
  ) {
    this.start();
  }

  /** Whether this node makes the blocks now: the single producer, or the leader. */
  get producer(): boolean {
    return electsLeaders(this.context.schedule) ? this.leading !== undefined : this.index === 0;
  }

  /** How the node breaks the rules, if it is Byzantine (BFT schedules only). */
  get byzantine(): boolean {
    return this.context.schedule.byzantine.some((b) => b.node === this.index);
  }

  /** The consensus timeout (CFT's election timeout T, BFT's view-change timeout) while the node runs. */
  get consensusTimeoutMs(): number | undefined {
    return this.bft?.active ? this.bft.viewTimeoutMs : this.cft?.timeoutMs ?? this.bft?.viewTimeoutMs;
  }

  get commitIndex(): number | undefined {
    return this.sync?.commitIndex;
  }

  get alive(): boolean {
    return this.sync !== undefined;
  }

  get head(): ModelBlock | undefined {
    return this.sync?.head as ModelBlock | undefined;
  }

  committedOnHeadChain(): { id: string; num: number } | undefined {
    return this.sync && this.sync.headChainAt(this.sync.commitIndex);
  }

  crash(): void {
    this.sync = undefined;
    this.cft = undefined;
    this.bft = undefined;
    this.leading = undefined;
    this.links.clear();
    this.life++;
  }

  restart(): void {
    if (this.index === 0 && !this.context.schedule.cft) {
      this.durable.term++;
      // Half the time the producer gives up its reversible blocks and builds on its committed
      // block (as a new CFT leader without them would), so followers must switch forks.
      if (this.context.random.int(2) === 0) this.durable.executed.length = 0;
    }
    this.start();
  }

  linkUp(peer: PeerId): void {
    this.links.add(peer);
    this.routesChanged();
    this.step({ type: 'linkUp', peer });
    const other = this.context.network().peerNode(this.index, peer);
    if (other !== undefined) this.bft?.linkUp(other);
  }

  linkDown(peer: PeerId): void {
    this.links.delete(peer);
    this.routesChanged();
    this.step({ type: 'linkDown', peer });
  }

  /** CFT learns which producers this node reaches now, as the node's router tells it (docs/p2p.md "What we build" 5). */
  routesChanged(): void {
    if (!this.cft) return;
    const network = this.context.network();
    const reachable = [...Array(this.context.schedule.nodeCount).keys()].filter((p) => p !== this.index && network.reaches(this.index, p));
    this.stepCft({ type: 'routes', reachable: reachable.map(producerAccount) });
  }

  receive(peer: PeerId, message: SyncMessage<ModelBlock>): void {
    if (message.kind === 'BlockMessage' && this.bft && this.sync) {
      const block = message.body.block;
      const refused = this.bft.check(block);
      // psinode disconnects a peer whose block header fails (docs/p2p.md §3.4).
      if (refused) {
        this.fail(`${this.name} refused block ${block.num} ${block.id}: ${refused}`);
        return this.context.network().close(peer);
      }
      this.bft.blockArrived(block);
    }
    this.step({ type: 'receive', peer, message });
  }

  sent(peer: PeerId): void {
    this.step({ type: 'sent', peer });
  }

  /** A CFT message routed to this node. */
  receiveConsensus(message: CftMessage): void {
    this.stepCft({ type: 'receive', message });
  }

  /** A BFT message routed or flooded to this node. */
  receiveBft(message: BftMessage<string>, from: number): void {
    this.bft?.receive(message, from);
  }

  /**
   * A slot: a single producer moves irreversibility up to `commitLag` blocks behind and makes a
   * block; a CFT leader makes a block whose commitNum is its commit index (§4 step 7).
   */
  produce(): void {
    const { sync } = this;
    // The chain does one thing at a time: a block being applied holds off the next of its own.
    if (!sync || sync.applying !== undefined || !this.producer) return;
    if (electsLeaders(this.context.schedule)) return this.produceAsLeader(sync, this.leading!);
    const lag = this.context.schedule.commitLag;
    const num = sync.head.num + 1;
    if (lag > 0) this.step({ type: 'commit', num: num - lag });
    const block = makeModelBlock({
      previous: sync.head.id, num, producer: this.name, term: this.durable.term, commitNum: lag > 0 ? sync.commitIndex : num,
    });
    this.context.checker.blockProduced(block);
    const failure = this.durable.execute(block);
    if (failure) this.fail(`${this.name} could not execute its own block ${num}: ${failure}`);
    this.step({ type: 'produced', block });
    if (lag === 0) this.step({ type: 'commit', num });
  }

  private produceAsLeader(sync: BlockSync<ModelBlock>, term: number): void {
    // A block never ranks below its parent: a head of a later term waits for the view to catch up.
    if (sync.head.term > term) return;
    const num = sync.head.num + 1;
    // Like the node, a leader makes blocks only as a producer of the consensus its block starts under.
    const starting = startingConsensus(this.headConsensus(), sync.head.commitNum);
    if (!consensusGroups(starting).some((g) => g.includes(this.index))) return;
    let consensus: ModelConsensus | undefined;
    if (this.context.schedule.producerChanges.length > 0) {
      const wanted = this.context.wantedProducers();
      const change = wanted && !starting.next && !sameSet(wanted, starting) ? wanted : undefined;
      consensus = consensusAfter(starting, num, change);
    }
    // A BFT leader proves its commitNum block irreversible in the block's aux data (§5.4).
    const aux = this.bft?.proofOf(sync.headChainAt(sync.commitIndex).id);
    const fields = { previous: sync.head.id, num, producer: this.name, term, commitNum: sync.commitIndex, ...(consensus ? { consensus } : {}), ...(aux ? { aux } : {}) };
    const block = makeModelBlock(fields);
    // A BFT block that ends joint consensus proves the change irreversible (docs/p2p.md §6.1, §5.4).
    const start = block.consensus?.next?.start;
    if (this.bft && starting.algorithm === 'bft' && start !== undefined && block.commitNum >= start && !(aux && aux.blockNum >= start)) {
      this.fail(`${this.name} made block ${num}, which ends joint consensus, without a commit proof of block ${start} or later`);
    }
    this.context.checker.blockProduced(block);
    const failure = this.durable.execute(block);
    if (failure) this.fail(`${this.name} could not execute its own block ${num}: ${failure}`);
    this.bft?.blockArrived(block);
    this.step({ type: 'produced', block });
    // The twin of a block that starts a change of the producers leaves it out: the forks differ in their producer sets.
    if (this.bft?.behaviour === 'equivocate') this.equivocate(makeModelBlock({ ...fields, variant: 'twin', ...(consensus ? { consensus: starting } : {}) }));
  }

  /** A second block at the same height in the same term, sent on about half of the links. */
  private equivocate(twin: ModelBlock): void {
    const { checker, random, network } = this.context;
    checker.blockProduced(twin);
    this.bft?.blockArrived(twin);
    for (const peer of this.links) if (random.bool()) network().send(this.index, peer, { kind: 'BlockMessage', body: { block: twin } });
  }

  private start(): void {
    const { committedHead, executed } = this.durable;
    this.sync = new BlockSync({ headerOf: modelHeader, committedBlocks: this.durable, committedHead, appliedBlocks: executed });
    const { cft, blockIntervalMs, algorithm, byzantine } = this.context.schedule;
    if (algorithm === 'bft') return this.startBft(byzantine.find((b) => b.node === this.index)?.behaviour);
    if (!cft) return;
    this.cft = new Cft({ random: () => this.context.random.next(), now: () => this.context.queue.now, baseTimeoutMs: electionTimeoutMs(blockIntervalMs), promptElectionMs: blockIntervalMs, restored: this.durable.vote });
    this.groups = [];
    this.sets = [];
    this.cftSuspended = false;
    if (switchesAlgorithm(this.context.schedule)) {
      // Both machines, one of them running at a time (as the node's), BFT learning the chain first.
      this.bft = this.makeBft(undefined);
      this.bft.learnChain();
    }
    this.tellHead();
  }

  private startBft(behaviour: 'withhold' | 'equivocate' | undefined): void {
    // A withholding producer takes no part in consensus: it only relays blocks.
    if (behaviour === 'withhold') return;
    const life = this.life;
    this.bft = this.makeBft(behaviour);
    // It announces its view at once: on the next turn of the clock, when every node exists.
    this.context.queue.after(0, () => {
      if (this.life !== life || !this.sync) return;
      this.bft!.start(this.sync.head.num > 1 ? this.sync.head as ModelBlock : undefined, this.sync.commitIndex);
    });
  }

  private makeBft(behaviour: 'withhold' | 'equivocate' | undefined): SimBft {
    const life = this.life;
    return new SimBft(this.index, this.durable, this.context, {
      commit: (num) => this.step({ type: 'commit', num }),
      root: (id) => this.step({ type: 'root', id }),
      lead: (term) => { this.leading = term; },
    }, () => this.life === life && this.alive, behaviour);
  }

  /** The producer sets after the head block: the first ones before genesis. */
  private headConsensus(): ModelConsensus {
    return consensusOf(this.sync?.head as ModelBlock | undefined, this.context.schedule);
  }

  /**
   * Consensus learns the head, and first the producer sets the next block starts under if they
   * changed (as node-network does): in a run that switches algorithm, the current set's
   * algorithm runs; CFT taking over from BFT goes on from where BFT is.
   */
  private tellHead(): void {
    const head = this.sync!.head as ModelBlock;
    const starting = startingConsensus(this.headConsensus(), head.commitNum);
    const groups = consensusGroups(starting);
    const sets = activeSets(starting);
    const changed = sets.length !== this.sets.length || sets.some((set, i) => !sameSet(set, this.sets[i]!));
    this.sets = sets;
    if (this.bft && starting.algorithm === 'bft') {
      if (!this.cftSuspended) {
        this.cftSuspended = true;
        this.timerGeneration++;
        this.leading = undefined;
      }
      this.groups = groups;
      this.bft.producersChanged(starting, head.term);
    } else if (changed || this.cftSuspended) {
      const fromBft = this.bft?.takeOver;
      this.bft?.producersChanged(starting, head.term);
      this.cftSuspended = false;
      this.groups = groups;
      const self = groups.some((g) => g.includes(this.index)) ? producerAccount(this.index) : null;
      const nextIsBft = starting.next?.algorithm === 'bft';
      this.stepCft({ type: 'producers', groups: groups.map((g) => g.map(producerAccount)), self, ...(nextIsBft ? { nextIsBft } : {}), ...(fromBft ? { fromBft } : {}) });
    }
    const producer = head.producer ? producerAccount(Number(head.producer.slice(1))) : 0n;
    this.stepCft({ type: 'head', head: { num: head.num, term: head.term, producer }, commitIndex: this.sync!.commitIndex });
    if (head.num > 1 && switchesAlgorithm(this.context.schedule)) this.bft?.head(head, this.sync!.commitIndex);
  }

  private stepCft(event: Parameters<Cft['step']>[0]): void {
    if (!this.cft || this.cftSuspended) return;
    const ready = this.cft.step(event);
    this.durable.vote = { term: this.cft.currentTerm, votedFor: this.cft.vote };
    this.carryOutCft(ready);
  }

  private carryOutCft(ready: CftReady): void {
    const { queue, network, checker } = this.context;
    if (ready.stopLeading) this.leading = undefined;
    if (ready.lead !== undefined) {
      this.leading = ready.lead;
      checker.leaderElected(this, ready.lead);
    }
    if (ready.stopTimer) this.timerGeneration++;
    if (ready.timerMs !== undefined) {
      const generation = ++this.timerGeneration;
      const life = this.life;
      queue.after(ready.timerMs, () => {
        if (this.life !== life || generation !== this.timerGeneration) return;
        // As the node asks its routes: most of the active producers reachable.
        const producers = [...new Set(this.groups.flat())];
        const reachable = producers.filter((p) => p === this.index || network().reaches(this.index, p)).length;
        this.stepCft({ type: 'timeout', quorumReachable: reachable > producers.length / 2 });
      });
    }
    for (const { to, message } of ready.sends) {
      const targets = to === 'producers' ? [...new Set(this.groups.flat())].filter((p) => p !== this.index) : [Number(to) - 1];
      for (const target of targets) network().deliverRouted(this.index, target, () => this.context.node(target).receiveConsensus(message));
    }
    if (ready.commit !== undefined) this.step({ type: 'commit', num: ready.commit });
  }

  /** A broken invariant, unless this node is Byzantine (it is held to nothing). */
  private fail(text: string): void {
    if (!this.byzantine) this.context.checker.fail(text);
  }

  private step(event: SyncEvent<ModelBlock>): void {
    if (!this.sync) return;
    this.carryOut(this.sync.step(event));
    this.context.checker.afterStep(this);
  }

  private carryOut(ready: SyncReady<ModelBlock>): void {
    const { queue, random, schedule, checker, network } = this.context;
    const broken = this.durable.append(ready.committed);
    if (broken) this.fail(`${this.name}: ${broken}`);
    checker.blocksCommitted(this, ready.committed.map((c) => c.block));
    for (const { peer, message } of ready.sends) {
      network().send(this.index, peer, message);
      // The prepares and commits held for a block follow it (psibase's post_send_block, docs/p2p.md §5.3).
      const other = network().peerNode(this.index, peer);
      if (message.kind === 'BlockMessage' && other !== undefined) this.bft?.blockSent(other, message.body.block.id);
    }
    for (const { peer, reason } of ready.disconnects) {
      if (reason === NO_COMMON_BLOCK) this.fail(`${this.name} found no common block with link ${peer}`);
      network().close(peer);
    }
    const life = this.life;
    for (const { block } of ready.apply) {
      queue.after(1 + random.int(schedule.maxApplyMs), () => {
        if (this.life !== life || !this.sync) return;
        checker.blockApplied(this, block);
        const failure = this.durable.execute(block);
        // Every block the producer makes is valid: a failure means sync applied out of order.
        if (failure) this.fail(`${this.name} failed to apply block ${block.num} ${block.id}: ${failure}`);
        this.step(failure === undefined ? { type: 'applied', id: block.id, ok: true } : { type: 'applied', id: block.id, ok: false, reason: failure });
      });
    }
    if (ready.head && this.cft) this.tellHead();
    else if (ready.head && this.bft) this.bft.headUnderItsSets(ready.head as ModelBlock, this.sync!.commitIndex);
    // A CFT follower trusts the commitNum of the blocks it applies (docs/p2p.md §4 step 10); under BFT the proofs count.
    const underCft = this.bft ? !this.bft.active : this.context.schedule.algorithm === 'cft';
    if (ready.head && !this.producer && underCft) this.step({ type: 'commit', num: ready.head.commitNum });
  }
}
