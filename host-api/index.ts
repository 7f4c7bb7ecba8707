// host-api: the contract shared by the node, services and clients. Nothing here uses
// Node-only APIs, so it runs in browsers as well.

export { TsibaseError } from './errors.js';
export {
  compileSchema, TypeCodec, FracpackError, BUILTIN_TYPES,
  type CompiledSchema, type SchemaOptions, type MemberLoops, type UnpackOptions, type AnyType, type Schema,
  type FracpackErrorCode, type NameForm,
} from './fracpack/index.js';
export { ServiceCodec, type ServiceCodecOptions, type ServiceSchema } from './client/service-codec.js';
export { ServiceClient, type ClientSchema, type Decoders, type SchemaTable } from './client/service-client.js';
export * from './names/index.js';
export * from './types/index.js';
export { bytesToHex, hexToBytes } from './encoding/hex.js';
export { formatTimePoint, parseTimePoint, type TimeUnit } from './encoding/time.js';
export * from './chain/index.js';
export {
  fromPem, generateKeyPair, keyPairFromPkcs8, keyPairFromPrivate, parsePublicKey, privateKeyToPkcs8,
  signData, signDigest, toPem, verifyDigest, type KeyCurve, type KeyPair,
} from './crypto/keys.js';
export * from './boot/index.js';
export { contentTypeOf } from './http/content-types.js';
