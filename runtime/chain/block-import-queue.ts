import type { SignedBlock } from '../../host-api/types/index.js';
import type { Store } from '../db/store.js';
import type { Engine } from '../wasm/engine.js';
import type { Executor } from '../wasm/executor.js';
import type { ClosedBlock } from './block-builder.js';
import type { BlockProduction } from './block-production.js';
import { readStatus } from './chain-state.js';
import { ChainError } from './errors.js';
import type { Finality } from './finality.js';
import type { PushPipeline } from './push-pipeline.js';
import { replayBlock, verifyReceivedBlock } from './received-block.js';
import type { TransactionProcessor } from './transaction-processor.js';

/**
 * The import queue (docs/p2p.md §3.4, docs/chain.md §1.6): received blocks are applied, and the
 * head taken back for a fork switch, one after another in the order they were asked for.
 */
export class BlockImportQueue {
  /** The received blocks being applied, one after another, in the order they came. */
  private applying: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly executor: Executor,
    private readonly processor: TransactionProcessor,
    private readonly engine: Engine,
    private readonly production: BlockProduction,
    private readonly finality: Finality,
    private readonly pushes: PushPipeline,
    /** A received block is committed. */
    private readonly committed: (closed: ClosedBlock) => void,
  ) {}

  /** Applies `signed` once every block asked for before it is in or refused (chain.ts, Chain.applyBlock). */
  applyBlock(signed: SignedBlock): Promise<ClosedBlock> {
    return this.queued(() => this.applyNext(signed));
  }

  /** Takes the head back to block `blockNum`, queued with applyBlock (chain.ts, Chain.revertTo). */
  revertTo(blockNum: number): Promise<void> {
    return this.queued(() => this.revertNow(blockNum));
  }

  private queued<T>(run: () => T | Promise<T>): Promise<T> {
    const done = this.applying.then(run);
    this.applying = done.catch(() => undefined);
    return done;
  }

  private async applyNext(signed: SignedBlock): Promise<ClosedBlock> {
    const { production } = this;
    production.holdHead();
    try {
      const verified = await verifyReceivedBlock(this.store, this.executor, this.processor, signed);
      production.releaseHead();
      // Checked, it goes on the head: a block of our own open on that head goes first. Only a
      // block that checks out does that, so a peer's bad blocks cannot keep a leader from producing.
      production.dropOpenBlock();
      const replayed = replayBlock(this.store, this.executor, this.processor, this.engine, verified, this.finality.commit);
      // Only blocks made elsewhere hold transactions this node passed on or holds (it does not produce).
      this.pushes.received(replayed);
      this.committed(replayed);
      return replayed;
    } finally {
      production.releaseHead();
      production.doWhatWaited();
    }
  }

  private revertNow(blockNum: number): void {
    const head = readStatus(this.store)?.head?.header.blockNum ?? 0;
    if (blockNum >= head) return;
    // Records form a run ending at the head (those up to the irreversible block are dropped).
    const reversible = this.store.reversibleBlocks();
    const first = reversible[0];
    if (first === undefined || first > blockNum + 1 || reversible[reversible.length - 1] !== head) {
      throw new ChainError('CHAIN_IRREVERSIBLE', `cannot revert to block ${blockNum}: blocks up to ${first === undefined ? head : first - 1} are irreversible`);
    }
    this.production.dropOpenBlock();
    for (let n = head; n > blockNum; n--) {
      this.store.revertBlock(n);
      this.finality.gone(n);
    }
  }
}
