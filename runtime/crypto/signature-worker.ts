import { Worker } from 'node:worker_threads';
import { packChecks, type SignatureCheck } from './signature-batch.js';
import type { BatchRequest, CheckVerdict } from './signature-worker-thread.js';

interface QueuedCheck {
  readonly check: SignatureCheck;
  readonly resolve: (valid: boolean) => void;
  readonly reject: (err: Error) => void;
}

/**
 * Checks transaction signatures on one worker thread, off the chain thread. The checks asked
 * for during one turn of the event loop go together at its end, as one message (each is
 * answered as soon as it is verified): waking a
 * thread costs the waker several µs, and node:crypto's own asynchronous verify woke a
 * threadpool thread per check for about 14 µs of the chain thread's time each. The worker is
 * started on first use and holds the process open only while checks are outstanding; if it
 * dies, what it held fails and the next check starts a new one.
 */
export class SignatureWorker {
  private worker: Worker | undefined;
  private queued: QueuedCheck[] = [];
  /** Batches sent and not answered, by id, with how many of their checks are unanswered. */
  private readonly inFlight = new Map<number, { readonly checks: QueuedCheck[]; unanswered: number }>();
  private nextId = 1;

  /** Whether `signature` (r||s) signs the SHA-256 of `signedData` with the key (DER SPKI). */
  verify(check: SignatureCheck): Promise<boolean> {
    if (this.queued.length === 0) setImmediate(() => this.send());
    return new Promise((resolve, reject) => this.queued.push({ check, resolve, reject }));
  }

  private send(): void {
    const batch = this.queued;
    this.queued = [];
    const id = this.nextId++;
    this.inFlight.set(id, { checks: batch, unanswered: batch.length });
    const worker = this.thread();
    worker.ref();
    const packed = packChecks(batch.map((q) => q.check));
    worker.postMessage({ id, checks: packed } satisfies BatchRequest, [packed.buffer]);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./signature-worker-thread.js', import.meta.url));
    worker.on('message', ([id, index, valid]: CheckVerdict) => {
      const batch = this.inFlight.get(id);
      if (!batch) return;
      if (--batch.unanswered === 0) {
        this.inFlight.delete(id);
        if (this.inFlight.size === 0) worker.unref();
      }
      batch.checks[index]!.resolve(valid);
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const batches = [...this.inFlight.values()];
      this.inFlight.clear();
      for (const batch of batches) for (const q of batch.checks) q.reject(err);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the signature worker exited (code ${code})`)));
    // After the listeners: adding a message listener refs the worker's port again.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/** The process's signature worker. */
export const signatureWorker = new SignatureWorker();
