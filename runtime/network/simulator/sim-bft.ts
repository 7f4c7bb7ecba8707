import { Bft, sameGroup } from '../consensus/bft.js';
import type { BftBlock, BftEvent, BftGroup, BftKept, BftMessage, BftReady, BftUnsigned } from '../consensus/bft-io.js';
import type { BlockIdHex } from '../sync/block-header.js';
import type { ModelBlock } from './model-block.js';
import { activeSets, consensusOf, startingConsensus, type ModelConsensus } from './model-consensus.js';
import type { CftTakeOver } from '../consensus/cft-io.js';
import type { DurableChain } from './model-chain.js';
import { viewTimeoutMs, type ByzantineBehaviour } from './schedule.js';
import { producerAccount, type NodeContext } from './sim-context.js';

// BFT on a simulated node (docs/p2p.md §5): the state machine of consensus/bft.ts fed with the
// node's blocks, heads and routed messages, its Ready carried out on the node. A signature is a
// token naming the signer and what it signed, so no node can sign for another. A Byzantine node
// breaks the rules as its behaviour says; the invariants do not hold it to them.

/** What the BFT driver does to its node. */
export interface BftNodePorts {
  /** Irreversibility moved on, up to this head-chain block number. */
  commit(num: number): void;
  /** Fork choice keeps to this block's subtree. */
  root(id: BlockIdHex): void;
  /** Start (a term) or stop (undefined) producing. */
  lead(term: number | undefined): void;
}

/** The producer set of a BFT schedule: every producer, sorted as u64 (their indices in order). */
export function bftGroup(producerCount: number): BftGroup {
  return { algorithm: 'bft', producers: [...Array(producerCount).keys()].map(producerAccount) };
}

function signatureOf(kind: string, subject: string, producer: bigint): string {
  return `${kind}/${subject}/${producer}`;
}

/** The sets a consensus holds, as BFT reads them (as the node's bftGroups); node indexes are sorted, so their accounts are sorted as u64 too. */
function groupsOf(consensus: ModelConsensus): BftGroup[] {
  return activeSets(consensus).map((set) => ({ algorithm: set.algorithm ?? 'cft', producers: set.producers.map(producerAccount) }));
}

/**
 * A model block as BFT reads it: with the sets it was made under and the change it made, as
 * psibase's BlockHeaderState holds them (docs/p2p.md §6.1), or the schedule's one BFT set in a
 * run whose sets never change.
 */
function bftBlockOf(block: ModelBlock, group: BftGroup): BftBlock {
  // The state before genesis has no producer.
  const producer = !block.producer ? 0n : producerAccount(Number(block.producer.slice(1)));
  const groups = block.consensus ? groupsOf(block.consensus) : [group];
  return { id: block.id, num: block.num, previous: block.previous, term: block.term, producer, commitNum: block.commitNum, groups };
}

export class SimBft {
  private bft: Bft<string>;
  private readonly group: BftGroup;
  private readonly self: bigint | null;
  /** The sets BFT was last told. */
  private groups: BftGroup[] = [];
  /** Whether this node has run under a CFT set: a switch to BFT then starts a term of its own (as the node's). */
  private afterCft = false;
  /** Bumped when the timer is set again or stopped, so that the old one is void. */
  private timerGeneration = 0;
  /** The node a RequestViewMessage being handled came from. */
  private requester: number | undefined;

  constructor(
    private readonly index: number,
    private readonly durable: DurableChain,
    private readonly context: NodeContext,
    private readonly ports: BftNodePorts,
    private readonly isAlive: () => boolean,
    readonly behaviour: ByzantineBehaviour | undefined,
  ) {
    const { producerCount } = context.schedule;
    this.group = bftGroup(producerCount);
    // A run whose sets change has producers beyond the first ones.
    this.self = index < producerCount || context.schedule.producerChanges.length > 0 ? producerAccount(index) : null;
    this.bft = this.machine(durable.bft);
  }

  private machine(restored: BftKept<string> | undefined): Bft<string> {
    return new Bft<string>({
      baseTimeoutMs: viewTimeoutMs(this.context.schedule.blockIntervalMs),
      sign: (message) => this.sign(message),
      verify: (kind, id, producer, signature) => signature === signatureOf(kind, id, producer),
      ...(restored ? { restored } : {}),
    });
  }

  get viewTimeoutMs(): number {
    return this.bft.viewTimeoutMs;
  }

  /** Whether BFT takes part now (the current set is BFT). */
  get active(): boolean {
    return this.groups[0]?.algorithm === 'bft';
  }

  /** Where BFT is while it runs: its term and whether this node leads it (as the node's NodeBft.takeOver). */
  get takeOver(): CftTakeOver | undefined {
    return this.active ? { term: this.bft.currentTerm, leading: this.bft.role === 'leader' } : undefined;
  }

  /**
   * Starts on the node's chain, in a run that stays BFT: the committed block and the executed ones
   * above it, the sets the block after the head starts under, then the head.
   */
  start(head: ModelBlock | undefined, commitIndex: number): void {
    this.learnChain();
    this.producersChanged(startingConsensus(consensusOf(head, this.context.schedule), head?.commitNum ?? 0), head?.term ?? 0);
    if (head) this.step({ type: 'head', head: this.bftBlock(head), commitIndex });
  }

  /** BFT learns the committed block and the executed ones above it. */
  learnChain(): void {
    for (const block of [this.durable.committedHead, ...this.durable.executed]) {
      if (block) this.step({ type: 'block', block: this.bftBlock(block) });
    }
  }

  /**
   * The sets the next block starts under, after the head of term `headTerm` (as the node's
   * NodeBft.producersChanged): BFT taking over from CFT begins a term after the head's.
   */
  producersChanged(consensus: ModelConsensus, headTerm: number): void {
    const groups = groupsOf(consensus);
    if (groups.length === this.groups.length && groups.every((g, i) => sameGroup(g, this.groups[i]))) return;
    const switching = !this.active && groups[0]?.algorithm === 'bft';
    if (groups[0]?.algorithm === 'cft') this.afterCft = true;
    if (switching && this.afterCft && this.bft.currentTerm <= headTerm) {
      this.bft = this.machine({ ...this.bft.kept, term: headTerm + 1 });
      this.learnChain();
    }
    this.groups = groups;
    this.step({ type: 'producers', groups, self: this.self });
  }

  /** Why a received block is refused, if it is (a wrong leader, a bad proof). */
  check(block: ModelBlock): string | undefined {
    return this.bft.checkBlock(this.bftBlock(block), block.aux);
  }

  /** A block about to go to block sync (received, or produced here). */
  blockArrived(block: ModelBlock): void {
    this.step({ type: 'block', block: this.bftBlock(block), ...(block.aux ? { aux: block.aux } : {}) });
    if (this.behaviour === 'equivocate') this.confirmAnything(block);
  }

  /** The head changed, the sets the next block starts under told already (producersChanged). */
  head(head: ModelBlock, commitIndex: number): void {
    this.step({ type: 'head', head: this.bftBlock(head), commitIndex });
  }

  /**
   * The head changed, in a run that stays BFT. As psinode does (docs/p2p.md §6.1), consensus takes
   * the head block under its own producer sets, then the sets the next block starts under (the new
   * set alone once the head ends joint consensus), so that the next set's leader can lead it.
   */
  headUnderItsSets(head: ModelBlock, commitIndex: number): void {
    const consensus = consensusOf(head, this.context.schedule);
    this.producersChanged(consensus, head.term);
    this.head(head, commitIndex);
    this.producersChanged(startingConsensus(consensus, head.commitNum), head.term);
  }

  /** A new link: the node at its other end gets every view change held (§5.2). */
  linkUp(peerNode: number): void {
    const { network, node } = this.context;
    for (const message of this.bft.viewChanges()) network().deliverRouted(this.index, peerNode, () => node(peerNode).receiveBft(message, this.index), true);
  }

  /** This node sent block `id` to the node at the other end of a link: every prepare and commit held for it follows (§5.3). */
  blockSent(peerNode: number, id: BlockIdHex): void {
    const { network, node } = this.context;
    for (const message of this.bft.confirmsOf(id)) network().deliverRouted(this.index, peerNode, () => node(peerNode).receiveBft(message, this.index), true);
  }

  receive(message: BftMessage<string>, from: number): void {
    this.requester = from;
    this.step({ type: 'receive', message });
    this.requester = undefined;
  }

  /** The commit proof of the block a new block names as its commitNum, for its aux data (under BFT). */
  proofOf(id: BlockIdHex): ModelBlock['aux'] {
    return this.active ? this.bft.proofOf(id) : undefined;
  }

  private bftBlock(block: ModelBlock): BftBlock {
    return bftBlockOf(block, this.group);
  }

  private sign(message: BftUnsigned<string>): string {
    const subject = message.kind === 'ViewChangeMessage' ? `${message.body.term}/${message.body.bestPrepared}` : message.body.blockId;
    return signatureOf(message.kind, subject, this.self!);
  }

  /** An equivocating producer prepares and commits every block it sees, whatever its branch or term. */
  private confirmAnything(block: ModelBlock): void {
    if (this.self === null) return;
    for (const kind of ['PrepareMessage', 'CommitMessage'] as const) {
      this.send('producers', { kind, body: { blockId: block.id, producer: this.self }, signature: signatureOf(kind, block.id, this.self) });
    }
  }

  private step(event: BftEvent<string>): void {
    const ready = this.bft.step(event);
    // On disk before any message that depends on it leaves.
    this.durable.bft = this.bft.kept;
    this.carryOut(ready);
  }

  private carryOut(ready: BftReady<string>): void {
    const { queue, checker } = this.context;
    if (ready.consensusFailure && this.behaviour === undefined) checker.fail(`n${this.index}: ${ready.consensusFailure}`);
    if (ready.stopLeading) this.ports.lead(undefined);
    if (ready.lead !== undefined) this.ports.lead(ready.lead);
    if (ready.stopTimer) this.timerGeneration++;
    if (ready.timerMs !== undefined) {
      const generation = ++this.timerGeneration;
      queue.after(ready.timerMs, () => {
        if (this.isAlive() && generation === this.timerGeneration) this.step({ type: 'timeout' });
      });
    }
    for (const { to, message } of ready.sends) this.send(to, message);
    if (ready.root !== undefined) this.ports.root(ready.root);
    if (ready.commit !== undefined) this.ports.commit(ready.commit);
  }

  private send(to: 'producers' | 'all' | 'sender', message: BftMessage<string>): void {
    const { schedule, network, node } = this.context;
    const producers = [...new Set(this.groups.flatMap((g) => g.producers.map((p) => Number(p) - 1)))];
    const everyone = to === 'producers' ? producers : [...Array(schedule.nodeCount).keys()];
    const targets = to === 'sender' ? (this.requester === undefined ? [] : [this.requester]) : everyone.filter((i) => i !== this.index);
    for (const target of targets) network().deliverRouted(this.index, target, () => node(target).receiveBft(message, this.index), true);
  }
}
