// A snapshot file's state checksum computed on a worker thread while the loading thread writes
// the rows into the store (load-snapshot.ts): the hashing (a leaf and a node per row) and the
// writes take about as long, and need not wait for each other.

import { Worker } from 'node:worker_threads';
import type { StateChecksum } from '../../host-api/types/native.js';
import { encodeRows, type FileRow } from './snapshot-file.js';
import { SnapshotError } from './snapshot-error.js';

/** What the thread answers: the roots, or why the rows were refused (out of key order). */
export type ChecksumOutcome = { readonly checksum: StateChecksum } | { readonly refused: string };

export interface PendingChecksum {
  /** The state rows as a snapshot file encodes them (a kept state holds them so). */
  readonly rows: Uint8Array;
  /** The checksum; rejects with SNAPSHOT_BAD_ROW for rows out of key order. */
  readonly result: Promise<StateChecksum>;
}

/** Starts the checksum of `state` (rows in the order of a snapshot) on a thread of its own. */
export function startStateChecksum(state: readonly FileRow[]): PendingChecksum {
  const encoded = encodeRows(state);
  // Shared with the thread: the rows are not copied into its message.
  const rows = new Uint8Array(new SharedArrayBuffer(encoded.length));
  rows.set(encoded);
  const worker = new Worker(new URL('./state-checksum-thread.js', import.meta.url), { workerData: { rows } });
  const result = new Promise<StateChecksum>((resolve, reject) => {
    worker.once('message', (outcome: ChecksumOutcome) => {
      if ('refused' in outcome) reject(new SnapshotError('SNAPSHOT_BAD_ROW', outcome.refused));
      else resolve(outcome.checksum);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new SnapshotError('SNAPSHOT_CHECKSUM', `the checksum thread exited (${code}) without an answer`)));
  });
  return { rows, result };
}
