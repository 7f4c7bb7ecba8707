// load-snapshot (docs/p2p.md §7.3): a snapshot file into a node directory's database, which is
// created if needed. A refused file leaves the database as it was; a node directory in use by
// another process (runtime/fs/directory-lock.ts) is refused before anything is read.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LmdbStore } from '../db/lmdb-store.js';
import { DirectoryLock } from '../fs/directory-lock.js';
import { Engine } from '../wasm/engine.js';
import { defaultAdmittedCodeDir } from '../wasm/admitted-code-cache.js';
import { Executor } from '../wasm/executor.js';
import { claimVerifierOf } from '../chain/claim-verdicts.js';
import { applySnapshotChecksummedAside, type LoadedSnapshot } from './apply-snapshot.js';
import { KeptStates } from './kept-states.js';
import { parseSnapshot } from './snapshot-file.js';
import { fileWeakThreshold } from './state-signatures.js';

/** Loads snapshot file bytes (plain or gzip) into the database of `nodeDir`; `report` hears each step as it begins. */
export function loadSnapshot(nodeDir: string, file: Uint8Array, report: (step: string) => void = () => {}): Promise<LoadedSnapshot> {
  return withNodeStore(nodeDir, (store) => {
    report(`reading the snapshot file (${file.length} bytes)`);
    const content = parseSnapshot(file);
    return applySnapshotChecksummedAside(store, claimVerifierOf(new Executor(store, new Engine({ admittedCodeDir: defaultAdmittedCodeDir() }))), KeptStates.of(nodeDir), content, fileWeakThreshold, report);
  });
}

/** Runs `body` on the store of `nodeDir` (created if needed), holding the directory's lock; the store is closed after. */
export async function withNodeStore<T>(nodeDir: string, body: (store: LmdbStore) => T | Promise<T>): Promise<T> {
  mkdirSync(nodeDir, { recursive: true });
  const lock = DirectoryLock.take(nodeDir);
  try {
    const store = LmdbStore.open(join(nodeDir, 'db'));
    try {
      return await body(store);
    } finally {
      await store.close();
    }
  } finally {
    lock.release();
  }
}
