import { Worker } from 'node:worker_threads';
import type { SharedReads } from '../db/shared-reads.js';
import type { ServeOutcome } from './interface.js';
import type { FromQueryThread, QueryThreadData, ToQueryThread } from './query-messages.js';

/** A request on a query thread: how to answer it, and how to run it here instead. */
interface Pending {
  readonly resolve: (outcome: ServeOutcome) => void;
  readonly runHere: () => ServeOutcome;
}

/** What the query threads did: requests answered there, and those the chain thread ran instead. */
export interface QueryThreadFigures {
  answered: number;
  handedOff: number;
}

/**
 * The query threads (docs/serving.md §10): the http service's serve runs on one of them, the
 * least busy, against the chain thread's state. Before each request the store's changes since
 * the one before go to every thread, so a thread reads what this thread would read now. A request
 * a thread cannot finish (a subjective write, a deferred reply, the session database, a snapshot
 * already past the state) comes back before any effect and runs here from its start; so do the
 * requests of a thread that died, which a new one replaces. Threads hold the process open only
 * while they have requests.
 */
export class QueryThreads {
  readonly figures: QueryThreadFigures = { answered: 0, handedOff: 0 };
  private readonly threads: QueryThread[];
  private lastCommits: number;
  private nextId = 1;

  constructor(private readonly reads: SharedReads, count: number) {
    this.lastCommits = reads.changes().commits;
    this.threads = Array.from({ length: count }, () => new QueryThread(this));
  }

  /** Runs serve on a thread (`rawData` the packed ServeArgs); `runHere` is the chain thread's run of the same request. */
  serve(socket: number, rawData: Uint8Array, runHere: () => ServeOutcome): Promise<ServeOutcome> {
    this.publishChanges();
    const thread = this.threads.reduce((a, b) => (b.load < a.load ? b : a));
    if (thread.failed) return Promise.resolve(runHere());
    return new Promise((resolve) => thread.send({ kind: 'serve', id: this.nextId++, socket, rawData }, { resolve, runHere }));
  }

  /** Stops the threads; what they were running runs here. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }

  /** Where a new thread starts: the store's uncommitted writes as they are now. */
  startData(): QueryThreadData {
    return { location: this.reads.location, view: this.reads.everything() };
  }

  private publishChanges(): void {
    const view = this.reads.changes();
    if (view.commits === this.lastCommits && !view.chain.cleared && !view.subjective.cleared && view.chain.rows.length === 0 && view.subjective.rows.length === 0) return;
    this.lastCommits = view.commits;
    for (const thread of this.threads) thread.post({ kind: 'view', view });
  }
}

/** One worker thread and the requests it has. */
class QueryThread {
  private worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private closing = false;
  /** Whether the running worker has answered anything: one that dies before it did is not started again. */
  private answeredOnce = false;
  /** The thread could not start: its requests run on the chain thread. */
  failed = false;

  constructor(private readonly pool: QueryThreads) {
    this.worker = this.start();
  }

  get load(): number {
    return this.failed ? Infinity : this.pending.size;
  }

  send(message: ToQueryThread & { kind: 'serve' }, pending: Pending): void {
    this.pending.set(message.id, pending);
    if (this.pending.size === 1) this.worker.ref();
    this.post(message);
  }

  post(message: ToQueryThread): void {
    this.worker.postMessage(message);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
    this.runPendingHere();
  }

  private start(): Worker {
    const worker = new Worker(new URL('./query-thread.js', import.meta.url), { workerData: this.pool.startData() });
    worker.unref();
    worker.on('message', (message: FromQueryThread) => this.answered(message));
    // A thread that fails is replaced; its requests run here, in the order they came.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.failed = !this.answeredOnce;
      if (!this.closing && !this.failed) {
        this.answeredOnce = false;
        this.worker = this.start();
      }
      this.runPendingHere();
    });
    return worker;
  }

  private answered(message: FromQueryThread): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.answeredOnce = true;
    this.pending.delete(message.id);
    if (this.pending.size === 0) this.worker.unref();
    if ('handedOff' in message) {
      this.pool.figures.handedOff++;
      return pending.resolve(pending.runHere());
    }
    this.pool.figures.answered++;
    pending.resolve({ error: message.error === null ? null : new Error(message.error), sockets: message.sockets });
  }

  private runPendingHere(): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const { resolve, runHere } of pending) resolve(runHere());
  }
}
