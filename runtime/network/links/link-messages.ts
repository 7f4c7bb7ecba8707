import { concatBytes } from '../../../host-api/encoding/bytes.js';
import { compileSchema, FracpackError } from '../../../host-api/fracpack/index.js';
import { LinkError } from './link-error.js';

// The link layer's own messages, psibase's x-peers messages (docs/p2p.md §1.4), framed
// `[type u8][u32 LE size][fracpack(T)]`: the type byte, then T nested (FracPack<T>).

const SCHEMA = {
  IdMessage: { Object: { nodeId: 'u64', connectionId: 'i32' } },
  DuplicateConnectionMessage: { Object: { connectionId: 'i32', secure: 'bool' } },
  HostnamesMessage: { Object: { hosts: { List: 'string' } } },
  CheckDuplicatesMessage: { Object: {} },
} as const;

const schema = compileSchema(SCHEMA);

/** Frames whose first byte is this or more belong to the link layer (docs/p2p.md §1.2). */
export const FIRST_LINK_TYPE = 64;

export type LinkMessage =
  | { readonly kind: 'id'; readonly nodeId: bigint; readonly connectionId: number }
  | { readonly kind: 'duplicateConnection'; readonly connectionId: number; readonly secure: boolean }
  | { readonly kind: 'hostnames'; readonly hosts: readonly string[] }
  | { readonly kind: 'checkDuplicates' };

const TYPES = {
  id: { type: 64, codec: schema.typeOf({ FracPack: 'IdMessage' }) },
  duplicateConnection: { type: 65, codec: schema.typeOf({ FracPack: 'DuplicateConnectionMessage' }) },
  hostnames: { type: 66, codec: schema.typeOf({ FracPack: 'HostnamesMessage' }) },
  checkDuplicates: { type: 67, codec: schema.typeOf({ FracPack: 'CheckDuplicatesMessage' }) },
} as const;

const KIND_OF_TYPE = new Map<number, LinkMessage['kind']>(Object.entries(TYPES).map(([kind, { type }]) => [type, kind as LinkMessage['kind']]));

export function encodeLinkMessage(message: LinkMessage): Uint8Array {
  const { kind, ...fields } = message;
  const { type, codec } = TYPES[kind];
  return concatBytes(Uint8Array.of(type), codec.pack(fields));
}

/** Decodes a frame of type 64 or more; a LinkError names what is wrong with any other. */
export function decodeLinkMessage(frame: Uint8Array): LinkMessage {
  if (frame.length === 0) throw new LinkError('P2P_BAD_LINK_MESSAGE', 'an empty frame');
  const kind = KIND_OF_TYPE.get(frame[0]!);
  if (!kind) throw new LinkError('P2P_BAD_LINK_MESSAGE', `unknown link message type ${frame[0]}`);
  try {
    // Newer versions of these structs may add fields: accept them (compat).
    const fields = TYPES[kind].codec.unpack(frame.subarray(1), { compat: true }) as object;
    return { kind, ...fields } as LinkMessage;
  } catch (err) {
    if (err instanceof FracpackError) throw new LinkError('P2P_BAD_LINK_MESSAGE', `link message type ${frame[0]}: ${err.message}`);
    throw err;
  }
}
