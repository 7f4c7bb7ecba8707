import { Worker } from 'node:worker_threads';
import type { SharedReads, ViewChanges } from '../db/shared-reads.js';
import type { ServeOutcome } from './interface.js';
import { decodeAnswers, encodeRequests } from './query-message-bytes.js';
import type { FromQueryThread, QueryAnswer, QueryRequest, QueryThreadData, ToQueryThread } from './query-messages.js';

/** Milliseconds a closing thread is given to end by itself. */
const CLOSE_WAIT_MS = 2000;

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
 * least busy, against the chain thread's state. The requests of one event-loop turn leave at its
 * end, one message per thread, after the store's changes since the last message (to every
 * thread), so a thread reads what this thread would read then: a state between each request's
 * arrival and its reply, as on this thread. A request a thread cannot finish (a subjective write, a deferred reply, the session database, a snapshot
 * already past the state) comes back before any effect and runs here from its start; so do the
 * requests of a thread that died, which a new one replaces. Threads hold the process open only
 * while they have requests.
 */
export class QueryThreads {
  readonly figures: QueryThreadFigures = { answered: 0, handedOff: 0 };
  private readonly threads: QueryThread[];
  private lastCommits: number;
  private nextId = 1;
  /** Requests of this turn, by thread; sent at its end. */
  private queued = new Map<QueryThread, QueryRequest[]>();

  constructor(private readonly reads: SharedReads, count: number) {
    this.lastCommits = reads.changes().commits;
    this.threads = Array.from({ length: count }, () => new QueryThread(this));
  }

  /** Runs serve on a thread (`rawData` the packed ServeArgs); `runHere` is the chain thread's run of the same request. */
  serve(socket: number, rawData: Uint8Array, runHere: () => ServeOutcome): Promise<ServeOutcome> {
    const thread = this.threads.reduce((a, b) => (b.load < a.load ? b : a));
    if (thread.failed) return Promise.resolve(runHere());
    if (this.queued.size === 0) setImmediate(() => this.flush());
    const id = this.nextId++;
    let requests = this.queued.get(thread);
    if (!requests) this.queued.set(thread, (requests = []));
    requests.push({ id, socket, rawData });
    return new Promise((resolve) => thread.expect(id, { resolve, runHere }));
  }

  /** Stops the threads; what they were running runs here. */
  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }

  /** Where a new thread starts: the store's uncommitted writes as they are now. */
  startData(): QueryThreadData {
    return { location: this.reads.location, view: this.reads.everything() };
  }

  /** Sends this turn's requests, each thread its own, after the changes every thread must see first. */
  private flush(): void {
    const queued = this.queued;
    this.queued = new Map();
    const view = this.changes();
    for (const thread of this.threads) {
      const requests = queued.get(thread) ?? [];
      if (view || requests.length > 0) thread.post(view, requests);
    }
  }

  /** The store's changes since the last message, or undefined when there are none. */
  private changes(): ViewChanges | undefined {
    const view = this.reads.changes();
    if (view.commits === this.lastCommits && !view.chain.cleared && !view.subjective.cleared && view.chain.rows.length === 0 && view.subjective.rows.length === 0) return undefined;
    this.lastCommits = view.commits;
    return view;
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

  /** A request queued for this thread: how it is answered. */
  expect(id: number, pending: Pending): void {
    this.pending.set(id, pending);
    if (this.pending.size === 1) this.worker.ref();
  }

  post(view: ViewChanges | undefined, requests: readonly QueryRequest[]): void {
    const message = encodeRequests(view, requests) satisfies ToQueryThread;
    this.worker.postMessage(message, [message]);
  }

  /**
   * Asks the thread to end and waits for it, CLOSE_WAIT_MS at most (a worker terminated while
   * it still loads its modules may never report its end); what it had runs here.
   */
  async close(): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    const ended = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    worker.postMessage({ close: true } satisfies ToQueryThread);
    if (!(await ended)) void worker.terminate();
    this.runPendingHere();
  }

  private start(): Worker {
    const worker = new Worker(new URL('./query-thread.js', import.meta.url), { workerData: this.pool.startData() });
    worker.unref();
    worker.on('message', (message: FromQueryThread) => {
      for (const answer of decodeAnswers(message)) this.answered(answer);
    });
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

  private answered(message: QueryAnswer): void {
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
