import type { BlockHeader } from '../../host-api/types/index.js';
import type { Store } from '../db/store.js';
import { readLogStart } from './block-log.js';
import { readStatus } from './chain-state.js';
import { irreversibleAt } from './consensus.js';
import { ChainError } from './errors.js';
import type { FinalWaiter } from './forwarded-transactions.js';

/**
 * What is irreversible on this chain, and the pushes waiting for their block to be (docs/p2p.md
 * §6.3): consensus's commit, which only moves on, and the `final` waiters it answers, or tells
 * that their block was reverted or aborted.
 */
export class Finality {
  /** The irreversible block consensus has established here (a leader's commit index). */
  private consensusCommit: number;
  private waiters: FinalWaiter[] = [];

  constructor(private readonly store: Store) {
    // A loaded snapshot's block is irreversible (its producers signed it, docs/p2p.md §7.3), and
    // so is every block whose undo record was dropped before a restart.
    this.consensusCommit = Math.max(readLogStart(store) ?? 0, this.withoutUndo());
  }

  /** Consensus's commit: the commitNum this node's next block closes with. */
  get commit(): number {
    return this.consensusCommit;
  }

  /**
   * The irreversible block with `head`, the status row's head, as the head: consensus's commit, or
   * its header's commitNum if further where that counts (not under BFT, docs/p2p.md §5.4).
   */
  irreversibleAt(head: BlockHeader, status = readStatus(this.store)): number {
    return status ? irreversibleAt(status.consensus, head, this.consensusCommit) : Math.min(head.blockNum, this.consensusCommit);
  }

  /**
   * Consensus made the blocks up to `num` irreversible here (a leader's commit index, docs/p2p.md
   * §4 step 9): `final` waiters for them are answered.
   */
  commitTo(num: number): void {
    if (num <= this.consensusCommit) return;
    this.consensusCommit = num;
    const head = readStatus(this.store)?.head?.header;
    if (head) this.answer(this.irreversibleAt(head));
  }

  /** A block is committed with `header` as the head: the waiters its commitNum makes irreversible are answered. */
  committed(header: BlockHeader): void {
    // Irreversibility never goes back, also when BFT takes over from a CFT set whose headers made it.
    this.consensusCommit = Math.max(this.consensusCommit, this.irreversibleAt(header));
    this.answer(this.consensusCommit);
  }

  /** A snapshot's block became the head (docs/p2p.md §7.4): it is irreversible. */
  snapshotLoaded(): void {
    this.consensusCommit = readLogStart(this.store) ?? 0;
  }

  /** Waits for block `blockNum` to be irreversible ('final'), or to be in no chain any more ('reverted'). */
  untilFinal(blockNum: number): Promise<'final' | 'reverted'> {
    // Instant production makes a block final as it closes, before its pushes ask.
    if (blockNum <= this.consensusCommit) return Promise.resolve('final');
    return new Promise((resolve, reject) => this.waiters.push({ blockNum, resolve: () => resolve('final'), reverted: () => resolve('reverted'), reject }));
  }

  /** Waiters of pushes passed on to the producers, whose block came (forwarded-transactions.ts). */
  await(waiters: readonly FinalWaiter[]): void {
    this.waiters.push(...waiters);
  }

  /** Block `blockNum` of this node is in no chain any more: the pushes waiting for it to be final are told. */
  gone(blockNum: number): void {
    for (const w of this.waiters.filter((f) => f.blockNum === blockNum)) w.reverted();
    this.waiters = this.waiters.filter((f) => f.blockNum !== blockNum);
  }

  /**
   * Block `blockNum` failed to close (an objective onBlock callback failed, or it could not be
   * signed) and its transactions went with it: the pushes waiting for it to be final are refused
   * (docs/system-services.md "Blocks").
   */
  aborted(blockNum: number, err: Error): void {
    const lost = this.waiters.filter((w) => w.blockNum === blockNum);
    if (lost.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.blockNum !== blockNum);
    const refusal = new ChainError('BLOCK_FAILED', `block ${blockNum} was aborted with its transactions: ${err.message}`);
    for (const w of lost) w.reject(refusal);
  }

  /** Answers the `final` waiters of blocks up to `irreversible`. */
  private answer(irreversible: number): void {
    const final = this.waiters.filter((w) => w.blockNum <= irreversible);
    this.waiters = this.waiters.filter((w) => w.blockNum > irreversible);
    for (const w of final) w.resolve();
  }

  /** The blocks the store keeps no undo records for any more: those below the first reversible one, or all. */
  private withoutUndo(): number {
    const [first] = this.store.reversibleBlocks();
    return first !== undefined ? first - 1 : readStatus(this.store)?.head?.header.blockNum ?? 0;
  }
}
