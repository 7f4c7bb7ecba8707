import { Cft } from '../consensus/cft.js';
import type { CftMessage, CftReady } from '../consensus/cft-io.js';
import { BlockSync, NO_COMMON_BLOCK } from '../sync/block-sync.js';
import type { PeerId } from '../peer-io.js';
import type { SyncEvent, SyncReady } from '../sync/sync-io.js';
import type { SyncMessage } from '../sync/sync-messages.js';
import type { EventQueue } from './event-queue.js';
import type { InvariantChecker } from './invariants.js';
import { makeModelBlock, modelHeader, type ModelBlock } from './model-block.js';
import { consensusAfter, consensusGroups, sameProducers, startingConsensus, type ModelConsensus } from './model-consensus.js';
import type { DurableChain } from './model-chain.js';
import { electionTimeoutMs, type Schedule } from './schedule.js';
import type { LinkEndpoint, SimNetwork } from './sim-network.js';
import type { Random } from '../../testing/random.js';

// One simulated node: block sync over a model chain and, among several producers, CFT consensus
// beside it (docs/p2p.md §4), fed by the same events, their Ready carried out the same way. A
// single producer makes a block every interval; among several, the leader does. Nodes that do not
// produce take irreversibility from the headers they apply (§4 step 10, §6.3). A crash loses
// everything but the DurableChain (the node's database).

export interface NodeContext {
  readonly queue: EventQueue;
  readonly random: Random;
  readonly schedule: Schedule;
  readonly checker: InvariantChecker;
  readonly network: () => SimNetwork;
  readonly node: (index: number) => SimNode;
  /** The producer set last asked for (schedule.producerChanges), if any yet. */
  readonly wantedProducers: () => readonly number[] | undefined;
}

/** A simulated producer's account number: its index plus one (0 is no account). */
export function producerAccount(index: number): bigint {
  return BigInt(index + 1);
}

export class SimNode implements LinkEndpoint {
  private sync: BlockSync<ModelBlock> | undefined;
  private cft: Cft | undefined;
  /** The term this node leads, while it does (CFT). */
  private leading: number | undefined;
  /** Bumped at each crash, so that work scheduled before it is void. */
  private life = 0;
  /** Bumped when the election timer is set again or stopped, so that the old one is void. */
  private timerGeneration = 0;
  /** The producer sets consensus was last told (node indexes). */
  private groups: (readonly number[])[] = [];

  constructor(
    readonly index: number,
    readonly name: string,
    readonly durable: DurableChain,
    private readonly context: NodeContext,
  ) {
    this.start();
  }

  /** Whether this node makes the blocks now: the single producer, or the CFT leader. */
  get producer(): boolean {
    return this.cft ? this.leading !== undefined : this.index === 0;
  }

  /** The CFT election timeout T, while the node runs CFT. */
  get electionTimeoutMs(): number | undefined {
    return this.cft?.timeoutMs;
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
    this.leading = undefined;
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
    this.step({ type: 'linkUp', peer });
  }

  linkDown(peer: PeerId): void {
    this.step({ type: 'linkDown', peer });
  }

  receive(peer: PeerId, message: SyncMessage<ModelBlock>): void {
    this.step({ type: 'receive', peer, message });
  }

  sent(peer: PeerId): void {
    this.step({ type: 'sent', peer });
  }

  /** A CFT message routed to this node. */
  receiveConsensus(message: CftMessage): void {
    this.stepCft({ type: 'receive', message });
  }

  /**
   * A slot: a single producer moves irreversibility up to `commitLag` blocks behind and makes a
   * block; a CFT leader makes a block whose commitNum is its commit index (§4 step 7).
   */
  produce(): void {
    const { sync } = this;
    // The chain does one thing at a time: a block being applied holds off the next of its own.
    if (!sync || sync.applying !== undefined || !this.producer) return;
    if (this.cft) return this.produceAsLeader(sync, this.leading!);
    const lag = this.context.schedule.commitLag;
    const num = sync.head.num + 1;
    if (lag > 0) this.step({ type: 'commit', num: num - lag });
    const block = makeModelBlock({
      previous: sync.head.id, num, producer: this.name, term: this.durable.term, commitNum: lag > 0 ? sync.commitIndex : num,
    });
    this.context.checker.blockProduced(block);
    const failure = this.durable.execute(block);
    if (failure) this.context.checker.fail(`${this.name} could not execute its own block ${num}: ${failure}`);
    this.step({ type: 'produced', block });
    if (lag === 0) this.step({ type: 'commit', num });
  }

  private produceAsLeader(sync: BlockSync<ModelBlock>, term: number): void {
    const num = sync.head.num + 1;
    const parent = this.headConsensus();
    // Like the node, a leader makes blocks only as a producer of the consensus its block starts under.
    const starting = startingConsensus(parent, sync.head.commitNum);
    if (!consensusGroups(starting).some((g) => g.includes(this.index))) return;
    let consensus: ModelConsensus | undefined;
    if (this.context.schedule.producerChanges.length > 0) {
      const wanted = this.context.wantedProducers();
      const change = wanted && !starting.next && !sameProducers(wanted, starting.producers) ? wanted : undefined;
      consensus = consensusAfter(parent, sync.head.commitNum, num, change);
    }
    const block = makeModelBlock({ previous: sync.head.id, num, producer: this.name, term, commitNum: sync.commitIndex, consensus });
    this.context.checker.blockProduced(block);
    const failure = this.durable.execute(block);
    if (failure) this.context.checker.fail(`${this.name} could not execute its own block ${num}: ${failure}`);
    this.step({ type: 'produced', block });
  }

  private start(): void {
    const { committedHead, executed } = this.durable;
    this.sync = new BlockSync({ headerOf: modelHeader, committedBlocks: this.durable, committedHead, appliedBlocks: executed });
    const { cft, blockIntervalMs } = this.context.schedule;
    if (!cft) return;
    this.cft = new Cft({ random: () => this.context.random.next(), now: () => this.context.queue.now, baseTimeoutMs: electionTimeoutMs(blockIntervalMs), restored: this.durable.vote });
    this.groups = [];
    this.tellCftHead();
  }

  /** The producer sets after the head block: the first ones before genesis. */
  private headConsensus(): ModelConsensus {
    const head = this.sync?.head as ModelBlock | undefined;
    return head?.consensus ?? { producers: [...Array(this.context.schedule.producerCount).keys()], next: null };
  }

  /**
   * Consensus learns the head, and first the producer sets the next block starts under if they
   * changed (as node-network does).
   */
  private tellCftHead(): void {
    const groups = consensusGroups(startingConsensus(this.headConsensus(), this.sync!.head.commitNum));
    if (groups.length !== this.groups.length || groups.some((g, i) => !sameProducers(g, this.groups[i]!))) {
      this.groups = groups;
      const self = groups.some((g) => g.includes(this.index)) ? producerAccount(this.index) : null;
      this.stepCft({ type: 'producers', groups: groups.map((g) => g.map(producerAccount)), self });
    }
    const head = this.sync!.head as ModelBlock | undefined;
    const producer = head?.producer ? producerAccount(Number(head.producer.slice(1))) : 0n;
    this.stepCft({ type: 'head', head: { num: head?.num ?? 1, term: head?.term ?? 0, producer }, commitIndex: this.sync!.commitIndex });
  }

  private stepCft(event: Parameters<Cft['step']>[0]): void {
    if (!this.cft) return;
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

  private step(event: SyncEvent<ModelBlock>): void {
    if (!this.sync) return;
    this.carryOut(this.sync.step(event));
    this.context.checker.afterStep(this);
  }

  private carryOut(ready: SyncReady<ModelBlock>): void {
    const { queue, random, schedule, checker, network } = this.context;
    const broken = this.durable.append(ready.committed);
    if (broken) checker.fail(`${this.name}: ${broken}`);
    checker.blocksCommitted(this, ready.committed.map((c) => c.block));
    for (const { peer, message } of ready.sends) network().send(this.index, peer, message);
    for (const { peer, reason } of ready.disconnects) {
      if (reason === NO_COMMON_BLOCK) checker.fail(`${this.name} found no common block with link ${peer}`);
      network().close(peer);
    }
    const life = this.life;
    for (const { block } of ready.apply) {
      queue.after(1 + random.int(schedule.maxApplyMs), () => {
        if (this.life !== life || !this.sync) return;
        checker.blockApplied(this, block);
        const failure = this.durable.execute(block);
        // Every block the producer makes is valid: a failure means sync applied out of order.
        if (failure) checker.fail(`${this.name} failed to apply block ${block.num} ${block.id}: ${failure}`);
        this.step(failure === undefined ? { type: 'applied', id: block.id, ok: true } : { type: 'applied', id: block.id, ok: false, reason: failure });
      });
    }
    if (ready.head && this.cft) this.tellCftHead();
    // A follower trusts the commitNum of the blocks it applies (docs/p2p.md §4 step 10).
    if (ready.head && !this.producer) this.step({ type: 'commit', num: ready.head.commitNum });
  }
}
