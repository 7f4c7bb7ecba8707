import type { BlockXid } from './block-header.js';

// The two messages of block sync (docs/p2p.md §2.2, types 32 and 34) in the kind/body shape of
// runtime/network/messages, with ids as hex and the block as whatever the caller's block type
// is: the caller converts between these and the wire messages.

/** 32: "I have this block"; `committed` means it is irreversible for the sender. */
export interface HelloRequest {
  readonly kind: 'HelloRequest';
  readonly body: { readonly xid: BlockXid; readonly committed: boolean };
}

/** 34: one block of the sender's best chain. */
export interface BlockMessage<B> {
  readonly kind: 'BlockMessage';
  readonly body: { readonly block: B };
}

export type SyncMessage<B> = HelloRequest | BlockMessage<B>;
