import type { ValueOf } from '../../../host-api/fracpack/index.js';
import type { MessageKind, SignedKind, UnsignedKind } from './message-kinds.js';
import type { P2P_SCHEMA } from './schema.js';

/** The decoded body of a message kind, derived from P2P_SCHEMA so it cannot drift from the wire. */
export type MessageBody<K extends MessageKind> = ValueOf<typeof P2P_SCHEMA, K>;

/** A message sent as is: `[type][fracpack(body)]`. */
export type UnsignedMessage<K extends UnsignedKind = UnsignedKind> = {
  [P in K]: { readonly kind: P; readonly body: MessageBody<P> };
}[K];

/**
 * A message sent as psibase's SignedMessage<T> (docs/p2p.md §2.0). `preimage` is what the
 * signature covers, `[type] ‖ fracpack(body)`: the bytes as received for a decoded message, so a
 * signature check and a relay use exactly what the signer produced. Make one with signedMessage().
 */
export type SignedMessage<K extends SignedKind = SignedKind> = {
  [P in K]: {
    readonly kind: P;
    readonly body: MessageBody<P>;
    readonly signature: Uint8Array;
    readonly preimage: Uint8Array;
  };
}[K];

/** A type byte this node does not know: ignored, as psibase does (docs/p2p.md §2.0). */
export interface UnknownMessage {
  readonly kind: 'Unknown';
  readonly type: number;
}

export type P2PMessage = UnsignedMessage | SignedMessage | UnknownMessage;

/** The message of one kind, e.g. `MessageOf<'RouteUpdateMessage'>`. */
export type MessageOf<K extends MessageKind> = K extends SignedKind ? SignedMessage<K>
  : K extends UnsignedKind ? UnsignedMessage<K> : never;
