import type { BftKept } from '../consensus/bft-io.js';
import { PRE_GENESIS } from '../sync/block-header.js';
import type { CommittedBlocks, SyncBlock } from '../sync/sync-io.js';
import { modelBlockId, type ModelBlock } from './model-block.js';

// A simulated node's chain, as the real node keeps it (docs/chain.md §1.6): the block log of
// irreversible blocks, one executed state whose reversible blocks above the log can be taken
// back newest first, and the producer's term. All of it is on disk: a crash loses none of it.

export class DurableChain implements CommittedBlocks<ModelBlock> {
  /** log[i] is block i + 2 (genesis is block 2). */
  readonly log: ModelBlock[] = [];
  /** The reversible blocks the state holds above the log's last block, in order. */
  readonly executed: ModelBlock[] = [];
  /** A single producer's term: raised at each restart, so blocks after a crash are a new fork. */
  term = 1;
  /** A CFT producer's term and vote (docs/p2p.md §4), kept so that a restart never votes twice in a term. */
  vote: { term: number; votedFor: bigint | null } = { term: 0, votedFor: null };
  /** A BFT producer's term and best prepared or committed block (docs/p2p.md §5.3), for the forbidden-fork rule. */
  bft: BftKept<string> | undefined;

  blockAt(num: number): ModelBlock | undefined {
    return this.log[num - 2];
  }

  get committedHead(): ModelBlock | undefined {
    return this.log[this.log.length - 1];
  }

  /**
   * Executes a block on its parent's state: reverts the executed blocks above the parent first.
   * Undefined when it succeeds, otherwise why it failed (nothing changes then but the revert).
   */
  execute(block: ModelBlock): string | undefined {
    const base = this.committedHead ?? PRE_GENESIS;
    const keep = block.previous === base.id ? 0 : this.executed.findIndex((b) => b.id === block.previous) + 1;
    if (keep === 0 && block.previous !== base.id) {
      return `no state for parent ${block.previous}: it is neither the committed block nor above it on the executed path`;
    }
    this.executed.length = keep;
    if (modelBlockId(block) !== block.id) return 'blockId does not match';
    this.executed.push(block);
    return undefined;
  }

  /** Appends newly irreversible blocks, which must be the bottom of the executed path; returns what is wrong, if anything. */
  append(blocks: readonly SyncBlock<ModelBlock>[]): string | undefined {
    for (const { block } of blocks) {
      const previous = this.committedHead ?? PRE_GENESIS;
      if (block.num !== previous.num + 1 || block.previous !== previous.id) {
        return `committed block ${block.num} ${block.id} does not follow committed block ${previous.num} ${previous.id}`;
      }
      if (this.executed[0]?.id !== block.id) return `committed block ${block.num} ${block.id} was never executed on this state`;
      this.executed.shift();
      this.log.push(block);
    }
    return undefined;
  }
}
