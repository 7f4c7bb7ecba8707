// Child process of durability.test.ts, killed with SIGKILL by it. `once <dir>`: commit one block,
// say "committed", wait to be killed. `blocks <dir>`: commit block after block forever, each
// rewriting every key with the block number; print "commit N" before each commit and "N" once
// it returned.

import { DbId } from '../../../../host-api/abi/databases.js';
import { LmdbStore } from '../../../../runtime/db/lmdb-store.js';

export const KEYS_PER_BLOCK = 2000;
export const VALUE_SIZE = 1024;

export function blockKey(i: number): Uint8Array {
  return Uint8Array.of(0x10, i >> 8, i & 0xff);
}

export const headKey = Uint8Array.of(0x01);

// Only as the spawned child: when a test imports the constants above, argv is uvu's.
const [mode, dir] = process.argv.slice(2);
if ((mode === 'once' || mode === 'blocks') && dir) {
  const store = LmdbStore.open(dir);
  if (mode === 'once') {
    store.put(DbId.service, Uint8Array.of(1, 2, 3), Uint8Array.of(4, 5, 6));
    store.putSequential(DbId.historyEvent, Uint8Array.of(7));
    store.commit();
    process.stdout.write('committed\n');
    setInterval(() => {}, 1000);
  } else if (mode === 'blocks') {
    const head = store.get(DbId.service, headKey);
    let block = head ? Buffer.from(head).readUInt32BE(0) : 0;
    const value = Buffer.alloc(VALUE_SIZE);
    for (;;) {
      block++;
      value.writeUInt32BE(block, 0);
      for (let i = 0; i < KEYS_PER_BLOCK; i++) store.put(DbId.service, blockKey(i), value);
      store.put(DbId.service, headKey, value.subarray(0, 4));
      process.stdout.write(`commit ${block}\n`);
      store.commit();
      // Pipe writes are synchronous on Linux: once printed, the commit has returned.
      process.stdout.write(`${block}\n`);
    }
  }
}
