import { Bft } from '../consensus/bft.js';
import type { BftBlock, BftEvent, BftGroup, BftMessage, BftReady, BftUnsigned } from '../consensus/bft-io.js';
import type { BlockIdHex } from '../sync/block-header.js';
import type { ModelBlock } from './model-block.js';
import type { DurableChain } from './model-chain.js';
import { consensusGroups, consensusOf, sameProducers, startingConsensus, type ModelConsensus } from './model-consensus.js';
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

/** BFT producer sets as model sets (sorted node indexes, so sorted as u64 too): the current one and, during joint consensus, the next. */
function bftGroups(consensus: ModelConsensus): BftGroup[] {
  return consensusGroups(consensus).map((producers) => ({ algorithm: 'bft', producers: producers.map(producerAccount) }));
}

function signatureOf(kind: string, subject: string, producer: bigint): string {
  return `${kind}/${subject}/${producer}`;
}

/**
 * A model block as BFT reads it, with its own producer sets (psibase's BlockHeaderState, docs/p2p.md
 * §6.1): those it started under and, from the block that starts a change to the block that ends
 * it, the next set too.
 */
function bftBlockOf(block: ModelBlock, producerCount: number): BftBlock {
  // The state before genesis has no producer.
  const producer = !block.producer ? 0n : producerAccount(Number(block.producer.slice(1)));
  const groups = bftGroups(consensusOf(block, producerCount));
  return { id: block.id, num: block.num, previous: block.previous, term: block.term, producer, commitNum: block.commitNum, groups };
}

export class SimBft {
  private readonly bft: Bft<string>;
  private readonly self: bigint;
  /** The producer sets consensus was last told (node indexes). */
  private groups: (readonly number[])[] = [];
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
    const { blockIntervalMs } = context.schedule;
    // Every node has a producer name; it votes while it is one of the sets in force.
    this.self = producerAccount(index);
    this.bft = new Bft<string>({
      baseTimeoutMs: viewTimeoutMs(blockIntervalMs),
      sign: (message) => this.sign(message),
      verify: (kind, id, producer, signature) => signature === signatureOf(kind, id, producer),
      restored: durable.bft,
    });
  }

  get viewTimeoutMs(): number {
    return this.bft.viewTimeoutMs;
  }

  /** Starts on the node's chain: the committed block and the executed ones above it, then the head. */
  start(head: ModelBlock | undefined, commitIndex: number): void {
    for (const block of [this.durable.committedHead, ...this.durable.executed]) {
      if (block) this.step({ type: 'block', block: this.bftBlock(block) });
    }
    this.tellProducers(startingConsensus(consensusOf(head, this.context.schedule.producerCount), head?.commitNum ?? 0));
    if (head) this.step({ type: 'head', head: this.bftBlock(head), commitIndex });
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

  /**
   * The head changed. As psinode does (docs/p2p.md §6.1), consensus takes the head block under its
   * own producer sets, then the sets the next block starts under (the new set alone once the head
   * ends joint consensus), so that the next set's leader can lead it.
   */
  head(head: ModelBlock, commitIndex: number): void {
    const consensus = consensusOf(head, this.context.schedule.producerCount);
    this.tellProducers(consensus);
    this.step({ type: 'head', head: this.bftBlock(head), commitIndex });
    this.tellProducers(startingConsensus(consensus, head.commitNum));
  }

  /** A new link: the node at its other end gets every view change held (§5.2). */
  linkUp(peerNode: number): void {
    const { network, node } = this.context;
    for (const message of this.bft.viewChanges()) network().deliverRouted(this.index, peerNode, () => node(peerNode).receiveBft(message, this.index), true);
  }

  receive(message: BftMessage<string>, from: number): void {
    this.requester = from;
    this.step({ type: 'receive', message });
    this.requester = undefined;
  }

  /** The commit proof of the block a new block names as its commitNum, for its aux data. */
  proofOf(id: BlockIdHex): ModelBlock['aux'] {
    return this.bft.proofOf(id);
  }

  private bftBlock(block: ModelBlock): BftBlock {
    return bftBlockOf(block, this.context.schedule.producerCount);
  }

  /** Consensus learns the producer sets in force when they changed. */
  private tellProducers(consensus: ModelConsensus): void {
    const groups = consensusGroups(consensus);
    if (groups.length === this.groups.length && groups.every((g, i) => sameProducers(g, this.groups[i]!))) return;
    this.groups = groups;
    this.step({ type: 'producers', groups: bftGroups(consensus), self: this.self });
  }

  private sign(message: BftUnsigned<string>): string {
    const subject = message.kind === 'ViewChangeMessage' ? `${message.body.term}/${message.body.bestPrepared}` : message.body.blockId;
    return signatureOf(message.kind, subject, this.self);
  }

  /** An equivocating producer prepares and commits every block it sees, whatever its branch or term. */
  private confirmAnything(block: ModelBlock): void {
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
    // To the producers of the sets in force here, as psinode's multicast_producers (§5.3).
    const everyone = to === 'producers' ? [...new Set(this.groups.flat())] : [...Array(schedule.nodeCount).keys()];
    const targets = to === 'sender' ? (this.requester === undefined ? [] : [this.requester]) : everyone.filter((i) => i !== this.index);
    for (const target of targets) network().deliverRouted(this.index, target, () => node(target).receiveBft(message, this.index), true);
  }
}
