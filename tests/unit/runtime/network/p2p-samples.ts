// One sample of every native P2P message (docs/p2p.md §2.2), for round-trip and refusal tests.
import {
  signedMessage, type MessageBody, type MessageKind, type P2PMessage, type SignedKind,
} from '../../../../runtime/network/messages/index.js';

const id = (fill: number): Uint8Array => new Uint8Array(32).fill(fill);
const claim = { service: 0x77n, rawData: Uint8Array.of(1, 2, 3) };
const confirms = [{ producer: 0x10n, signature: Uint8Array.of(9, 9) }, { producer: 0x20n, signature: new Uint8Array(64).fill(5) }];
const stateChecksum = { serviceRoot: id(0xa1), nativeRoot: id(0xa2) };
const stateSignature = { account: 0x31n, claim, rawData: Uint8Array.of(7) };

const signedTransaction = {
  transaction: Uint8Array.of(0x17, 0, 0, 0xf1, 0x53, 0x65, 0, 0, 0, 0, 0x44, 0x33, 0x22, 0x11, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0),
  proofs: [Uint8Array.of(0xee)],
  subjectiveData: [],
};
const header = {
  previous: id(1), blockNum: 12, time: 1_700_000_000_123_456n, producer: 0x42n, term: 3, commitNum: 11,
  consensusState: id(2), trxMerkleRoot: id(3), eventMerkleRoot: id(4),
  newConsensus: {
    data: { BftConsensus: { producers: [{ name: 0x42n, auth: claim }] } },
    services: [{ codeNum: 0x50n, codeHash: id(5), vmType: 0, vmVersion: 0 }],
    wasmConfig: { numExecutionMemories: 32, vmOptions: { maxMutableGlobalBytes: 1024, maxPages: 512, maxTableElements: 8192, maxStackBytes: 1 << 20 } },
  },
  authCode: null,
};
const signedBlock = {
  block: { header, transactions: [signedTransaction] },
  signature: new Uint8Array(64).fill(0x5a),
  auxConsensusData: Uint8Array.of(0x0a, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0),
};

type Bodies = { [K in MessageKind]: MessageBody<K> };

/** A body of every kind; the mapped type makes a new kind without a sample a compile error. */
export const SAMPLE_BODIES: Bodies = {
  InitMessage: { version: 0 },
  RoutingEnvelope: { destination: 0x99n, data: Uint8Array.of(41, 0, 0) },
  RouteUpdateMessage: { producer: 0x1122n, seqno: 65535, metric: 7, router: 0xffffffffffffffffn },
  RouteSeqnoRequest: { producer: 0x1122n, seqno: 2, ttl: 64 },
  RequestRoutesMessage: {},
  HelloRequest: { xid: { id: id(9), num: 12 }, committed: false },
  BlockMessage: { block: signedBlock },
  ConfirmMessage: { term: 5, followerId: 0x1234n, headNum: 100, signer: claim },
  RequestVoteRequest: { term: 6, candidateId: 0x42n, lastLogIndex: 12, lastLogTerm: 5, signer: claim },
  RequestVoteResponse: { term: 6, candidateId: 0x42n, voterId: 0x43n, voteGranted: true, signer: claim },
  PrepareMessage: { blockId: id(6), producer: 0x42n, signer: claim },
  CommitMessage: { blockId: id(7), producer: 0x43n, signer: { service: 0n, rawData: new Uint8Array(0) } },
  ViewChangeMessage: {
    term: 9, producer: 0x44n, signer: claim, bestPrepared: id(8), bestPreparedTerm: 8, prepares: confirms, nextPrepares: [],
  },
  RequestViewMessage: {},
  StateChecksumMessage: { blockId: id(10), state: stateChecksum, signature: stateSignature },
  SnapshotPartMessage: {
    blockId: id(11), db: 2, lowKey: Uint8Array.of(1), highKey: new Uint8Array(0),
    rows: [{ key: Uint8Array.of(1, 1), value: Uint8Array.of(2) }, { key: Uint8Array.of(1, 2), value: new Uint8Array(0) }],
  },
  BlockHeaderMessage: { block: { ...signedBlock, block: { header: { ...header, newConsensus: null }, transactions: [] } } },
  SnapshotVerifyMessage: { blockId: id(12), hash: stateChecksum, signatures: [stateSignature, { ...stateSignature, account: 0x32n }] },
  WasmProducerMessage: { data: Uint8Array.of(0xde, 0xad), producer: 0x42n, signer: claim },
};

const SIGNED: ReadonlySet<string> = new Set<SignedKind>([
  'ConfirmMessage', 'RequestVoteRequest', 'RequestVoteResponse', 'PrepareMessage', 'CommitMessage', 'ViewChangeMessage', 'WasmProducerMessage',
]);

/** The sample message of a kind; signed ones carry a made-up 64-byte signature. */
export function sampleMessage(kind: MessageKind): P2PMessage {
  const body = SAMPLE_BODIES[kind];
  if (SIGNED.has(kind)) return signedMessage(kind as SignedKind, body as never, new Uint8Array(64).fill(0x3c));
  return { kind, body } as P2PMessage;
}

export const ALL_KINDS = Object.keys(SAMPLE_BODIES) as MessageKind[];
export { SIGNED as SIGNED_SAMPLE_KINDS };
