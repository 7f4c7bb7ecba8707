import { parentPort } from 'node:worker_threads';
import { verifySignedData } from './ecdsa.js';
import { unpackChecks } from './signature-batch.js';
import { nameSignatureThread } from './signature-thread-name.js';

// A signature worker thread: verifies each batch it is sent and answers it with one message.

export interface BatchRequest {
  readonly id: number;
  readonly checks: Uint8Array;
}

/** The verdicts on batch `id`: 1 (valid) or 0 per check, in the batch's order. */
export interface BatchVerdicts {
  readonly id: number;
  readonly verdicts: Uint8Array;
}

nameSignatureThread();

parentPort!.on('message', ({ id, checks }: BatchRequest) => {
  const unpacked = unpackChecks(checks);
  const verdicts = new Uint8Array(unpacked.length);
  unpacked.forEach((c, i) => (verdicts[i] = verifySignedData(c.key, c.signedData, c.signature) ? 1 : 0));
  parentPort!.postMessage({ id, verdicts } satisfies BatchVerdicts, [verdicts.buffer]);
});
