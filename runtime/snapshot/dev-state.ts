// A development chain's state file (`tsibase dev --state`, docs/administration.md §4.3b): the
// head's state in psibase's snapshot file format (docs/p2p.md §7.3), with the head block's
// header and no producer signatures. It is the developer's own file, written when the chain
// stops and loaded into an empty node directory when it starts: the load checks the rows against
// the checksum and the head against its header (apply-snapshot.ts, applyDevState), not the
// producers' proofs a network's snapshot needs, so `tsibase load-snapshot` refuses such a file.

import { readFileSync } from 'node:fs';
import { replaceFile } from '../fs/atomic-file.js';
import { readStatus } from '../chain/chain-state.js';
import { rowsOf } from '../db/prefix-rows.js';
import { applyDevState, type LoadedSnapshot } from './apply-snapshot.js';
import { headerRows, lightHeaderBlocks } from './light-headers.js';
import { withNodeStore } from './load-snapshot.js';
import { SnapshotError } from './snapshot-error.js';
import { encodeRow, fileDbOf, fileHeader, footerRows, parseSnapshot } from './snapshot-file.js';
import { StateMerkle, STATE_DBS } from './state-rows.js';

/** Writes the state at the head of the node in `nodeDir` (stopped) to `file`, whole or not at all. */
export function writeDevState(nodeDir: string, file: string): Promise<LoadedSnapshot> {
  return withNodeStore(nodeDir, (store) => {
    const status = readStatus(store);
    if (!status?.head) throw new SnapshotError('SNAPSHOT_HEAD', `the node in ${nodeDir} has no chain to write`);
    const { blockNum } = status.head.header;
    const merkle = new StateMerkle();
    const parts: Uint8Array[] = [fileHeader()];
    for (const db of STATE_DBS) {
      for (const { key, value } of rowsOf(store, db)) {
        merkle.push(db, key, value);
        parts.push(encodeRow(fileDbOf(db), key, value));
      }
    }
    const [head] = lightHeaderBlocks(store, { headers: [blockNum], proven: [blockNum] });
    for (const { db, key, value } of headerRows(head!)) parts.push(encodeRow(fileDbOf(db), key, value));
    parts.push(...footerRows(merkle.checksum(), []));
    store.abort();
    replaceFile(file, Buffer.concat(parts));
    return { blockNum, blockId: status.head.blockId };
  });
}

/** Loads a state file written by writeDevState into the empty node directory `nodeDir`. */
export function loadDevState(nodeDir: string, file: string): Promise<LoadedSnapshot> {
  const content = parseSnapshot(readFileSync(file));
  return withNodeStore(nodeDir, (store) => applyDevState(store, content));
}
