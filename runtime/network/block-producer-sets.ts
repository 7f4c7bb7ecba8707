import { bytesToHex } from '../../host-api/encoding/hex.js';
import type { BlockHeader } from '../../host-api/types/index.js';
import type { JointConsensus } from '../../host-api/types/native.js';
import { startingConsensus } from '../chain/consensus.js';

// The producer sets of each block BFT sees, as psibase's BlockHeaderState has them (docs/p2p.md
// §6.1): the consensus after a block is its parent's, with joint consensus ended when the parent
// committed the change, and the block's own newConsensus as the next set. A received block is
// checked against the sets of the state it builds on, which need not be the head's: a node that
// is behind, or a block on another fork, may come from before a change of producers.

interface After {
  readonly num: number;
  readonly header: BlockHeader;
  readonly consensus: JointConsensus;
}

export class BlockProducerSets {
  private readonly after = new Map<string, After>();

  /** A block this node applied or produced: the consensus after it is the status row's. */
  applied(header: BlockHeader, id: string, consensus: JointConsensus): void {
    this.after.set(id, { num: header.blockNum, header, consensus });
  }

  /**
   * The consensus after a received block, derived from its parent's; undefined when the parent
   * is not known here (block sync does not take such a block either).
   */
  received(header: BlockHeader, id: string): JointConsensus | undefined {
    const parent = this.after.get(bytesToHex(header.previous));
    if (!parent) return undefined;
    const start = startingConsensus(parent.consensus, parent.header);
    const consensus = header.newConsensus ? { current: start.current, next: { consensus: header.newConsensus, blockNum: header.blockNum } } : start;
    this.after.set(id, { num: header.blockNum, header, consensus });
    return consensus;
  }

  /** The consensus after block `id`, if this node has seen it. */
  consensusOf(id: string): JointConsensus | undefined {
    return this.after.get(id)?.consensus;
  }

  /** Blocks below the irreversible one have no children to check any more. */
  forgetBelow(num: number): void {
    for (const [id, after] of this.after) if (after.num < num) this.after.delete(id);
  }
}
