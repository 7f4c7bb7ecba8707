import type { BlockHeader, Claim, HttpRequest, SignedBlock, SignedTransaction, TransactionTrace } from '../../host-api/types/index.js';
import type { StatusRow } from '../../host-api/types/native.js';
import type { SocketGrant, SocketOutcome } from '../wasm/host-state.js';
import type { ClosedBlock } from './block-builder.js';
import type { ClaimProof } from './claim-proofs.js';
import type { EmittedEvent, EventPosition } from './event-log.js';
import type { StoredBlock } from './stored-block.js';

// What the rest of the node sees of a chain (docs/design.md, "The chain"): one narrow interface per
// consumer, all of them answered by the Chain facade (chain.ts). The chain's store, engine and
// executor stay inside runtime/chain; what a consumer needs of them (a claim verifier, a query) the
// chain hands out here.

export type WaitFor = 'applied' | 'final';

/** Where a committed block came from: made here (booted or produced), or received from a peer and applied. */
export type BlockOrigin = 'produced' | 'received';

/** The head block and what is irreversible (docs/p2p.md §6.3). */
export interface ChainHead {
  readonly header: BlockHeader;
  readonly blockId: Uint8Array;
  /** The last irreversible block number: the head's commitNum. */
  readonly irreversible: number;
}

/** Checks signatures by their claim's verify service on the chain's state (docs/p2p.md §2.0). */
export interface ClaimVerifier {
  /**
   * Whether `signature` over `signedData` verifies under `claim`, once for the same bytes
   * (claim-verdicts.ts); the empty claim always passes. A failure is an answer, not an error.
   */
  verifies(claim: Claim, signedData: Uint8Array, signature: Uint8Array): boolean;
  /** Why one claim proof fails, checked now on this thread (claim-proofs.ts), or undefined. */
  proofError(proof: ClaimProof): Error | undefined;
}

/** What is read of a chain: its status, head and blocks. */
export interface ChainReader {
  readonly status: StatusRow | undefined;
  /** The head block and the last irreversible block number; undefined before block 2. */
  readonly head: ChainHead | undefined;
  /** True once block 2 exists. */
  readonly hasChain: boolean;
  /** The account this node produces as ('' = none). */
  readonly producer: string;
  /** Where the block log starts, when it was cut at a loaded snapshot (docs/p2p.md §7.3). */
  readonly logStart: number | undefined;
  /** Checks signatures against the chain's verify services. */
  readonly claims: ClaimVerifier;
  /** Block `blockNum` as it is sent to peers: from the block log, its signature and aux data. */
  signedBlockAt(blockNum: number): StoredBlock | undefined;
  /** The id of block `blockNum`, if this node has it. */
  blockIdAt(blockNum: number): Uint8Array | undefined;
}

/** What consensus drives (network/node-consensus.ts, docs/p2p.md §4): production by term, and irreversibility. */
export interface ConsensusTarget extends ChainReader {
  /** Consensus drives production from now on: this node produces only while it leads a term. */
  followConsensus(): void;
  /** Consensus elected this node leader of `term`. */
  lead(term: number): void;
  /** A newer term began, or this leader's commits stalled. */
  stopLeading(): void;
  /** Consensus made the blocks up to `num` irreversible here. */
  commitTo(num: number): void;
}

/**
 * What block sync imports blocks through (network/node-network.ts, docs/p2p.md §3.4): an applied
 * block is reported once, by the committed event (origin 'received'); the promises say when the
 * queue got to it and reject with a ChainError when it was refused.
 */
export interface BlockImporter extends ChainReader {
  /** Whether this node makes blocks now (the state must not change under them). */
  readonly producing: boolean;
  applyBlock(signed: SignedBlock): Promise<ClosedBlock>;
  revertTo(blockNum: number): Promise<void>;
  /** A snapshot from a peer replaced the state: its block is the head and irreversible. */
  snapshotLoaded(): void;
}

/** Transactions that come over the peer links (docs/p2p.md "What we build" 4). */
export interface PeerTransactions {
  /** A transaction another node passed on to the producers; the leader's trace, or undefined. */
  passedOn(packed: Uint8Array): Promise<TransactionTrace | undefined>;
  /** A producer is reachable that was not. */
  producerReached(): void;
}

/** What the network drives of the chain: consensus, block import and the peers' transactions. */
export type NetworkChain = ConsensusTarget & BlockImporter & PeerTransactions;

/** What clients push (http/, admin/): boot, transactions and logins (docs/http.md §3, §5). */
export interface TransactionIntake {
  readonly hasChain: boolean;
  /** POST /native/admin/push_boot: builds block 2; the trace's `error` says if boot failed. */
  boot(body: Uint8Array): TransactionTrace;
  /** push_transaction: the trace, when applied or once its block is final. */
  push(packed: Uint8Array, waitFor?: WaitFor): Promise<TransactionTrace>;
  /** Checks a login transaction against the current state (docs/chain.md §7); the user. */
  login(signed: SignedTransaction, rootHost: string): Promise<string>;
}

/** A request for the http service's `serve` export (docs/serving.md §1). */
export interface ServeRequest {
  /** The socket the service answers on. */
  readonly socket: number;
  readonly request: HttpRequest;
  readonly rootHost: string;
  /** The account the request's login token names, if any. */
  readonly user: bigint | null;
  /** The open requests the service may answer, the request's own socket among those it owns. */
  readonly sockets: SocketGrant;
}

/** What the service did: its error (an abort), and what became of the sockets. */
export interface ServeOutcome {
  readonly error: Error | null;
  readonly sockets: SocketOutcome;
}

/** Queries of services on the chain's state (RPC mode). */
export interface ChainQueries {
  /** Whether the chain has an http-server service to route requests. */
  readonly servesHttp: boolean;
  /** Hands a request to the http service's `serve` export in RPC mode, on a query thread or the chain's (docs/serving.md §10). */
  serve(request: ServeRequest): Promise<ServeOutcome>;
  /** The system accounts anyone may act as (a development chain's); none without the accounts service. */
  openSystemAccounts(): string[];
}

/** The events runs wrote on the chain's state (event-log.ts): a test's view of what one transaction emitted. */
export interface EventReader {
  /** Where the event databases stand now, the open block's writes included. */
  eventPosition(): EventPosition;
  /** Every event written since `position`. */
  eventsSince(position: EventPosition): EmittedEvent[];
}

/** What the chain reports of each pushed transaction. */
export interface TransactionOutcomes {
  received(): void;
  succeeded(id: Uint8Array): void;
  /**
   * `id` is absent when the transaction could not even be decoded; `trace` is the run that
   * failed, absent when it failed before running (decoding, proofs, no producer reachable).
   */
  failed(id: Uint8Array | undefined, error: string, trace?: TransactionTrace): void;
}

/** What the chain tells of itself. */
export interface ChainEvents {
  /** A block is committed (booted, produced or applied): the one way a block leaves the chain. */
  readonly committed?: (block: ClosedBlock, origin: BlockOrigin) => void;
}
