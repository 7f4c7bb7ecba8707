// Hostile peers that flood a node, run in a process of their own (`floodFrom`), so that the
// work of making the flood (masking its frames) does not slow the test process that watches the
// node. Each peer links from its own loopback address, hears the node's block stream, and sends,
// as fast as the link takes them: signed consensus messages whose signatures verify (each costs
// the node a verify service run) for a claim that is no producer's, frames of no known type,
// frames of 1 MiB, and 1 MiB blocks on the node's head that are never the best (term 0).
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { blockId, generateKeyPair, signDigest, Transaction } from '../../host-api/index.js';
import { accountNumberFromName } from '../../host-api/names/index.js';
import type { SignedBlock } from '../../host-api/types/index.js';
import { sha256 } from '../../runtime/crypto/sha256.js';
import { encodeMessage, signedMessage, signingPreimage, type P2PMessage } from '../../runtime/network/messages/index.js';
import { linkHostile, type HostilePeer } from './hostile-peer.js';

export interface FloodPlan {
  /** The node's port. */
  readonly port: string;
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

/** The frames of one round of the flood; the block is made on the newest block the node sent. */
function floodFrames(): { frames: Uint8Array[]; blockOn: (head: SignedBlock) => Uint8Array } {
  const stranger = generateKeyPair();
  const claim = { service: accountNumberFromName('verify-sig'), rawData: stranger.publicKey };
  const votes = Array.from({ length: 50 }, (_, i) => {
    const body = { term: 1_000_000 + i, candidateId: accountNumberFromName('mallory'), lastLogIndex: 1, lastLogTerm: 1, signer: claim };
    return encodeMessage(signedMessage('RequestVoteRequest', body, signDigest(stranger, sha256(signingPreimage('RequestVoteRequest', body)))) as P2PMessage);
  });
  const garbage = Array.from({ length: 50 }, () => Uint8Array.of(99, 1, 2, 3));
  const big = new Uint8Array(MIB).fill(50);
  const transaction = Transaction.pack({ tapos: { expiration: 0, refBlockSuffix: 0, flags: 0, refBlockIndex: 0 }, actions: [], claims: [] });
  const bulky = [{ transaction, proofs: [new Uint8Array(MIB)], subjectiveData: [] }];
  const blockOn = (head: SignedBlock) => {
    const header = head.block.header;
    const block = { header: { ...header, previous: blockId(header), blockNum: header.blockNum + 1, term: 0, newConsensus: null, authCode: null }, transactions: bulky };
    return encodeMessage({ kind: 'BlockMessage', body: { block: { block, signature: randomBytes(64), auxConsensusData: null } } });
  };
  return { frames: [...votes, ...garbage, big], blockOn };
}

async function flood(peer: HostilePeer, until: number): Promise<number> {
  const { frames, blockOn } = floodFrames();
  let sent = 0;
  while (Date.now() < until && peer.open()) {
    if (peer.socket.bufferedAmount < UNSENT_BYTES) {
      for (const frame of frames) peer.send(frame);
      const head = peer.blocks[peer.blocks.length - 1];
      if (head) peer.send(blockOn(head));
      sent += frames.length + (head ? 1 : 0);
    }
    await sleep(1);
  }
  return sent;
}

async function run(plan: FloodPlan): Promise<FloodResult> {
  const node = { port: plan.port };
  const peers = await Promise.all(plan.from.map((from) => linkHostile(node, { from, stream: true })));
  const until = Date.now() + plan.durationMs;
  const sent = await Promise.all(peers.map((peer) => flood(peer, until)));
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
