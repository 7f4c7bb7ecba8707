// psibase's shortest-path routing to producers (docs/p2p.md §A, §1.3), as a deterministic state
// machine: no sockets, clocks or timers inside.
//
//   const router = new Router({ routerId: <random u64>, verify: (signedMsg, peer) => boolean });
//   const ready = router.step(event, nowMs);
//
// Events (RoutingEvent): linkUp / linkDown {peer}; receive {peer, message} with every decoded
// native frame of that link; producers {producers} (the active set, current ∪ next); self {name};
// timer {name}; sendTo {producer, message, afterBlock?}; multicastProducers {message, afterBlock?}.
//
// Each step returns RoutingReady, to be carried out in order:
//   sends        {peer, frame, afterBlock?}: write `frame` to that link; with afterBlock, only once
//                the peer has that block (drop it if the link goes first).
//   delivered    {peer, message}: messages for sync and consensus (not routing ones), from the
//                link or out of an envelope addressed to us; signed ones passed `verify`.
//   timers       {name, at}: call step({type: 'timer', name}, t) at t ≥ at; a new one replaces
//                the old one of that name.
//   disconnects  {peer, reason}: close that link (then send linkDown).
//   log          what psibase logs at these points.
//
// Envelopes to other producers are relayed only for the types of relay-policy.ts.

export { Router } from './router.js';
export type {
  Delivered, ProducerName, RoutedSend, RouterOptions, RoutingEvent, RoutingReady, RoutingTimer, RoutingTimerName,
} from './routing-io.js';
export { INFINITE_METRIC } from './route-metrics.js';
