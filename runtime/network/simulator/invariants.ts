import { PRE_GENESIS } from '../sync/block-header.js';
import type { ModelBlock } from './model-block.js';
import type { DurableChain } from './model-chain.js';

// What must hold after every step of a simulated run (the convergence checks are the simulation's,
// at the end): no node applies a block no producer made; no two nodes make different blocks
// irreversible at one height, and nothing irreversible reverts; a CFT term has one leader at most.
// Byzantine producers (BFT) are held to none of it.

/** The part of a node the checks read. */
export interface CheckedNode {
  readonly name: string;
  /** A Byzantine producer is held to nothing: the checks are of the honest nodes. */
  readonly byzantine: boolean;
  readonly durable: DurableChain;
  /** The head chain's block id at the commit index and the commit index, while the node runs. */
  committedOnHeadChain(): { id: string; num: number } | undefined;
}

export class InvariantChecker {
  readonly violations: string[] = [];
  private readonly produced = new Map<string, ModelBlock>();
  /** The first block made irreversible at each height, and by whom. */
  private readonly committed = new Map<number, { id: string; by: string }>();
  private readonly leaders = new Map<number, string>();

  constructor(private readonly now: () => number) {}

  blockProduced(block: ModelBlock): void {
    this.produced.set(block.id, block);
  }

  /**
   * Every block a node executes was made, at that height, by a producer. A producer restarted in
   * the same term may make the same block again (same id; its aux data, outside the id, may
   * differ), so blocks compare by id; executing one checks that its id is its header's.
   */
  blockApplied(node: CheckedNode, block: ModelBlock): void {
    if (node.byzantine) return;
    if (!this.produced.has(block.id)) this.fail(`${node.name} applied block ${block.num} ${block.id}, which no producer made`);
  }

  /** Every node makes the same block irreversible at a height. */
  blocksCommitted(node: CheckedNode, blocks: readonly ModelBlock[]): void {
    if (node.byzantine) return;
    for (const block of blocks) {
      const first = this.committed.get(block.num);
      if (!first) this.committed.set(block.num, { id: block.id, by: node.name });
      else if (first.id !== block.id) this.fail(`${node.name} made block ${block.num} ${block.id} irreversible; ${first.by} made ${first.id} irreversible there`);
    }
  }

  /** The highest block number any node made irreversible. */
  get highestCommitted(): number {
    let highest = 0;
    for (const num of this.committed.keys()) highest = Math.max(highest, num);
    return highest;
  }

  /** At most one leader per term (Raft's election safety). */
  leaderElected(node: CheckedNode, term: number): void {
    const leader = this.leaders.get(term);
    if (leader === undefined) this.leaders.set(term, node.name);
    else if (leader !== node.name) this.fail(`${node.name} became leader of term ${term}, which ${leader} already leads`);
  }

  /** The head chain still holds the last irreversible block: nothing irreversible reverted. */
  afterStep(node: CheckedNode): void {
    if (node.byzantine) return;
    const onChain = node.committedOnHeadChain();
    if (!onChain) return;
    const logged = node.durable.committedHead ?? PRE_GENESIS;
    if (onChain.num !== logged.num || onChain.id !== logged.id) {
      this.fail(`${node.name}'s head chain has ${onChain.num} ${onChain.id} at its commit index; its log's last block is ${logged.num} ${logged.id}`);
    }
  }

  fail(text: string): void {
    this.violations.push(`t=${this.now()} ${text}`);
  }
}
