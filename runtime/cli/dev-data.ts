import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TsibaseError } from '../../host-api/errors.js';
import { readDevFork, writeDevFork, type DevFork } from '../node/dev-fork-file.js';
import { resetData } from './reset-data.js';

// What `tsibase dev` puts in its data before the node starts (docs/administration.md §4.3b): the
// chain of a --state file, or the state of the chain --fork names, or nothing (the node boots
// the default bundle, or goes on with the chain the data holds). The snapshot code and the HTTP
// client are loaded only for --state and --fork: a plain `tsibase dev` start does not wait on them.

/** The data options of `tsibase dev`. */
export interface DevData {
  readonly data: string;
  readonly fork: string | undefined;
  readonly state: string | undefined;
}

/** Prepares `data` as the options ask; the fork it holds then, if it holds one. */
export async function prepareDevData({ data, fork, state }: DevData): Promise<DevFork | undefined> {
  if (state !== undefined && existsSync(state)) {
    resetData(data);
    const { loadDevState } = await import('../snapshot/dev-state.js');
    const loaded = await loadDevState(data, state);
    console.log(`tsibase dev: the chain of ${state} loaded (block ${loaded.blockNum})`);
    if (fork === undefined) return undefined;
    const forked = { source: fork, blockNum: loaded.blockNum };
    writeDevFork(data, forked);
    return forked;
  }
  const held = readDevFork(data);
  if (fork === undefined || held) return held;
  if (existsSync(join(data, 'db'))) {
    throw new TsibaseError('DEV_DATA_HOLDS_CHAIN', `${data} holds a chain that is no fork: add --reset to replace it by the fork of ${fork}, or give another --data`);
  }
  const { loadSnapshot } = await import('../snapshot/load-snapshot.js');
  const loaded = await loadSnapshot(data, await snapshotOf(fork), (step) => console.log(`tsibase dev: fork: ${step}`));
  const forked = { source: fork, blockNum: loaded.blockNum };
  writeDevFork(data, forked);
  return forked;
}

/** The snapshot file a --fork names: a file, or the newest snapshot of the node at a URL (GET /native/admin/snapshot). */
async function snapshotOf(source: string): Promise<Uint8Array> {
  if (!/^https?:\/\//.test(source)) {
    if (!existsSync(source)) throw new TsibaseError('DEV_FORK_SOURCE', `--fork ${source}: no such snapshot file (or give a node's URL, http://host:port)`);
    return readFileSync(source);
  }
  const url = new URL('/native/admin/snapshot', source).toString();
  const { httpRequest } = await import('./client.js');
  const r = await httpRequest(url);
  if (r.status !== 200) throw new TsibaseError('DEV_FORK_SOURCE', `--fork ${source}: GET ${url} answered ${r.status}: ${r.text()}`);
  return r.body;
}
