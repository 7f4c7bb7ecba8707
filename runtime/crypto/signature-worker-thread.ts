import { parentPort } from 'node:worker_threads';
import { verifySignedData } from './ecdsa.js';
import { unpackChecks } from './signature-batch.js';

// A signature worker thread: verifies each batch it is sent, in order, answering each check
// as soon as it is verified, so the chain thread applies the first transactions of a batch
// while the worker checks the rest (a message to a busy thread costs it little: a thread drains
// all its queued messages at once).

export interface BatchRequest {
  readonly id: number;
  readonly checks: Uint8Array;
}

/** The verdict on check `index` of batch `id`. */
export type CheckVerdict = readonly [id: number, index: number, valid: boolean];

parentPort!.on('message', ({ id, checks }: BatchRequest) => {
  unpackChecks(checks).forEach((c, index) => {
    parentPort!.postMessage([id, index, verifySignedData(c.key, c.signedData, c.signature)] satisfies CheckVerdict);
  });
});
