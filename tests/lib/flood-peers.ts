// Hostile peers that flood a node, run in a process of their own (`floodFrom`), so that the
// work of making the flood (masking its frames) does not slow the test process that watches the
// node. Each peer links from its own loopback address, follows the node's head block (from its
// explorer), and sends,
// as fast as the link takes them: signed consensus messages whose signatures verify (each costs
// the node a verify service run) for a claim that is no producer's, frames of no known type, and
// a chain of 1 MiB blocks from the node's head that are never the best (term 0), each on the last
// one it sent while that is ahead of the head: blocks that would stay in the node's memory until
// its irreversible block passes them.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { blockId, generateKeyPair, hexToBytes, signDigest, Transaction } from '../../host-api/index.js';
import { accountNumberFromName } from '../../host-api/names/index.js';
import type { BlockHeader, SignedBlock } from '../../host-api/types/index.js';
import { ChainClient } from '../../runtime/cli/chain-client.js';
import { sha256 } from '../../runtime/crypto/sha256.js';
import { encodeMessage, signedMessage, signingPreimage, type P2PMessage } from '../../runtime/network/messages/index.js';
import { linkHostile, type HostilePeer } from './hostile-peer.js';

export interface FloodPlan {
  /** The node's port, and its API (for its head block). */
  readonly port: string;
  readonly api: string;
  /** The loopback address of each hostile peer. */
  readonly from: readonly string[];
  readonly durationMs: number;
}

export interface FloodResult {
  /** Frames each peer sent. */
  readonly sent: number[];
  /** Whether each peer's link was still open at the end. */
  readonly open: boolean[];
}

/** Bytes a peer leaves unsent before it waits: the flood goes as fast as the node reads it. */
const UNSENT_BYTES = 8 * 1024 * 1024;
const MIB = 1024 * 1024;
/** Each round: this many signed votes (a verify service run each), 50 frames of no known type, then this many 1 MiB blocks. */
const VOTES_A_ROUND = 10;
const GARBAGE_A_ROUND = 50;
const BLOCKS_A_ROUND = 4;
/** The frames of one round: 4 MiB of blocks, ten verify service runs. */
export const FRAMES_A_ROUND = VOTES_A_ROUND + GARBAGE_A_ROUND + BLOCKS_A_ROUND;

/** The node's head block: its id and number. */
interface Head {
  readonly id: Uint8Array;
  readonly num: number;
}

/** The frames of one round of the flood; the block is made on the node's head, or on the last one made while that is ahead of it. */
function floodFrames(): { frames: Uint8Array[]; blockOn: (head: Head) => Uint8Array } {
  const stranger = generateKeyPair();
  const claim = { service: accountNumberFromName('verify-sig'), rawData: stranger.publicKey };
  const votes = Array.from({ length: VOTES_A_ROUND }, (_, i) => {
    const body = { term: 1_000_000 + i, candidateId: accountNumberFromName('mallory'), lastLogIndex: 1, lastLogTerm: 1, signer: claim };
    return encodeMessage(signedMessage('RequestVoteRequest', body, signDigest(stranger, sha256(signingPreimage('RequestVoteRequest', body)))) as P2PMessage);
  });
  const garbage = Array.from({ length: GARBAGE_A_ROUND }, () => Uint8Array.of(99, 1, 2, 3));
  const transaction = Transaction.pack({ tapos: { expiration: 0, refBlockSuffix: 0, flags: 0, refBlockIndex: 0 }, actions: [], claims: [] });
  const bulky = [{ transaction, proofs: [new Uint8Array(MIB)], subjectiveData: [] }];
  const zeros = new Uint8Array(32);
  let tip: BlockHeader | undefined;
  const blockOn = (head: Head) => {
    const parent = tip && tip.blockNum > head.num ? { id: blockId(tip), num: tip.blockNum } : head;
    tip = {
      previous: parent.id, blockNum: parent.num + 1, time: 0n, producer: 0n, term: 0, commitNum: 0,
      consensusState: zeros, trxMerkleRoot: zeros, eventMerkleRoot: zeros, newConsensus: null, authCode: null,
    };
    const signed: SignedBlock = { block: { header: tip, transactions: bulky }, signature: randomBytes(64), auxConsensusData: null };
    return encodeMessage({ kind: 'BlockMessage', body: { block: signed } });
  };
  return { frames: [...votes, ...garbage], blockOn };
}

async function flood(peer: HostilePeer, head: () => Head, until: number): Promise<number> {
  const { frames, blockOn } = floodFrames();
  let sent = 0;
  while (Date.now() < until && peer.open()) {
    if (peer.socket.bufferedAmount < UNSENT_BYTES) {
      for (const frame of frames) peer.send(frame);
      for (let i = 0; i < BLOCKS_A_ROUND; i++) peer.send(blockOn(head()));
      sent += frames.length + BLOCKS_A_ROUND;
    }
    await sleep(1);
  }
  return sent;
}

/** The node's head block, polled until `until`. */
async function followHead(api: string, until: number): Promise<() => Head> {
  const client = new ChainClient(api);
  const read = async (): Promise<Head> => {
    const { headBlock } = await client.graphql('explorer', '{ headBlock { id header { blockNum } } }') as { headBlock: { id: string; header: { blockNum: number } } };
    return { id: hexToBytes(headBlock.id), num: headBlock.header.blockNum };
  };
  let head = await read();
  void (async () => {
    while (Date.now() < until) {
      await sleep(100);
      head = await read().catch(() => head);
    }
  })();
  return () => head;
}

async function run(plan: FloodPlan): Promise<FloodResult> {
  const node = { port: plan.port };
  const peers = await Promise.all(plan.from.map((from) => linkHostile(node, { from })));
  const until = Date.now() + plan.durationMs;
  const head = await followHead(plan.api, until);
  const sent = await Promise.all(peers.map((peer) => flood(peer, head, until)));
  const open = peers.map((peer) => peer.open());
  for (const peer of peers) peer.socket.terminate();
  return { sent, open };
}

/** Runs the flood in a child process; settles when it is over. */
export function floodFrom(plan: FloodPlan): Promise<FloodResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [JSON.stringify(plan)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    child.once('message', (result) => resolve(result as FloodResult));
    child.once('exit', (code) => { if (code !== 0) reject(new Error(`the flood process exited with ${code}`)); });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await run(JSON.parse(process.argv[2]!) as FloodPlan);
  process.send!(result, () => process.exit(0));
}
