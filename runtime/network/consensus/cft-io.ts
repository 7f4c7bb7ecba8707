import type { LogEntry } from '../peer-io.js';
import type { ProducerName } from '../routing/routing-io.js';

// What goes into CFT consensus (CftEvent) and what one step gives back (CftReady), in the shape
// of etcd raft's Step/Ready (docs/p2p.md "What we build" 7, §4). The caller owns the clock, the
// timer, the chain and the links: it signs and routes the messages, produces blocks while told
// to lead, and passes irreversibility on to block sync.

/** The messages of docs/p2p.md §2.2 (35-37) without their `signer`: the caller adds and checks signatures. */
export type CftMessage =
  | { readonly kind: 'ConfirmMessage'; readonly body: { readonly term: number; readonly followerId: ProducerName; readonly headNum: number } }
  | {
    readonly kind: 'RequestVoteRequest';
    readonly body: { readonly term: number; readonly candidateId: ProducerName; readonly lastLogIndex: number; readonly lastLogTerm: number };
  }
  | {
    readonly kind: 'RequestVoteResponse';
    readonly body: { readonly term: number; readonly candidateId: ProducerName; readonly voterId: ProducerName; readonly voteGranted: boolean };
  };

/** The node's head block, as consensus needs it. */
export interface CftHead {
  readonly num: number;
  readonly term: number;
  readonly producer: ProducerName;
}

export type CftEvent =
  /**
   * The active producer sets: the current one, and the next one during joint consensus
   * (docs/p2p.md §6.1); `self` is this node's producer name, if it has one.
   */
  | {
    readonly type: 'producers'; readonly groups: readonly (readonly ProducerName[])[]; readonly self: ProducerName | null;
    /** The next set runs BFT (CFT→BFT joint consensus, §6.1): its quorum is BFT's, and only the current set's producers stand. */
    readonly nextIsBft?: boolean;
    /** CFT takes over from BFT (§6.1): BFT's term, and whether this node leads it (it goes on leading it under CFT). */
    readonly fromBft?: CftTakeOver;
  }
  /** The election timer asked for is due; `quorumReachable`: routes reach a quorum of producers. */
  | { readonly type: 'timeout'; readonly quorumReachable: boolean }
  /** The head changed (a block applied or produced); `commitIndex` is the node's irreversible block. */
  | { readonly type: 'head'; readonly head: CftHead; readonly commitIndex: number }
  /** A consensus message that passed its signature check. */
  | { readonly type: 'receive'; readonly message: CftMessage }
  /** The producers that routes reach changed: these are reached now (docs/p2p.md §A). */
  | { readonly type: 'routes'; readonly reachable: readonly ProducerName[] };

/** Where BFT left off when the producers switch from BFT to CFT. */
export interface CftTakeOver {
  readonly term: number;
  readonly leading: boolean;
}

export type CftRole = 'nonvoting' | 'follower' | 'candidate' | 'leader';

export interface CftSend {
  /** `producers`: multicast to every producer; otherwise the one producer to send to. */
  readonly to: 'producers' | ProducerName;
  readonly message: CftMessage;
}

export interface CftReady {
  readonly sends: CftSend[];
  /** Restart the election timer to fire after this many milliseconds (replaces the running one). */
  readonly timerMs?: number;
  /** Stop the election timer (a node that is not a producer runs none). */
  readonly stopTimer?: boolean;
  /** Start producing blocks of this term (the node became leader). */
  readonly lead?: number;
  /** Stop producing (a newer term, or the leader's own timeout). */
  readonly stopLeading?: boolean;
  /** The leader's commit index advanced: blocks up to this number are irreversible. */
  readonly commit?: number;
  readonly log: LogEntry[];
}

export interface CftOptions {
  /** Uniform in [0, 1): the election timer's spread (injected, so the simulator replays). */
  readonly random: () => number;
  /** The clock in milliseconds (injected, for the timeout's 30-minute step down). */
  readonly now: () => number;
  /** The base of the election timeout T (docs/p2p.md §4: 3 s, scaled with --block-interval). */
  readonly baseTimeoutMs: number;
  /**
   * The turn of a prompt election, one slot: a follower that lost its route to its leader stands
   * after its place among the reachable followers times this (plus up to a quarter of it).
   */
  readonly promptElectionMs: number;
  /**
   * The term and vote kept from before a restart: a node that voted must not vote again in the
   * same term (Raft's persistent state), so the caller keeps both (Cft.currentTerm, Cft.vote).
   */
  readonly restored?: { readonly term: number; readonly votedFor: ProducerName | null };
}
