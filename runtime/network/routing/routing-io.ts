import type { P2PMessage, SignedMessage } from '../messages/index.js';
import type { LogEntry, PeerDisconnect, PeerId } from '../peer-io.js';

// What goes into the router (RoutingEvent) and what comes out of one step (RoutingReady), in the
// shape of etcd raft's Step/Ready: the caller owns sockets, clocks and timers.

/** An account number (AccountNumber's u64). */
export type ProducerName = bigint;

export type RoutingEvent =
  /** A link is up: it gets InitMessage and our routes first (docs/p2p.md §1.3). */
  | { readonly type: 'linkUp'; readonly peer: PeerId }
  /** A link is gone: routes through it are withdrawn and chosen again. */
  | { readonly type: 'linkDown'; readonly peer: PeerId }
  /** A decoded native message from a linked peer: every kind, not only the routing ones. */
  | { readonly type: 'receive'; readonly peer: PeerId; readonly message: P2PMessage }
  /** The active producers (current and next set under joint consensus) changed. */
  | { readonly type: 'producers'; readonly producers: Iterable<ProducerName> }
  /** Our own producer name (null: none). */
  | { readonly type: 'self'; readonly name: ProducerName | null }
  /** A timer the router asked for is due. */
  | { readonly type: 'timer'; readonly name: RoutingTimerName }
  /** Send a message to one producer, inside a RoutingEnvelope, along the selected route. */
  | { readonly type: 'sendTo'; readonly producer: ProducerName; readonly message: P2PMessage; readonly afterBlock?: Uint8Array }
  /** Send a message to every producer we have a route to. */
  | { readonly type: 'multicastProducers'; readonly message: P2PMessage; readonly afterBlock?: Uint8Array };

export type RoutingTimerName = 'seqno';

export interface RoutedSend {
  readonly peer: PeerId;
  /** The complete frame to put on the link. */
  readonly frame: Uint8Array;
  /** Hold the frame until the peer has this block (psibase's send_after_block); drop it if the link goes. */
  readonly afterBlock?: Uint8Array;
}

/** A message for the layers above (sync, consensus): signed ones have passed the signature check. */
export interface Delivered {
  readonly peer: PeerId;
  readonly message: P2PMessage;
}

export interface RoutingTimer {
  readonly name: RoutingTimerName;
  /** When to fire, in the caller's milliseconds; replaces an earlier request of the same name. */
  readonly at: number;
}

/** Everything one step produced, in order. */
export interface RoutingReady {
  readonly sends: RoutedSend[];
  readonly delivered: Delivered[];
  readonly timers: RoutingTimer[];
  readonly disconnects: PeerDisconnect[];
  readonly log: LogEntry[];
}

export interface RouterOptions {
  /** This process's router id: a random u64, new at every start (docs/p2p.md §1.5). */
  readonly routerId: bigint;
  /**
   * The signature check of a signed message (docs/p2p.md §2.0), before it is delivered or
   * relayed; false drops the message without closing the link.
   */
  readonly verify: (message: SignedMessage, peer: PeerId) => boolean;
}
