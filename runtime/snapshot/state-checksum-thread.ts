// The worker thread of state-checksum.ts: the KvMerkle roots of encoded state rows, posted back.
import { parentPort, workerData } from 'node:worker_threads';
import { encodedRows, storeDbOf } from './snapshot-file.js';
import { StateMerkle } from './state-rows.js';
import type { ChecksumOutcome } from './state-checksum.js';

function checksum(rows: Uint8Array): ChecksumOutcome {
  const merkle = new StateMerkle();
  for (const { fileDb, key, value } of encodedRows(rows)) {
    const db = storeDbOf(fileDb)!;
    try {
      merkle.push(db, key, value);
    } catch (err) {
      return { refused: `database ${db}: ${(err as Error).message}` };
    }
  }
  return { checksum: merkle.checksum() };
}

parentPort!.postMessage(checksum((workerData as { rows: Uint8Array }).rows));
