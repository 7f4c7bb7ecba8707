import type { BlockConfirm, ProducerConfirm } from '../../chain/commit-proofs.js';
import type { LogEntry } from '../peer-io.js';
import type { ProducerName } from '../routing/routing-io.js';
import type { BlockIdHex } from '../sync/block-header.js';

// What goes into BFT consensus (BftEvent) and what one step gives back (BftReady), in the shape
// of etcd raft's Step/Ready (docs/p2p.md "What we build" 7, §5). The caller owns the clock, the
// timer, the chain, the links and the keys: it checks the signatures of what it passes in, routes
// what comes out, produces blocks while told to lead, and hands irreversibility to block sync.
// `S` is a signature as the caller keeps it (bytes in the node, a token in the simulator).

/** A producer set as a block or the chain has it: its algorithm and its names sorted as u64 (§5.1). */
export interface BftGroup {
  readonly algorithm: 'cft' | 'bft';
  readonly producers: readonly ProducerName[];
}

/** What BFT reads of a block header (docs/p2p.md §3.1) and of the producer sets it was made under. */
export interface BftBlock {
  readonly id: BlockIdHex;
  readonly num: number;
  readonly previous: BlockIdHex;
  readonly term: number;
  readonly producer: ProducerName;
  readonly commitNum: number;
  /** The block's producers and, during joint consensus, its next producers (§6.1). */
  readonly groups: readonly BftGroup[];
  /**
   * During joint consensus, the block whose change of producers began it: the first block whose
   * commitNum reaches it ends joint consensus and must prove that commit (§6.1).
   */
  readonly nextSince?: number;
}

/** psibase's ProducerConfirm: one producer's signature over a prepare or commit of a block (chain/commit-proofs.ts). */
export type BftConfirm<S> = ProducerConfirm<S>;

/** The irreversibility proof a leader puts in auxConsensusData (§3.5, §5.4; chain/commit-proofs.ts). */
export type BftBlockConfirm<S> = BlockConfirm<S>;

/** The fields of a ViewChangeMessage (§2.2, 40) without its signer. */
export interface BftViewChange<S> {
  readonly term: number;
  readonly producer: ProducerName;
  /** The best block this producer saw prepared by a quorum, or 64 zeros. */
  readonly bestPrepared: BlockIdHex;
  readonly bestPreparedTerm: number;
  readonly prepares: readonly BftConfirm<S>[];
  readonly nextPrepares?: readonly BftConfirm<S>[];
}

/** The BFT messages of docs/p2p.md §2.2 (38-41), each with the signature its producer made. */
export type BftMessage<S> =
  | { readonly kind: 'PrepareMessage'; readonly body: { readonly blockId: BlockIdHex; readonly producer: ProducerName }; readonly signature: S }
  | { readonly kind: 'CommitMessage'; readonly body: { readonly blockId: BlockIdHex; readonly producer: ProducerName }; readonly signature: S }
  | { readonly kind: 'ViewChangeMessage'; readonly body: BftViewChange<S>; readonly signature: S }
  | { readonly kind: 'RequestViewMessage' };

/** A message before its producer signs it: what `sign` sees. */
export type BftUnsigned<S> =
  | { readonly kind: 'PrepareMessage' | 'CommitMessage'; readonly body: { readonly blockId: BlockIdHex; readonly producer: ProducerName } }
  | { readonly kind: 'ViewChangeMessage'; readonly body: BftViewChange<S> };

export type BftEvent<S> =
  /** The producer sets in force (the head's), and this node's producer name, if it has one. */
  | { readonly type: 'producers'; readonly groups: readonly BftGroup[]; readonly self: ProducerName | null }
  /**
   * A block that passed `checkBlock`, before block sync takes it (psibase's
   * on_accept_block_header), with its auxConsensusData when it has some.
   */
  | { readonly type: 'block'; readonly block: BftBlock; readonly aux?: BftBlockConfirm<S> }
  /** The head changed: a block applied, or produced by this node; `commitIndex` is the node's. */
  | { readonly type: 'head'; readonly head: BftBlock; readonly commitIndex: number }
  /** The view-change timer asked for is due. */
  | { readonly type: 'timeout' }
  /** The retry asked for with `retryViewChangeMs` is due. */
  | { readonly type: 'retryViewChange' }
  /** This node's keys changed (a device unlocked, a key added): what it could not sign may be signable now. */
  | { readonly type: 'keysChanged' }
  /** A message whose signature the caller checked against its producer's claim. */
  | { readonly type: 'receive'; readonly message: BftMessage<S> };

export type BftRole = 'nonvoting' | 'follower' | 'leader';

export interface BftSend<S> {
  /**
   * `producers`: to every producer (multicast_producers); `all`: flooded to every node (view
   * changes); `sender`: back to whoever sent the message being handled (RequestViewMessage).
   */
  readonly to: 'producers' | 'all' | 'sender';
  readonly message: BftMessage<S>;
}

export interface BftReady<S> {
  readonly sends: BftSend<S>[];
  /** Restart the view-change timer to fire after this many milliseconds (replaces the running one). */
  readonly timerMs?: number;
  readonly stopTimer?: boolean;
  /**
   * This producer's view change for the current term could not be signed (its key is locked
   * away): step a 'retryViewChange' after this many milliseconds (replaces a pending one).
   */
  readonly retryViewChangeMs?: number;
  /** Start producing blocks of this term (this node leads it and the term is ready). */
  readonly lead?: number;
  readonly stopLeading?: boolean;
  /** Blocks of the head chain up to this number are irreversible. */
  readonly commit?: number;
  /** Fork choice is restricted to this block and its descendants (psibase's set_subtree, §3.6). */
  readonly root?: BlockIdHex;
  /**
   * Safety is broken (a commit conflicting with a better prepared block: more than f faults, or
   * a bug); psinode exits on it (§3.6).
   */
  readonly consensusFailure?: string;
  readonly log: LogEntry[];
}

/** What a BFT producer keeps across a restart so that it never prepares two forks in one term nor forgets what was prepared. */
export interface BftKept<S> {
  readonly term: number;
  /**
   * The best block (in fork-choice order) this producer prepared or committed, or the committed
   * block descending from it once the commit has passed it.
   */
  readonly bestConfirm?: { readonly id: BlockIdHex; readonly num: number; readonly term: number };
  /**
   * The best block this producer saw prepared by a quorum, with the prepares that prove it: its
   * view changes never name less, and can still prove it after a restart.
   */
  readonly bestPrepared?: { readonly id: BlockIdHex; readonly num: number; readonly term: number; readonly prepares: readonly BftConfirm<S>[] };
  /**
   * The last block BFT committed, with its commit proof when it has one (a single producer's
   * has none): after a restart the chain is irreversible up to it, since a header's commitNum
   * proves nothing under BFT, and a leader can still prove it in its blocks (§5.4).
   */
  readonly committed?: { readonly id: BlockIdHex; readonly num: number; readonly term: number; readonly proof?: BftBlockConfirm<S> };
}

export interface BftOptions<S> {
  /** The view-change timer's start (docs/p2p.md §5.1: 10 s, scaled with --block-interval). */
  readonly baseTimeoutMs: number;
  /**
   * How long until a view change that could not be signed is tried again (§5.1: 30 s, scaled
   * with --block-interval); three view-change timeouts when not given.
   */
  readonly retryViewChangeMs?: number;
  /** Signs one of this producer's messages; undefined when it holds no key (nothing is sent then). */
  readonly sign: (message: BftUnsigned<S>) => S | undefined;
  /**
   * Whether `signature` is `producer`'s over a prepare or commit of `blockId` (for view changes and
   * aux data), made with its claim in group `group` (0 current, 1 next) of that block's sets: a
   * producer whose claim changes with the sets signs for each group with that group's claim.
   */
  readonly verify: (kind: 'PrepareMessage' | 'CommitMessage', blockId: BlockIdHex, producer: ProducerName, signature: S, group: number) => boolean;
  readonly restored?: BftKept<S>;
}
