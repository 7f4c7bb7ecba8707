// load-snapshot (docs/p2p.md §7.3): a snapshot file into a node directory's database, which is
// created if needed. A refused file leaves the database as it was.

import { join } from 'node:path';
import { LmdbStore } from '../db/lmdb-store.js';
import { Engine } from '../wasm/engine.js';
import { Executor } from '../wasm/executor.js';
import { applySnapshot, type LoadedSnapshot } from './apply-snapshot.js';
import { KeptStates } from './kept-states.js';
import { parseSnapshot } from './snapshot-file.js';
import { fileWeakThreshold } from './state-signatures.js';

/** Loads snapshot file bytes (plain or gzip) into the database of `nodeDir`. */
export async function loadSnapshot(nodeDir: string, file: Uint8Array): Promise<LoadedSnapshot> {
  const content = parseSnapshot(file);
  const store = LmdbStore.open(join(nodeDir, 'db'));
  try {
    return applySnapshot(store, new Executor(store, new Engine()), KeptStates.of(nodeDir), content, fileWeakThreshold);
  } finally {
    await store.close();
  }
}
