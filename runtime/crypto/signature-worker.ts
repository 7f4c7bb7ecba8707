import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { packChecks, type SignatureCheck } from './signature-batch.js';
import type { BatchRequest, CheckVerdict } from './signature-worker-thread.js';

interface QueuedCheck {
  readonly check: SignatureCheck;
  readonly resolve: (valid: boolean) => void;
  readonly reject: (err: Error) => void;
}

/** Threads that check signatures: two where there are cores for them, so one batch need not wait for another. */
const THREADS = Math.max(1, Math.min(2, availableParallelism()));

/**
 * Checks transaction signatures on worker threads, off the chain thread. A check goes to an
 * idle thread at once; checks asked for while every thread works on a batch wait and go as the
 * next batch, one message, to the first thread done (each check is answered as soon as it is
 * verified). So an idle node answers without delay and a busy one wakes a thread once per
 * batch, not per check: node:crypto's own asynchronous verify woke a threadpool thread per
 * check, for about 14 µs of the chain thread's time each. Threads start on first use and hold
 * the process open only while they have checks; if one dies, its batch fails and the next batch
 * starts a new one.
 */
export class SignatureWorker {
  private queued: QueuedCheck[] = [];
  private readonly threads: VerifierThread[] = Array.from({ length: THREADS }, () => new VerifierThread(this));

  /** Whether `signature` (r||s) signs the SHA-256 of `signedData` with the key (DER SPKI). */
  verify(check: SignatureCheck): Promise<boolean> {
    const verdict = new Promise<boolean>((resolve, reject) => this.queued.push({ check, resolve, reject }));
    const idle = this.threads.find((thread) => thread.idle);
    if (idle) this.next(idle);
    return verdict;
  }

  /** Hands what is queued to `thread` (now idle) as one batch; false when nothing is. */
  next(thread: VerifierThread): boolean {
    if (this.queued.length === 0) return false;
    const batch = this.queued;
    this.queued = [];
    thread.send(batch);
    return true;
  }
}

/** One worker thread and the batch it is checking. */
class VerifierThread {
  private worker: Worker | undefined;
  private batch: { readonly id: number; readonly checks: QueuedCheck[]; unanswered: number } | undefined;
  private nextId = 1;

  constructor(private readonly pool: SignatureWorker) {}

  get idle(): boolean {
    return this.batch === undefined;
  }

  send(checks: QueuedCheck[]): void {
    const id = this.nextId++;
    this.batch = { id, checks, unanswered: checks.length };
    const worker = this.thread();
    worker.ref();
    const packed = packChecks(checks.map((q) => q.check));
    worker.postMessage({ id, checks: packed } satisfies BatchRequest, [packed.buffer]);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./signature-worker-thread.js', import.meta.url));
    worker.on('message', ([id, index, valid]: CheckVerdict) => {
      const batch = this.batch;
      if (batch?.id !== id) return;
      if (--batch.unanswered === 0) {
        this.batch = undefined;
        if (!this.pool.next(this)) worker.unref();
      }
      batch.checks[index]!.resolve(valid);
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const batch = this.batch;
      this.batch = undefined;
      for (const q of batch?.checks ?? []) q.reject(err);
      // Checks waiting for a thread go to a new one.
      this.pool.next(this);
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
