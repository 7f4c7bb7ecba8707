import { bytesToHex, hexToBytes } from '../../host-api/encoding/hex.js';
import { TsibaseError } from '../../host-api/errors.js';
import { readJsonFile, writeJsonFile } from '../fs/json-file.js';
import type { BftBlockConfirm, BftConfirm, BftKept } from './consensus/bft-io.js';

// What a BFT producer keeps across restarts (docs/p2p.md §5.2): its term, the best block it
// prepared or committed, and the best block it saw prepared by a quorum with the prepares that
// prove it; without them a restarted producer could prepare two forks in one term. Every node
// also keeps the last block BFT committed and its commit proof: a BFT header's commitNum proves
// nothing (§5.4), so this is where irreversibility survives a restart. One of the
// node's JSON files (signatures as hex), replaced atomically and on disk before any message
// that depends on it leaves the node, as the CFT vote is (consensus-vote-file.ts).

type Kept = BftKept<Uint8Array>;

interface BlockJson { id: string; num: number; term: number }

function blockOf(value: unknown, bad: () => Error): BlockJson | undefined {
  if (value === undefined || value === null) return undefined;
  const v = value as Partial<BlockJson>;
  if (typeof v.id !== 'string' || !/^[0-9a-f]{64}$/i.test(v.id) || !Number.isInteger(v.num) || !Number.isInteger(v.term)) throw bad();
  return { id: v.id, num: v.num!, term: v.term! };
}

function confirmOf(value: unknown, bad: () => Error): BftConfirm<Uint8Array> {
  const v = value as { producer?: unknown; signature?: unknown };
  if (typeof v?.producer !== 'string' || !/^[0-9]+$/.test(v.producer) || typeof v.signature !== 'string' || !/^([0-9a-f]{2})*$/i.test(v.signature)) throw bad();
  return { producer: BigInt(v.producer), signature: hexToBytes(v.signature) };
}

function proofOf(value: unknown, bad: () => Error): BftBlockConfirm<Uint8Array> | undefined {
  if (value === undefined || value === null) return undefined;
  const v = value as { blockNum?: unknown; commits?: unknown; nextCommits?: unknown };
  if (!Number.isInteger(v.blockNum) || !Array.isArray(v.commits) || !(v.nextCommits === null || Array.isArray(v.nextCommits))) throw bad();
  const commits = v.commits.map((c) => confirmOf(c, bad));
  return { blockNum: v.blockNum as number, commits, ...(Array.isArray(v.nextCommits) ? { nextCommits: v.nextCommits.map((c) => confirmOf(c, bad)) } : {}) };
}

const confirmsJson = (list: readonly BftConfirm<Uint8Array>[]) => list.map((c) => ({ producer: c.producer.toString(), signature: bytesToHex(c.signature) }));

/** The BFT state kept at `path`; none when the file does not exist yet. */
export function readConsensusBft(path: string): Kept | undefined {
  const bad = (problem: string) => new TsibaseError('NODE_BAD_CONSENSUS_FILE', `${path} does not hold {term, bestConfirm, bestPrepared, committed}: ${problem}`);
  const value = readJsonFile(path, bad) as { term?: unknown; bestConfirm?: unknown; bestPrepared?: { prepares?: unknown }; committed?: { proof?: unknown } } | undefined;
  if (value === undefined) return undefined;
  const invalid = () => bad(JSON.stringify(value).slice(0, 100));
  if (!Number.isInteger(value.term)) throw invalid();
  const bestConfirm = blockOf(value.bestConfirm, invalid);
  const prepared = blockOf(value.bestPrepared, invalid);
  if (prepared && !Array.isArray(value.bestPrepared!.prepares)) throw invalid();
  const committed = blockOf(value.committed, invalid);
  const proof = committed && proofOf(value.committed!.proof, invalid);
  return {
    term: value.term as number,
    ...(bestConfirm ? { bestConfirm } : {}),
    ...(prepared ? { bestPrepared: { ...prepared, prepares: (value.bestPrepared!.prepares as unknown[]).map((c) => confirmOf(c, invalid)) } } : {}),
    ...(committed ? { committed: { ...committed, ...(proof ? { proof } : {}) } } : {}),
  };
}

export function writeConsensusBft(path: string, kept: Kept): void {
  const { term, bestConfirm, bestPrepared, committed } = kept;
  const proof = committed?.proof;
  writeJsonFile(path, {
    term,
    bestConfirm: bestConfirm ? { id: bestConfirm.id, num: bestConfirm.num, term: bestConfirm.term } : null,
    bestPrepared: bestPrepared
      ? { id: bestPrepared.id, num: bestPrepared.num, term: bestPrepared.term, prepares: confirmsJson(bestPrepared.prepares) }
      : null,
    committed: committed
      ? {
        id: committed.id, num: committed.num, term: committed.term,
        proof: proof ? { blockNum: proof.blockNum, commits: confirmsJson(proof.commits), nextCommits: proof.nextCommits ? confirmsJson(proof.nextCommits) : null } : null,
      }
      : null,
  }, 0o600);
}
