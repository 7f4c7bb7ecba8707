// psibase's native P2P messages (docs/p2p.md §2), byte-exact.
//
//   decodeMessage(frame)   a received frame (one binary WebSocket message whose first byte is
//                          below 64, §1.2) → P2PMessage. Unknown types give {kind: 'Unknown'}
//                          (ignore them, §2.0); an empty or undecodable frame throws
//                          P2PMessageError P2P_BAD_MESSAGE (close the link, §2.0).
//   encodeMessage(msg)     P2PMessage → frame.
//   signingPreimage(kind, body)          the bytes a producer signs: [type] ‖ fracpack(body).
//   signedMessage(kind, body, signature) the signed message to encode.
//
// A P2PMessage is {kind, body}: `kind` is the psibase name (InitMessage, RoutingEnvelope, …,
// WasmProducerMessage), `body` the decoded fields (P2P_SCHEMA, camelCase names). Signed kinds
// (Confirm, RequestVote*, Prepare, Commit, ViewChange, WasmProducer) also carry `signature` and
// `preimage`, the exact signed bytes. BlockMessage / BlockHeaderMessage carry the decoded
// SignedBlock; BlockConfirm (the content of auxConsensusData) is `p2pSchema.type('BlockConfirm')`.

export { decodeMessage, encodeMessage, messageType, p2pSchema, signedMessage, signingPreimage } from './codec.js';
export { P2PMessageError, type P2PMessageErrorCode } from './errors.js';
export type { MessageBody, MessageOf, P2PMessage, SignedMessage, UnknownMessage, UnsignedMessage } from './message.js';
export { MESSAGE_TYPES, SIGNED_TYPES, UNSIGNED_TYPES, type MessageKind, type SignedKind, type UnsignedKind } from './message-kinds.js';
export { P2P_SCHEMA } from './schema.js';
