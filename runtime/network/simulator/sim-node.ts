import { BlockSync, NO_COMMON_BLOCK } from '../sync/block-sync.js';
import type { PeerId } from '../peer-io.js';
import type { SyncEvent, SyncReady } from '../sync/sync-io.js';
import type { SyncMessage } from '../sync/sync-messages.js';
import type { EventQueue } from './event-queue.js';
import type { InvariantChecker } from './invariants.js';
import { makeModelBlock, modelHeader, type ModelBlock } from './model-block.js';
import type { DurableChain } from './model-chain.js';
import type { Schedule } from './schedule.js';
import type { LinkEndpoint, SimNetwork } from './sim-network.js';
import type { Random } from '../../testing/random.js';

// One simulated node: block sync over a model chain. The producer makes a block every interval;
// followers take irreversibility from the headers they apply, as CFT followers do (docs/p2p.md §4
// step 10, §6.3). A crash loses everything but the DurableChain (the node's database). Consensus state machines are to
// sit beside `sync` here, fed by the same events and their Ready carried out the same way.

export interface NodeContext {
  readonly queue: EventQueue;
  readonly random: Random;
  readonly schedule: Schedule;
  readonly checker: InvariantChecker;
  readonly network: () => SimNetwork;
}

export class SimNode implements LinkEndpoint {
  private sync: BlockSync<ModelBlock> | undefined;
  /** Bumped at each crash, so that work scheduled before it is void. */
  private life = 0;

  constructor(
    readonly index: number,
    readonly name: string,
    readonly durable: DurableChain,
    private readonly context: NodeContext,
  ) {
    this.start();
  }

  get producer(): boolean {
    return this.index === 0;
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
    this.life++;
  }

  restart(): void {
    if (this.producer) {
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

  /** The producer's slot: irreversibility moves up to `commitLag` blocks behind, then a new block. */
  produce(): void {
    const { sync } = this;
    // The chain does one thing at a time: a block being applied holds off the next of its own.
    if (!sync || sync.applying !== undefined) return;
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

  private start(): void {
    const { committedHead, executed } = this.durable;
    this.sync = new BlockSync({ headerOf: modelHeader, committedBlocks: this.durable, committedHead, appliedBlocks: executed });
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
    // A follower trusts the commitNum of the blocks it applies (docs/p2p.md §4 step 10).
    if (ready.head && !this.producer) this.step({ type: 'commit', num: ready.head.commitNum });
  }
}
