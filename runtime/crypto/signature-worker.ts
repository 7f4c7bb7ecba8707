import { Worker } from 'node:worker_threads';
import { packChecks, type SignatureCheck } from './signature-batch.js';
import type { BatchRequest, CheckVerdict } from './signature-worker-thread.js';

interface QueuedCheck {
  readonly check: SignatureCheck;
  readonly resolve: (valid: boolean) => void;
  readonly reject: (err: Error) => void;
}

/**
 * Checks transaction signatures on one worker thread, off the chain thread. A check goes to an
 * idle worker at once; checks asked for while it works on a batch wait and go as the next
 * batch, one message, when it is done (each check is answered as soon as it is verified). So
 * an idle node answers without delay and a busy one wakes the worker once per batch, not per
 * check: node:crypto's own asynchronous verify woke a threadpool thread per check, for about
 * 14 µs of the chain thread's time each. The worker is started on first use and holds the
 * process open only while checks are outstanding; if it dies, the batch it held fails and the
 * checks after it go to a new one.
 */
export class SignatureWorker {
  private worker: Worker | undefined;
  private queued: QueuedCheck[] = [];
  /** The batch the worker is checking, with how many of its checks are unanswered. */
  private sent: { readonly id: number; readonly checks: QueuedCheck[]; unanswered: number } | undefined;
  private nextId = 1;

  /** Whether `signature` (r||s) signs the SHA-256 of `signedData` with the key (DER SPKI). */
  verify(check: SignatureCheck): Promise<boolean> {
    const verdict = new Promise<boolean>((resolve, reject) => this.queued.push({ check, resolve, reject }));
    if (!this.sent) this.send();
    return verdict;
  }

  /** Sends what is queued as one batch. */
  private send(): void {
    const batch = this.queued;
    this.queued = [];
    const id = this.nextId++;
    this.sent = { id, checks: batch, unanswered: batch.length };
    const worker = this.thread();
    worker.ref();
    const packed = packChecks(batch.map((q) => q.check));
    worker.postMessage({ id, checks: packed } satisfies BatchRequest, [packed.buffer]);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./signature-worker-thread.js', import.meta.url));
    worker.on('message', ([id, index, valid]: CheckVerdict) => {
      const batch = this.sent;
      if (batch?.id !== id) return;
      if (--batch.unanswered === 0) {
        this.sent = undefined;
        if (this.queued.length > 0) this.send();
        else worker.unref();
      }
      batch.checks[index]!.resolve(valid);
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const batch = this.sent;
      this.sent = undefined;
      for (const q of batch?.checks ?? []) q.reject(err);
      // Checks that were waiting for that batch go to a new worker.
      if (this.queued.length > 0) this.send();
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
