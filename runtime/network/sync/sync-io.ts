import type { LogEntry, PeerDisconnect, PeerId } from '../peer-io.js';
import type { BlockIdHex, SyncHeader } from './block-header.js';
import type { SyncMessage } from './sync-messages.js';

// What goes into block sync (SyncEvent) and what one step gives back (SyncReady), in the shape of
// etcd raft's Step/Ready and of runtime/network/routing: the caller owns sockets, the chain and
// the block log.

export type SyncEvent<B> =
  /** A link is up: sync starts the hello exchange on it (docs/p2p.md §6.2). */
  | { readonly type: 'linkUp'; readonly peer: PeerId }
  /** A link is gone (closed by either side, or after a disconnect sync asked for). */
  | { readonly type: 'linkDown'; readonly peer: PeerId }
  /** A HelloRequest or BlockMessage from a linked peer. */
  | { readonly type: 'receive'; readonly peer: PeerId; readonly message: SyncMessage<B> }
  /** The last message sync handed out for this link has been written to it. */
  | { readonly type: 'sent'; readonly peer: PeerId }
  /**
   * The outcome of the one `apply` sync asked for; `commit`, the chain's irreversible block once
   * it applied, is committed before the next block is handed out (which must not need a revert
   * below it).
   */
  | { readonly type: 'applied'; readonly id: BlockIdHex; readonly ok: true; readonly commit?: number }
  | { readonly type: 'applied'; readonly id: BlockIdHex; readonly ok: false; readonly reason: string }
  /** A block this node produced and executed, on top of the current head. */
  | { readonly type: 'produced'; readonly block: B }
  /** Consensus made the head chain irreversible up to `num` (docs/p2p.md §6.3). */
  | { readonly type: 'commit'; readonly num: number }
  /**
   * The snapshot sync asked for went to the peer: the link streams on after `block`, the
   * snapshot's block (docs/p2p.md §7.4). Without a block no snapshot could be sent.
   */
  | { readonly type: 'snapshotSent'; readonly peer: PeerId; readonly block: B | undefined }
  /** A snapshot from `peer` became this node's state: `block`, its block, is the head and committed. */
  | { readonly type: 'snapshotLoaded'; readonly peer: PeerId; readonly block: B }
  /** BFT restricts fork choice to this block's subtree (docs/p2p.md §3.6, §5.2); ignored for a block not held. */
  | { readonly type: 'root'; readonly id: BlockIdHex };

export interface SyncSend<B> {
  readonly peer: PeerId;
  readonly message: SyncMessage<B>;
}

export interface SyncBlock<B> {
  readonly header: SyncHeader;
  readonly block: B;
}

export interface SyncApply<B> extends SyncBlock<B> {
  /** The link the block came from (the one to close if it is refused); none for a block of ours. */
  readonly sender: PeerId | undefined;
}

/** Everything one step produced; the caller carries it out in this order. */
export interface SyncReady<B> {
  /** Blocks that became irreversible, ascending: the caller stores them in its block log first. */
  readonly committed: SyncBlock<B>[];
  /** Write each message to its link, then report `sent`; at most one per link is outstanding. */
  readonly sends: SyncSend<B>[];
  /**
   * Send each of these peers a snapshot (their committed block is below our block log's start,
   * docs/p2p.md §7.4), then report `snapshotSent`.
   */
  readonly snapshots: PeerId[];
  /** Close these links (a `linkDown` for them is then ignored). */
  readonly disconnects: PeerDisconnect[];
  /**
   * Take the state back to the block's parent (docs/chain.md §1.6) when the head is above it,
   * execute the block on it, then report `applied`; at most one outstanding. The parent is the
   * new head (the head chain's blocks above it count as reverted).
   */
  readonly apply: SyncApply<B>[];
  /** The new head, when it changed: the chain serves and builds on it. */
  readonly head?: SyncHeader;
  /** Blocks gone from memory (dead forks, blacklisted subtrees): the chain may drop their states. */
  readonly dropped: BlockIdHex[];
  readonly log: LogEntry[];
}

/** The irreversible blocks, as the caller's block log holds them. */
export interface CommittedBlocks<B> {
  /** The committed block numbered `num`, for 2 <= num <= the commit index. */
  blockAt(num: number): B | undefined;
}

export interface BlockSyncOptions<B> {
  /** The header fields of a block (its id computed as docs/p2p.md §3.2 says, for real blocks). */
  readonly headerOf: (block: B) => SyncHeader;
  readonly committedBlocks: CommittedBlocks<B>;
  /** The last irreversible block at start (from the block log); none for an empty node. */
  readonly committedHead?: B;
  /** The reversible blocks above it that the node's state already holds, in order (after a restart). */
  readonly appliedBlocks?: readonly B[];
  /** Where the block log starts when it was cut at a loaded snapshot (docs/p2p.md §7.3). */
  readonly logStart?: number;
  /** The bytes a received block weighs (its frame's), for the limits on blocks waiting to be applied; none: nothing. */
  readonly sizeOf?: (block: B) => number;
}
