import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { TsibaseError } from '../../host-api/errors.js';
import type { ProducerName } from './routing/routing-io.js';

// A producer's current term and vote (docs/p2p.md §4), kept on disk across restarts: a node that
// voted in a term must not vote again in it after a crash (Raft's persistent state), or two
// leaders could be elected for one term. A small JSON file in the node directory, replaced
// atomically and synced before the vote leaves the node.

export interface ConsensusVote {
  readonly term: number;
  readonly votedFor: ProducerName | null;
}

/** The vote kept at `path`; none when the file does not exist yet. */
export function readConsensusVote(path: string): ConsensusVote | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const parsed = JSON.parse(text) as { term?: unknown; votedFor?: unknown };
  if (!Number.isInteger(parsed.term) || (parsed.votedFor !== null && typeof parsed.votedFor !== 'string')) {
    throw new TsibaseError('NODE_BAD_CONSENSUS_FILE', `${path} does not hold {term, votedFor}: ${text.slice(0, 100)}`);
  }
  return { term: parsed.term as number, votedFor: parsed.votedFor === null ? null : BigInt(parsed.votedFor as string) };
}

export function writeConsensusVote(path: string, vote: ConsensusVote): void {
  const temporary = `${path}.new`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify({ term: vote.term, votedFor: vote.votedFor === null ? null : vote.votedFor.toString() }));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}
