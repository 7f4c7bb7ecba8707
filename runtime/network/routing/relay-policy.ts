import type { P2PMessage } from '../messages/index.js';

// What a node relays inside a RoutingEnvelope addressed to someone else (docs/p2p.md §A): the
// types psibase gives a validate_message, and forwarded transactions. The CFT messages and
// WasmProducerMessage go on at once; Prepare, Commit and StateChecksum go on once the next hop has
// their block (psibase's send_after_block). Signed ones are relayed only after their signature
// checks out; anything else is dropped. psibase relays no WasmProducerMessage, so there only a
// leader's neighbours get transactions; tsibase relays them so that a transaction pushed anywhere
// reaches the leader (docs/p2p.md "What we build" 4).

export type RelayRule =
  | { readonly relay: false }
  | { readonly relay: true; readonly afterBlock?: Uint8Array };

export function relayRule(inner: P2PMessage): RelayRule {
  switch (inner.kind) {
    case 'ConfirmMessage':
    case 'RequestVoteRequest':
    case 'RequestVoteResponse':
    case 'WasmProducerMessage':
      return { relay: true };
    case 'PrepareMessage':
    case 'CommitMessage':
    case 'StateChecksumMessage':
      return { relay: true, afterBlock: inner.body.blockId };
    default:
      return { relay: false };
  }
}
