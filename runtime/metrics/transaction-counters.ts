// Transaction statistics of the perf report, counted by the chain as transactions come and go.
// Transactions seen only in blocks are not counted (docs/serving.md §2).

/** The fields of the report's `transactions`, in report order. */
export const TRANSACTION_FIELDS = ['total', 'unprocessed', 'succeeded', 'failed', 'skipped'] as const;

export interface TransactionFigures {
  /** Received (pushed to this node). */
  readonly total: number;
  /** Waiting in the queue now. */
  readonly unprocessed: number;
  readonly succeeded: number;
  readonly failed: number;
  /** Dropped unprocessed: the node flushed its queue while not accepting transactions. */
  readonly skipped: number;
}

/**
 * Counts one by one in this process, so plain numbers stay exact (2^53 increments are out of
 * reach). The queue depth is asked for, not counted, so it cannot drift from the queue.
 */
export class TransactionCounters {
  private receivedCount = 0;
  private succeededCount = 0;
  private failedCount = 0;
  private skippedCount = 0;

  constructor(private readonly queueDepth: () => number) {}

  received(): void {
    this.receivedCount++;
  }

  succeeded(): void {
    this.succeededCount++;
  }

  failed(): void {
    this.failedCount++;
  }

  skipped(): void {
    this.skippedCount++;
  }

  figures(): TransactionFigures {
    return {
      total: this.receivedCount,
      unprocessed: this.queueDepth(),
      succeeded: this.succeededCount,
      failed: this.failedCount,
      skipped: this.skippedCount,
    };
  }
}
