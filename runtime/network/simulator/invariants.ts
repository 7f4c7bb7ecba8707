import { PRE_GENESIS } from '../sync/block-header.js';
import type { ModelBlock } from './model-block.js';
import type { DurableChain } from './model-chain.js';

// What must hold after every step of a simulated run (the convergence check is the simulation's,
// at the end): no node applies a block the producer did not make; irreversible blocks agree with
// the producer's and never revert.

/** The part of a node the checks read. */
export interface CheckedNode {
  readonly name: string;
  readonly durable: DurableChain;
  /** The head chain's block id at the commit index and the commit index, while the node runs. */
  committedOnHeadChain(): { id: string; num: number } | undefined;
}

export class InvariantChecker {
  readonly violations: string[] = [];
  private readonly produced = new Map<string, ModelBlock>();

  constructor(private readonly now: () => number, private readonly producerLog: DurableChain) {}

  blockProduced(block: ModelBlock): void {
    this.produced.set(block.id, block);
  }

  /** Every block a node executes was produced, at that height, by the producer. */
  blockApplied(node: CheckedNode, block: ModelBlock): void {
    if (this.produced.get(block.id) !== block) this.fail(`${node.name} applied block ${block.num} ${block.id}, which the producer never produced`);
  }

  /** A node's irreversible blocks are the producer's, at the same heights. */
  blocksCommitted(node: CheckedNode, blocks: readonly ModelBlock[]): void {
    for (const block of blocks) {
      const producers = this.producerLog.blockAt(block.num);
      if (producers?.id !== block.id) {
        this.fail(`${node.name} made block ${block.num} ${block.id} irreversible; the producer's is ${producers?.id ?? 'not irreversible'}`);
      }
    }
  }

  /** The head chain still holds the last irreversible block: nothing irreversible reverted. */
  afterStep(node: CheckedNode): void {
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
