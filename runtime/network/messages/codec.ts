import { compileSchema, FracpackError, type TypeCodec } from '../../../host-api/fracpack/index.js';
import { concatBytes } from '../../../host-api/encoding/bytes.js';
import { P2PMessageError } from './errors.js';
import type { MessageBody, P2PMessage, SignedMessage } from './message.js';
import { MESSAGE_TYPES, isSignedKind, type MessageKind, type SignedKind } from './message-kinds.js';
import { P2P_SCHEMA } from './schema.js';

// Frames are `[type u8][fracpack]` (docs/p2p.md §2.0). Decoding accepts unknown extension fields
// of newer peers, as psibase's from_frac does; everything else is validated, so a frame either
// decodes whole or throws P2P_BAD_MESSAGE.

export const p2pSchema = compileSchema(P2P_SCHEMA);

const DECODE = { compat: true } as const;

/**
 * SignedMessage<T>: a Struct (no header) of the nested body and the signature. nested<T> has the
 * wire form of bytes (u32 size, then the body); decoding checks the body against T separately.
 */
const SignedWrapper = p2pSchema.typeOf({ Struct: { data: 'bytes', signature: 'bytes' } });

interface KindCodec {
  readonly kind: MessageKind;
  readonly type: number;
  readonly signed: boolean;
  readonly body: TypeCodec<unknown>;
}

const BY_KIND = new Map<MessageKind, KindCodec>();
const BY_TYPE = new Map<number, KindCodec>();
for (const [kind, type] of Object.entries(MESSAGE_TYPES) as [MessageKind, number][]) {
  const entry: KindCodec = { kind, type, signed: isSignedKind(kind), body: p2pSchema.type(kind) };
  BY_KIND.set(kind, entry);
  BY_TYPE.set(type, entry);
}

function entryOf(kind: MessageKind): KindCodec {
  const entry = BY_KIND.get(kind);
  if (!entry) throw new P2PMessageError('P2P_UNENCODABLE', `unknown P2P message kind ${JSON.stringify(kind)}`);
  return entry;
}

/** The type byte of a message kind (docs/p2p.md §2.1). */
export function messageType(kind: MessageKind): number {
  return entryOf(kind).type;
}

function withType(type: number, body: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(type), body);
}

/** `value` packed as `codec`; a value that does not fit is a P2P_UNENCODABLE naming the message kind. */
function packFor(entry: KindCodec, codec: TypeCodec<unknown>, value: unknown): Uint8Array {
  try {
    return codec.pack(value);
  } catch (err) {
    if (err instanceof FracpackError) {
      throw new P2PMessageError('P2P_UNENCODABLE', `${entry.kind} (type ${entry.type}): ${err.message}`, { cause: err });
    }
    throw err;
  }
}

/** What a signed message's signature covers: `[type] ‖ fracpack(body)` (docs/p2p.md §2.0). */
export function signingPreimage<K extends SignedKind>(kind: K, body: MessageBody<K>): Uint8Array {
  const entry = entryOf(kind);
  return withType(entry.type, packFor(entry, entry.body, body));
}

/** A signed message from its body and the signature over signingPreimage(kind, body). */
export function signedMessage<K extends SignedKind>(kind: K, body: MessageBody<K>, signature: Uint8Array): SignedMessage<K> {
  const message = { kind, body, signature, preimage: signingPreimage(kind, body) };
  return message as unknown as SignedMessage<K>;
}

/** The frame of a message: `[type][fracpack]`, a signed one as SignedMessage<T>. */
export function encodeMessage(message: P2PMessage): Uint8Array {
  if (message.kind === 'Unknown') {
    throw new P2PMessageError('P2P_UNENCODABLE', `a message of unknown type ${message.type} cannot be encoded`);
  }
  const entry = entryOf(message.kind);
  if (!entry.signed) return withType(entry.type, packFor(entry, entry.body, message.body));
  const { preimage, signature } = message as SignedMessage;
  if (!(preimage instanceof Uint8Array) || preimage[0] !== entry.type) {
    throw new P2PMessageError('P2P_UNENCODABLE', `${entry.kind} (type ${entry.type}): its preimage does not start with the type byte; make it with signedMessage()`);
  }
  return withType(entry.type, packFor(entry, SignedWrapper, { data: preimage.subarray(1), signature }));
}

/**
 * The message in a frame. An unknown type byte gives an UnknownMessage (to be ignored); an empty
 * frame, or a body that is not a valid value of its type, throws P2P_BAD_MESSAGE.
 */
export function decodeMessage(frame: Uint8Array): P2PMessage {
  if (!(frame instanceof Uint8Array) || frame.length === 0) {
    throw new P2PMessageError('P2P_BAD_MESSAGE', 'an empty P2P frame has no type byte');
  }
  const type = frame[0]!;
  const entry = BY_TYPE.get(type);
  if (!entry) return { kind: 'Unknown', type };
  const rest = frame.subarray(1);
  try {
    if (!entry.signed) return { kind: entry.kind, body: entry.body.unpack(rest, DECODE) } as P2PMessage;
    const { data, signature } = SignedWrapper.unpack(rest, DECODE);
    return {
      kind: entry.kind,
      body: entry.body.unpack(data, DECODE),
      signature,
      preimage: withType(type, data),
    } as P2PMessage;
  } catch (err) {
    if (err instanceof FracpackError) {
      throw new P2PMessageError('P2P_BAD_MESSAGE', `${entry.kind} (type ${type}), ${frame.length} bytes: ${err.message} [${err.code}]`, { cause: err });
    }
    throw err;
  }
}
