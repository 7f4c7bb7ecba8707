import type { ConsensusDriver } from '../consensus/driver.js';
import type { BftMessage } from '../consensus/bft-io.js';
import type { CftMessage } from '../consensus/cft-io.js';
import type { DriverEvent, DriverReady, DriverSend, DriverTimer } from '../consensus/driver-io.js';
import { BlockSync, NO_COMMON_BLOCK } from '../sync/block-sync.js';
import type { PeerId } from '../peer-io.js';
import { StepQueue } from '../step-queue.js';
import type { SyncEvent, SyncReady } from '../sync/sync-io.js';
import type { SyncMessage } from '../sync/sync-messages.js';
import { makeModelBlock, modelHeader, type ModelBlock } from './model-block.js';
import { consensusAfter, consensusGroups, consensusOf, sameSet, startingConsensus, type ModelConsensus } from './model-consensus.js';
import type { DurableChain } from './model-chain.js';
import { electsLeaders, type ByzantineBehaviour } from './schedule.js';
import { bftBlockOf, driverOptions, producersAfter, signatureOf } from './sim-consensus.js';
import { producerAccount, type ConsensusEndpoint, type NodeContext } from './sim-context.js';
import type { LinkEndpoint } from './sim-network.js';

// One simulated node: block sync over a model chain and, among several producers, the node's
// consensus driver beside it (docs/p2p.md §4, §5, §6.1), fed by the same events, its Ready
// carried out one turn at a time as the node's is. A single producer makes a block every
// interval; among several, the leader does. With CFT, nodes that do not produce take
// irreversibility from the headers they apply (§4 step 10); with BFT, from commit quorums and the
// proofs in blocks (§5.4, §6.3). A crash loses everything but the DurableChain (the node's database).

const indexOf = (producer: bigint) => Number(producer) - 1;

export class SimNode implements LinkEndpoint, ConsensusEndpoint {
  private sync: BlockSync<ModelBlock> | undefined;
  /** Consensus, on a node of a run whose producers take the lead, unless it withholds (takes no part). */
  private driver: ConsensusDriver<string, number> | undefined;
  /** The term this node leads, while it does (CFT or BFT). */
  private leading: number | undefined;
  /** The node's live links (an equivocating leader sends its second blocks on some of them). */
  private readonly links = new Set<PeerId>();
  /** Bumped at each crash, so that work scheduled before it is void. */
  private life = 0;
  /** Bumped when a timer is set again or stopped, so that the old one is void. */
  private readonly timerGenerations: Record<DriverTimer, number> = { election: 0, viewChange: 0, viewChangeRetry: 0 };
  private readonly turns = new StepQueue();

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
  get behaviour(): ByzantineBehaviour | undefined {
    return this.context.schedule.byzantine.find((b) => b.node === this.index)?.behaviour;
  }

  get byzantine(): boolean {
    return this.behaviour !== undefined;
  }

  /** The consensus timeout (CFT's election timeout T, BFT's view-change timeout) while the node runs. */
  get consensusTimeoutMs(): number | undefined {
    return this.driver?.timeoutMs;
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
    this.driver = undefined;
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
    this.stepSync({ type: 'linkUp', peer });
    const other = this.context.network().peerNode(this.index, peer);
    if (other !== undefined) this.stepDriver(() => ({ type: 'linkUp', peer: other }));
  }

  linkDown(peer: PeerId): void {
    this.links.delete(peer);
    this.routesChanged();
    this.stepSync({ type: 'linkDown', peer });
  }

  /** Consensus learns which producers this node reaches now, as the node's router tells it (docs/p2p.md "What we build" 5). */
  routesChanged(): void {
    this.stepDriver(() => ({ type: 'routes', reachable: this.reachableProducers() }));
  }

  receive(peer: PeerId, message: SyncMessage<ModelBlock>): void {
    this.turns.run(() => {
      if (message.kind === 'BlockMessage' && this.driver && this.sync) {
        const block = message.body.block;
        const refused = this.driver.checkBlock(bftBlockOf(block, this.context.schedule), block.aux);
        // psinode disconnects a peer whose block header fails (docs/p2p.md §3.4).
        if (refused) {
          this.fail(`${this.name} refused block ${block.num} ${block.id}: ${refused}`);
          return this.context.network().close(peer);
        }
        this.blockArrived(block);
      }
      this.stepSync({ type: 'receive', peer, message });
    });
  }

  sent(peer: PeerId): void {
    this.stepSync({ type: 'sent', peer });
  }

  /** A CFT message routed to this node. */
  receiveConsensus(message: CftMessage): void {
    this.stepDriver(() => ({ type: 'receive', message }));
  }

  /** A BFT message routed or flooded to this node. */
  receiveBft(message: BftMessage<string>, from: number): void {
    this.stepDriver(() => ({ type: 'receive', message, from }));
  }

  /**
   * A slot: a single producer moves irreversibility up to `commitLag` blocks behind and makes a
   * block; a leader makes a block whose commitNum is its commit index (§4 step 7).
   */
  produce(): void {
    const { sync } = this;
    // The chain does one thing at a time: a block being applied holds off the next of its own.
    if (!sync || sync.applying !== undefined || !this.producer) return;
    if (electsLeaders(this.context.schedule)) return this.produceAsLeader(sync, this.leading!);
    const lag = this.context.schedule.commitLag;
    const num = sync.head.num + 1;
    if (lag > 0) this.stepSync({ type: 'commit', num: num - lag });
    const block = makeModelBlock({
      previous: sync.head.id, num, producer: this.name, term: this.durable.term, commitNum: lag > 0 ? sync.commitIndex : num,
    });
    this.context.checker.blockProduced(block);
    const failure = this.durable.execute(block);
    if (failure) this.fail(`${this.name} could not execute its own block ${num}: ${failure}`);
    this.stepSync({ type: 'produced', block });
    if (lag === 0) this.stepSync({ type: 'commit', num });
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
    const aux = this.driver?.proofOf(sync.headChainAt(sync.commitIndex).id);
    const fields = { previous: sync.head.id, num, producer: this.name, term, commitNum: sync.commitIndex, ...(consensus ? { consensus } : {}), ...(aux ? { aux } : {}) };
    const block = makeModelBlock(fields);
    // A BFT block that ends joint consensus proves the change irreversible (docs/p2p.md §6.1, §5.4).
    const start = block.consensus?.next?.start;
    if (starting.algorithm === 'bft' && start !== undefined && block.commitNum >= start && !(aux && aux.blockNum >= start)) {
      this.fail(`${this.name} made block ${num}, which ends joint consensus, without a commit proof of block ${start} or later`);
    }
    this.context.checker.blockProduced(block);
    const failure = this.durable.execute(block);
    if (failure) this.fail(`${this.name} could not execute its own block ${num}: ${failure}`);
    this.blockArrived(block);
    this.stepSync({ type: 'produced', block });
    // The twin of a block that starts a change of the producers leaves it out: the forks differ in their producer sets.
    if (this.behaviour === 'equivocate') this.equivocate(makeModelBlock({ ...fields, variant: 'twin', ...(consensus ? { consensus: starting } : {}) }));
  }

  /** A second block at the same height in the same term, sent on about half of the links. */
  private equivocate(twin: ModelBlock): void {
    const { checker, random, network } = this.context;
    checker.blockProduced(twin);
    this.blockArrived(twin);
    for (const peer of this.links) if (random.bool()) network().send(this.index, peer, { kind: 'BlockMessage', body: { block: twin } });
  }

  /** A block about to go to block sync (received, or produced here): consensus has it first. */
  private blockArrived(block: ModelBlock): void {
    this.stepDriver(() => ({ type: 'block', block: bftBlockOf(block, this.context.schedule), ...(block.aux ? { aux: block.aux } : {}) }));
    if (this.behaviour === 'equivocate') this.turns.run(() => this.confirmAnything(block));
  }

  /** An equivocating producer prepares and commits every block it sees, whatever its branch or term. */
  private confirmAnything(block: ModelBlock): void {
    const self = producerAccount(this.index);
    for (const kind of ['PrepareMessage', 'CommitMessage'] as const) {
      this.send({ algorithm: 'bft', to: 'producers', message: { kind, body: { blockId: block.id, producer: self }, signature: signatureOf(kind, block.id, self) } });
    }
  }

  private start(): void {
    const { committedHead, executed } = this.durable;
    this.sync = new BlockSync({ headerOf: modelHeader, committedBlocks: this.durable, committedHead, appliedBlocks: executed });
    const { schedule, random, queue } = this.context;
    // A withholding producer takes no part in consensus: it only relays blocks.
    if (!electsLeaders(schedule) || this.behaviour === 'withhold') return;
    const { vote, bft } = this.durable;
    const chainBlocks = () => [this.durable.committedHead, ...this.durable.executed].filter((b): b is ModelBlock => b !== undefined);
    this.driver = this.context.makeDriver(driverOptions(schedule, { random: () => random.next(), now: () => queue.now }, chainBlocks, { vote, bft, headTerm: this.sync.head.term }));
    // It starts on the next turn of the clock, when every node exists (it may announce its view at once).
    const life = this.life;
    queue.after(0, () => {
      if (this.life !== life) return;
      this.stepDriver(() => {
        const head = this.sync!.head as ModelBlock;
        return { type: 'start', producers: producersAfter(head, this.index, schedule), ...(head.num > 1 ? { head: bftBlockOf(head, schedule) } : {}), commitIndex: this.sync!.commitIndex };
      });
    });
  }

  /** The producer sets after the head block: the first ones before genesis. */
  private headConsensus(): ModelConsensus {
    return consensusOf(this.sync?.head as ModelBlock | undefined, this.context.schedule);
  }

  /** The other nodes this one reaches now (as the node's router has routes to them). */
  private reachableProducers(): bigint[] {
    const { network, schedule } = this.context;
    return [...Array(schedule.nodeCount).keys()].filter((p) => p !== this.index && network().reaches(this.index, p)).map(producerAccount);
  }

  /** A broken invariant, unless this node is Byzantine (it is held to nothing). */
  private fail(text: string): void {
    if (!this.byzantine) this.context.checker.fail(text);
  }

  /** Steps the driver on its turn, with the event as things are then, and carries out its Ready. */
  private stepDriver(event: () => DriverEvent<string, number>): void {
    this.turns.run(() => {
      if (this.driver) this.carryOutDriver(this.driver, this.driver.step(event()));
    });
  }

  private carryOutDriver(driver: ConsensusDriver<string, number>, ready: DriverReady<string, number>): void {
    const { queue, checker } = this.context;
    if (ready.persist.vote) this.durable.vote = { ...ready.persist.vote };
    if (ready.persist.bft) this.durable.bft = ready.persist.bft;
    for (const command of ready.chain) {
      if (command.type === 'stopLeading') {
        this.leading = undefined;
      } else if (command.type === 'lead') {
        this.leading = command.term;
        if (command.algorithm === 'cft') checker.leaderElected(this, command.term);
      }
    }
    for (const command of ready.timers) {
      const generation = ++this.timerGenerations[command.timer];
      if ('clear' in command) continue;
      const life = this.life;
      queue.after(command.ms, () => {
        if (this.life !== life || generation !== this.timerGenerations[command.timer]) return;
        this.stepDriver(() => ({ type: 'timeout', timer: command.timer, reachable: this.reachableProducers() }));
      });
    }
    if (ready.failure !== undefined) return this.fail(`n${this.index}: ${ready.failure}`);
    for (const send of ready.sends) this.send(send, driver);
    if (ready.root !== undefined) this.stepSync({ type: 'root', id: ready.root });
    if (ready.commit !== undefined) this.stepSync({ type: 'commit', num: ready.commit });
  }

  /** A consensus message to the producers, to every node, or to one (routed: it arrives after a delay unless lost). */
  private send(send: DriverSend<string, number>, driver = this.driver): void {
    if (!driver) return;
    const { schedule, network, node } = this.context;
    if (send.algorithm === 'cft') {
      const targets = send.to === 'producers' ? driver.producersOf('cft').map(indexOf).filter((p) => p !== this.index) : [indexOf(send.to)];
      for (const target of targets) network().deliverRouted(this.index, target, () => node(target).receiveConsensus(send.message));
      return;
    }
    const { to, message } = send;
    const everyone = to === 'producers' ? driver.producersOf('bft').map(indexOf) : [...Array(schedule.nodeCount).keys()];
    const targets = typeof to === 'object' ? [to.peer] : everyone.filter((i) => i !== this.index);
    for (const target of targets) network().deliverRouted(this.index, target, () => node(target).receiveBft(message, this.index), true);
  }

  /** Steps block sync on its turn and carries out its Ready. */
  private stepSync(event: SyncEvent<ModelBlock>): void {
    this.turns.run(() => {
      if (!this.sync) return;
      this.carryOut(this.sync.step(event));
      this.context.checker.afterStep(this);
    });
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
      if (message.kind === 'BlockMessage' && other !== undefined) this.stepDriver(() => ({ type: 'blockSent', peer: other, id: message.body.block.id }));
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
        this.stepSync(failure === undefined ? { type: 'applied', id: block.id, ok: true } : { type: 'applied', id: block.id, ok: false, reason: failure });
      });
    }
    const head = ready.head as ModelBlock | undefined;
    if (!head) return;
    const commitIndex = this.sync!.commitIndex;
    this.stepDriver(() => ({ type: 'head', producers: producersAfter(head, this.index, schedule), head: bftBlockOf(head, schedule), commitIndex }));
    // A CFT follower trusts the commitNum of the blocks it applies (docs/p2p.md §4 step 10); under BFT the proofs count.
    this.turns.run(() => {
      const underCft = this.driver ? !this.driver.bftActive : schedule.algorithm === 'cft';
      if (!this.producer && underCft) this.stepSync({ type: 'commit', num: head.commitNum });
    });
  }
}
