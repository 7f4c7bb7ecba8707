import type { LogEntry } from '../peer-io.js';
import type { ProducerName } from '../routing/routing-io.js';
import type { BlockIdHex } from '../sync/block-header.js';
import type { BftBlock, BftBlockConfirm, BftKept, BftMessage, BftOptions } from './bft-io.js';
import type { CftMessage, CftOptions } from './cft-io.js';

// What goes into the consensus driver (DriverEvent) and what one step gives back (DriverReady),
// in the shape of etcd raft's RawNode (docs/p2p.md "What we build" 5, 7): the driver runs CFT and
// BFT, picks the one the producer sets in force ask for and hands over between them; the caller
// (the node's network, the simulator's node) carries out the Ready on its links, timers, files
// and chain. `S` is a signature as the caller keeps it, `P` the caller's name for a link.

/** A producer set in force: its algorithm and its producers' names in the chain's order. */
export interface ProducerSet {
  readonly algorithm: 'cft' | 'bft';
  readonly producers: readonly ProducerName[];
}

/** The producers the next block starts under (docs/p2p.md §6.1) and this node's place among them. */
export interface DriverProducers {
  /** The current set and, during joint consensus, the next one. */
  readonly sets: readonly ProducerSet[];
  /** This node's producer name while it is one of them. */
  readonly self: ProducerName | null;
  /** The head block's term: BFT taking over from CFT starts in the term after it. */
  readonly headTerm: number;
}

/** A CFT producer's term and vote, kept across a restart (Raft's persistent state). */
export interface DriverVote {
  readonly term: number;
  readonly votedFor: ProducerName | null;
}

/** The timers the driver asks for: CFT's election timer, BFT's view-change timer and its retry of an unsigned view change. */
export type DriverTimer = 'election' | 'viewChange' | 'viewChangeRetry';

export type DriverEvent<S, P> =
  /**
   * The node starts (or restarts) on its chain: BFT learns the blocks from the irreversible one
   * up, then both machines the producers and, when there is one, the head.
   */
  | { readonly type: 'start'; readonly producers: DriverProducers; readonly head?: BftBlock; readonly commitIndex: number }
  /** The producers may have changed without a new head (a snapshot loaded, the configuration). */
  | { readonly type: 'producers'; readonly producers: DriverProducers }
  /** A block before block sync has it: received (it passed `checkBlock`) or produced here. */
  | { readonly type: 'block'; readonly block: BftBlock; readonly aux?: BftBlockConfirm<S> }
  /** The head changed (a block applied or produced); `producers` are those after it, `commitIndex` the node's. */
  | { readonly type: 'head'; readonly producers: DriverProducers; readonly head: BftBlock; readonly commitIndex: number }
  /** A consensus message whose signature and signer the caller checked; `from` is the link a BFT message came on. */
  | { readonly type: 'receive'; readonly message: CftMessage | BftMessage<S>; readonly from?: P }
  /** A timer asked for is due; for the election timer, the producers routes reach now. */
  | { readonly type: 'timeout'; readonly timer: DriverTimer; readonly reachable?: readonly ProducerName[] }
  /** The producers routes reach changed (docs/p2p.md "What we build" 5). */
  | { readonly type: 'routes'; readonly reachable: readonly ProducerName[] }
  /** A new link: it gets every view change held (psibase's send_all_view_changes, §5.2). */
  | { readonly type: 'linkUp'; readonly peer: P }
  /** Block sync sent block `id` on a link: the prepares and commits held for it follow (post_send_block, §5.3). */
  | { readonly type: 'blockSent'; readonly peer: P; readonly id: BlockIdHex }
  /** This node's keys changed: a view change it could not sign may be signed now (§5.1). */
  | { readonly type: 'keysChanged' };

export type DriverSend<S, P> =
  /** A CFT message, to be signed with this producer's claim: multicast to the producers, or to one. */
  | { readonly algorithm: 'cft'; readonly to: 'producers' | ProducerName; readonly message: CftMessage }
  /** A BFT message: multicast to the producers, flooded to every link, or sent on one link. */
  | { readonly algorithm: 'bft'; readonly to: 'producers' | 'all' | { readonly peer: P }; readonly message: BftMessage<S> };

/** What the chain is told, in order. */
export type ChainCommand =
  /** Consensus drives production from now on: the node produces only while it leads. */
  | { readonly type: 'follow' }
  /** Produce the blocks of this term (`algorithm`: the machine that elected this node). */
  | { readonly type: 'lead'; readonly term: number; readonly algorithm: 'cft' | 'bft' }
  | { readonly type: 'stopLeading' };

/** Set a timer (replacing the running one) or clear it. */
export type TimerCommand = { readonly timer: DriverTimer; readonly ms: number } | { readonly timer: DriverTimer; readonly clear: true };

export interface DriverReady<S, P> {
  /** Written (and synced) before any of `sends` leaves: what they depend on. */
  readonly persist: { readonly vote?: DriverVote; readonly bft?: BftKept<S> };
  readonly sends: DriverSend<S, P>[];
  readonly timers: TimerCommand[];
  readonly chain: ChainCommand[];
  /** Blocks up to this number are irreversible: the chain and block sync commit them. */
  readonly commit?: number;
  /** Block sync's fork choice keeps to this block's subtree (psibase's set_subtree, §3.6). */
  readonly root?: BlockIdHex;
  /** BFT safety is broken (§3.6): BFT stopped here, and this node stops leading. */
  readonly failure?: string;
  readonly log: LogEntry[];
}

export interface DriverOptions<S> {
  readonly cft: Omit<CftOptions, 'restored'>;
  readonly bft: Omit<BftOptions<S>, 'restored'>;
  /** Whether two signatures are the same (the kept BFT state is written only when it changed). */
  readonly sameSignature: (a: S, b: S) => boolean;
  /**
   * The chain's blocks from the irreversible one to the head, as BFT reads them: BFT learns them
   * at start and when it is made afresh for a switch from CFT (etcd raft's Storage).
   */
  readonly chainBlocks: () => BftBlock[];
  /** What was kept before a restart; the term goes on from the newer of the kept one and the head's. */
  readonly restored: { readonly vote?: DriverVote; readonly bft?: BftKept<S>; readonly headTerm: number };
}
