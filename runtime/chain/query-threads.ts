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
 * least busy, against the chain thread's state. The requests of one event-loop turn are taken at
 * its end with the store's changes since then (for every thread), so a thread reads what this
 * thread would read then: a state between each request's arrival and its reply, as on this
 * thread. A thread has one message at a time: what is taken while it works on one leaves, all in
 * one message, when its answers come back (a message costs both threads more than a request). A request a thread cannot finish (a subjective write, a deferred reply, the session database, a snapshot
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

  /** Hands each thread this turn's requests, its own, after the changes every thread must see first. */
  private flush(): void {
    const queued = this.queued;
    this.queued = new Map();
    const view = this.changes();
    for (const thread of this.threads) thread.send(view, queued.get(thread) ?? []);
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
  /** A message is on the thread and its answers have not come back. */
  private inFlight = false;
  /** What waits for the message in flight to be answered: changes in their order, then requests. */
  private waitingViews: ViewChanges[] = [];
  private waitingRequests: QueryRequest[] = [];

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

  /** Sends changes and requests now, or after the message in flight is answered. */
  send(view: ViewChanges | undefined, requests: readonly QueryRequest[]): void {
    if (view) this.waitingViews.push(view);
    for (const request of requests) this.waitingRequests.push(request);
    if (!this.inFlight) this.post();
  }

  private post(): void {
    if (this.waitingViews.length === 0 && this.waitingRequests.length === 0) return;
    const message = encodeRequests(this.waitingViews, this.waitingRequests) satisfies ToQueryThread;
    this.waitingViews = [];
    this.waitingRequests = [];
    this.inFlight = true;
    this.worker.postMessage(message, [message]);
  }

  /** A new worker starts from the store as it is now, which holds every change waiting; its requests run here. */
  private forgetWaiting(): void {
    this.inFlight = false;
    this.waitingViews = [];
    this.waitingRequests = [];
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
      // What waited leaves first: the thread works on it while these answers are written.
      this.inFlight = false;
      this.post();
      for (const answer of decodeAnswers(message)) this.answered(answer);
    });
    // A thread that fails is replaced; its requests run here, in the order they came.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.forgetWaiting();
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
