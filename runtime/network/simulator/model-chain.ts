import { PRE_GENESIS } from '../sync/block-header.js';
import type { CommittedBlocks, SyncBlock } from '../sync/sync-io.js';
import { modelBlockId, type ModelBlock } from './model-block.js';

// A simulated node's chain: the block log of irreversible blocks and the producer's term survive
// a crash (they stand for what is on disk); the set of executed block states does not.

/** What a crash keeps. */
export class DurableChain implements CommittedBlocks<ModelBlock> {
  /** log[i] is block i + 2 (genesis is block 2). */
  readonly log: ModelBlock[] = [];
  /** The producer's term: raised at each restart, so blocks after a crash are a new fork. */
  term = 1;

  blockAt(num: number): ModelBlock | undefined {
    return this.log[num - 2];
  }

  get committedHead(): ModelBlock | undefined {
    return this.log[this.log.length - 1];
  }

  /** Appends newly irreversible blocks; returns what is wrong with them, if anything. */
  append(blocks: readonly SyncBlock<ModelBlock>[]): string | undefined {
    for (const { block } of blocks) {
      const previous = this.committedHead ?? PRE_GENESIS;
      if (block.num !== previous.num + 1 || block.previous !== previous.id) {
        return `committed block ${block.num} ${block.id} does not follow committed block ${previous.num} ${previous.id}`;
      }
      this.log.push(block);
    }
    return undefined;
  }
}

/** The executed states, lost in a crash: a block executes only on its parent's state. */
export class ModelExecutor {
  private readonly states = new Set<string>();

  constructor(durable: DurableChain) {
    this.states.add((durable.committedHead ?? PRE_GENESIS).id);
  }

  /** Executes a block: undefined when it succeeds, otherwise why it failed. */
  execute(block: ModelBlock): string | undefined {
    if (!this.states.has(block.previous)) return `no state for parent ${block.previous}`;
    if (modelBlockId(block) !== block.id) return 'blockId does not match';
    this.states.add(block.id);
    return undefined;
  }

  forget(ids: readonly string[]): void {
    for (const id of ids) this.states.delete(id);
  }
}
