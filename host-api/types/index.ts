import { sha256 } from '@noble/hashes/sha2.js';
import { compileSchema, type ValueOf } from '../fracpack/index.js';
import { CORE_SCHEMA } from './schema.js';

// Native (unpacked) forms of the core types, derived from CORE_SCHEMA (fracpack/native-type.ts)
// so they cannot drift from the wire. Packing also accepts the JSON forms: names for accounts and
// methods, hex for bytes, time strings, decimal strings for 64-bit integers.

type Core<N extends keyof typeof CORE_SCHEMA> = ValueOf<typeof CORE_SCHEMA, N>;

/** `expiration`: seconds since 1970. */
export type Tapos = Core<'Tapos'>;
export type Action = Core<'Action'>;
export type Claim = Core<'Claim'>;
export type Transaction = Core<'Transaction'>;
/** `transaction`: the packed Transaction (its body, without a length prefix). */
export type SignedTransaction = Core<'SignedTransaction'>;
export type ServiceMethod = Core<'ServiceMethod'>;
export type Producer = Core<'Producer'>;
export type BlockHeaderCode = Core<'BlockHeaderCode'>;
export type VMOptions = Core<'VMOptions'>;
export type WasmConfig = Core<'WasmConfig'>;
export type Consensus = Core<'Consensus'>;
/** `time`: microseconds since 1970. */
export type BlockHeader = Core<'BlockHeader'>;
export type Block = Core<'Block'>;
/** A block as peers send it (docs/p2p.md §3.1); neither `signature` nor `auxConsensusData` is covered by the block id. */
export type SignedBlock = Core<'SignedBlock'>;
export type GenesisService = Core<'GenesisService'>;
export type GenesisActionData = Core<'GenesisActionData'>;
export type HttpHeader = Core<'HttpHeader'>;
export type HttpRequest = Core<'HttpRequest'>;
export type HttpReply = Core<'HttpReply'>;
export type InnerTrace = Core<'InnerTrace'>;
/** `totalTime`: nanoseconds. */
export type ActionTrace = Core<'ActionTrace'>;
export type TransactionTrace = Core<'TransactionTrace'>;

export const coreSchema = compileSchema(CORE_SCHEMA);

/** The arguments of an action that takes none: an empty Object (its 2-byte header). */
export const NO_ARGUMENTS: Uint8Array = Uint8Array.of(0, 0);

export const Tapos = coreSchema.type('Tapos');
export const Action = coreSchema.type('Action');
export const Claim = coreSchema.type('Claim');
export const Transaction = coreSchema.type('Transaction');
export const SignedTransaction = coreSchema.type('SignedTransaction');
export const ServiceMethod = coreSchema.type('ServiceMethod');
export const BlockHeader = coreSchema.type('BlockHeader');
export const Block = coreSchema.type('Block');
export const SignedBlock = coreSchema.type('SignedBlock');
export const GenesisActionData = coreSchema.type('GenesisActionData');
export const HttpRequest = coreSchema.type('HttpRequest');
export const HttpReply = coreSchema.type('HttpReply');
export const ActionTrace = coreSchema.type('ActionTrace');
export const TransactionTrace = coreSchema.type('TransactionTrace');
/** The body of push_boot: fracpack List<SignedTransaction>. */
export const SignedTransactionList = coreSchema.typeOf({ List: 'SignedTransaction' });

/** Transaction id: SHA-256 of the packed Transaction. */
export function transactionId(packedTransaction: Uint8Array): Uint8Array {
  return sha256(packedTransaction);
}

export { CORE_SCHEMA } from './schema.js';
export { SERVICE_SCHEMA_TYPES, canonicalServiceSchema, serviceSchemaTypes, headServiceSchema, type ServiceSchemaJson } from './service-schema.js';
