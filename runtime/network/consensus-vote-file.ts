import { TsibaseError } from '../../host-api/errors.js';
import { readJsonFile, writeJsonFile } from '../fs/json-file.js';
import type { ProducerName } from './routing/routing-io.js';

// A producer's current term and vote (docs/p2p.md §4), kept on disk across restarts: a node that
// voted in a term must not vote again in it after a crash (Raft's persistent state), or two
// leaders could be elected for one term. One of the node's JSON files, replaced atomically and
// on disk before the vote leaves the node.

export interface ConsensusVote {
  readonly term: number;
  readonly votedFor: ProducerName | null;
}

/** The vote kept at `path`; none when the file does not exist yet. */
export function readConsensusVote(path: string): ConsensusVote | undefined {
  const bad = (problem: string) => new TsibaseError('NODE_BAD_CONSENSUS_FILE', `${path} does not hold {term, votedFor}: ${problem}`);
  const value = readJsonFile(path, bad) as { term?: unknown; votedFor?: unknown } | undefined;
  if (value === undefined) return undefined;
  if (!Number.isInteger(value.term) || (value.votedFor !== null && typeof value.votedFor !== 'string')) throw bad(JSON.stringify(value).slice(0, 100));
  return { term: value.term as number, votedFor: value.votedFor === null ? null : BigInt(value.votedFor as string) };
}

export function writeConsensusVote(path: string, vote: ConsensusVote): void {
  writeJsonFile(path, { term: vote.term, votedFor: vote.votedFor === null ? null : vote.votedFor.toString() }, 0o600);
}
