// The native P2P message types (docs/p2p.md §2.1): the type byte of each message and whether it
// travels as a SignedMessage (§2.0). A message's kind is the name of its body in P2P_SCHEMA.
// A prepare's and a commit's come with the formats of a block's commit proof (chain/commit-proofs.ts).

import { CONFIRM_TYPES } from '../../chain/commit-proofs.js';

export const UNSIGNED_TYPES = {
  InitMessage: 1,
  RoutingEnvelope: 3,
  RouteUpdateMessage: 4,
  RouteSeqnoRequest: 5,
  RequestRoutesMessage: 6,
  HelloRequest: 32,
  BlockMessage: 34,
  RequestViewMessage: 41,
  StateChecksumMessage: 42,
  SnapshotPartMessage: 43,
  BlockHeaderMessage: 44,
  SnapshotVerifyMessage: 45,
} as const;

export const SIGNED_TYPES = {
  ConfirmMessage: 35,
  RequestVoteRequest: 36,
  RequestVoteResponse: 37,
  ...CONFIRM_TYPES,
  ViewChangeMessage: 40,
  /** Only ever inside a RoutingEnvelope: as an outer frame, 64 belongs to x-peers (§1.2). */
  WasmProducerMessage: 64,
} as const;

export type UnsignedKind = keyof typeof UNSIGNED_TYPES;
export type SignedKind = keyof typeof SIGNED_TYPES;
export type MessageKind = UnsignedKind | SignedKind;

export const MESSAGE_TYPES: Readonly<Record<MessageKind, number>> = { ...UNSIGNED_TYPES, ...SIGNED_TYPES };

export function isSignedKind(kind: MessageKind): kind is SignedKind {
  return Object.hasOwn(SIGNED_TYPES, kind);
}
