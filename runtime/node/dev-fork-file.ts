import { join } from 'node:path';
import { TsibaseError } from '../../host-api/errors.js';
import { readJsonFile, writeJsonFile } from '../fs/json-file.js';

// A node directory that holds a development fork (docs/chain.md §9) says so in dev-fork.json,
// written once its state is loaded: a node started there without `tsibase dev --fork` is refused
// (TsibaseNode.start), so forked state never runs as an ordinary chain, and `tsibase dev` goes on
// with the fork it holds instead of forking again.

/** Where a fork came from. */
export interface DevFork {
  /** The snapshot file or node URL it was forked from. */
  readonly source: string;
  /** The block of the source it starts from. */
  readonly blockNum: number;
}

function fileOf(dir: string): string {
  return join(dir, 'dev-fork.json');
}

/** The fork `dir` holds, if it holds one. */
export function readDevFork(dir: string): DevFork | undefined {
  const value = readJsonFile(fileOf(dir), (problem) => new TsibaseError('NODE_DEV_FORK', `${fileOf(dir)} is not JSON (${problem}): delete the node directory (tsibase dev --reset)`));
  if (value === undefined) return undefined;
  const { source, blockNum } = value as Partial<DevFork>;
  if (typeof source !== 'string' || typeof blockNum !== 'number') {
    throw new TsibaseError('NODE_DEV_FORK', `${fileOf(dir)} names no source and block: delete the node directory (tsibase dev --reset)`);
  }
  return { source, blockNum };
}

export function writeDevFork(dir: string, fork: DevFork): void {
  writeJsonFile(fileOf(dir), fork);
}

/** What a fork says of itself at every start, loudly. */
export function devForkWarning(fork: DevFork): string {
  return `DEVELOPMENT FORK of ${fork.source} at block ${fork.blockNum}: the chain's auth services are bypassed on this node (anyone may act as any account, no keys asked) and it produces alone; its transactions and blocks are not valid on the original network`;
}
