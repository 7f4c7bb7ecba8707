import { HostError } from './errors.js';

/**
 * The return values of one transaction's calls that change the run mode (docs/host-abi.md §6,
 * the block's `subjectiveData`): where the transaction runs first (the producer, or a node trying
 * it) each callee runs and its value is recorded in call order; where a block is replayed the
 * values are the block's, taken in the same order, and every one must be taken.
 */
export class RunModeResults {
  /** What the callees returned here, in call order (the block's subjectiveData when producing). */
  readonly recorded: Uint8Array[] = [];
  private next = 0;

  private constructor(private readonly replayed: readonly Uint8Array[] | undefined) {}

  /** A transaction run first: the callees run, their values are recorded. */
  static recording(): RunModeResults {
    return new RunModeResults(undefined);
  }

  /** A transaction of a received block: its recorded values stand in for the callees'. */
  static replaying(values: readonly Uint8Array[]): RunModeResults {
    return new RunModeResults(values);
  }

  get isReplaying(): boolean {
    return this.replayed !== undefined;
  }

  record(value: Uint8Array): void {
    this.recorded.push(value);
  }

  /** The block's next value; a block that carries too few fails the transaction. */
  take(): Uint8Array {
    const value = this.replayed?.[this.next];
    if (value === undefined) throw new HostError('HOST_BAD_ARGUMENT', 'missing subjective data: the block carries fewer results than the transaction\'s run-mode calls');
    this.next++;
    return value;
  }

  /** Throws unless every value the block carries was taken. */
  checkAllTaken(): void {
    const count = this.replayed?.length ?? 0;
    if (this.next < count) {
      throw new HostError('HOST_BAD_ARGUMENT', `transaction has unread subjective data: the block carries ${count} results, its run-mode calls took ${this.next}`);
    }
  }
}
