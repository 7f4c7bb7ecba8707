import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { packChecks, type SignatureCheck } from './signature-batch.js';
import type { BatchRequest, BatchVerdicts } from './signature-worker-thread.js';

interface QueuedCheck {
  readonly check: SignatureCheck;
  readonly resolve: (valid: boolean) => void;
  readonly reject: (err: Error) => void;
}

/** Threads that check signatures: two where there are cores for them, so one batch need not wait for another. */
const THREADS = Math.max(1, Math.min(2, availableParallelism()));

/**
 * Checks transaction signatures on worker threads, off the chain thread. The checks asked for in
 * one event-loop turn are shared out at its end among the idle threads, one batch (one message)
 * each; checks asked for while every thread is busy wait for the first thread done. Each batch
 * comes back as one message of verdicts. A message costs the chain thread about as much as
 * node:crypto's own asynchronous verify did per check (it woke a threadpool thread for each), so
 * messages are per turn and per batch, never per check. Threads start on first use and hold the
 * process open only while they have checks; if one dies, its batch fails and the next batch
 * starts a new one.
 */
export class SignatureWorker {
  private queued: QueuedCheck[] = [];
  private readonly threads: VerifierThread[] = Array.from({ length: THREADS }, () => new VerifierThread(this));

  /** Whether `signature` (r||s) signs the SHA-256 of `signedData` with the key (DER SPKI). */
  verify(check: SignatureCheck): Promise<boolean> {
    // A queue that holds checks already has a dispatch coming: at this turn's end, or when a thread is done.
    if (this.queued.length === 0) setImmediate(() => this.dispatch());
    return new Promise<boolean>((resolve, reject) => this.queued.push({ check, resolve, reject }));
  }

  /** Shares what is queued among the idle threads, a batch each. */
  dispatch(): void {
    if (this.queued.length === 0) return;
    const idle = this.threads.filter((thread) => thread.idle);
    if (idle.length === 0) return;
    const queued = this.queued;
    this.queued = [];
    const share = Math.ceil(queued.length / idle.length);
    for (let i = 0; i * share < queued.length; i++) idle[i]!.send(queued.slice(i * share, (i + 1) * share));
  }
}

/** One worker thread and the batch it is checking. */
class VerifierThread {
  private worker: Worker | undefined;
  private batch: { readonly id: number; readonly checks: QueuedCheck[] } | undefined;
  private nextId = 1;

  constructor(private readonly pool: SignatureWorker) {}

  get idle(): boolean {
    return this.batch === undefined;
  }

  send(checks: QueuedCheck[]): void {
    const id = this.nextId++;
    this.batch = { id, checks };
    const worker = this.thread();
    worker.ref();
    const packed = packChecks(checks.map((q) => q.check));
    worker.postMessage({ id, checks: packed } satisfies BatchRequest, [packed.buffer]);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./signature-worker-thread.js', import.meta.url));
    worker.on('message', ({ id, verdicts }: BatchVerdicts) => {
      const batch = this.batch;
      if (batch?.id !== id) return;
      this.batch = undefined;
      this.pool.dispatch();
      if (this.idle) worker.unref();
      batch.checks.forEach((q, i) => q.resolve(verdicts[i] === 1));
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const batch = this.batch;
      this.batch = undefined;
      for (const q of batch?.checks ?? []) q.reject(err);
      // Checks waiting for a thread go to a new one.
      this.pool.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`a signature worker exited (code ${code})`)));
    // After the listeners: adding a message listener refs the worker's port again.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/** The process's signature worker. */
export const signatureWorker = new SignatureWorker();
