import { sha256 } from '@noble/hashes/sha2.js';
import { compileSchema, type TypeCodec } from '../fracpack/index.js';
import { CORE_SCHEMA } from './schema.js';

// Native (unpacked) forms of the core types. Packing also accepts the JSON forms: names for
// accounts and methods, hex for bytes, time strings, decimal strings for 64-bit integers.

export interface Tapos {
  /** Seconds since 1970. */
  expiration: bigint;
  refBlockSuffix: number;
  flags: number;
  refBlockIndex: number;
}
export interface Action { sender: bigint; service: bigint; method: bigint; rawData: Uint8Array }
export interface Claim { service: bigint; rawData: Uint8Array }
export interface Transaction { tapos: Tapos; actions: Action[]; claims: Claim[] }
export interface SignedTransaction {
  /** The packed Transaction (its body, without a length prefix). */
  transaction: Uint8Array;
  proofs: Uint8Array[];
  subjectiveData: Uint8Array[] | null;
}
export interface ServiceMethod { service: bigint; method: bigint }
export interface Producer { name: bigint; auth: Claim }
export interface BlockHeaderCode { vmType: number; vmVersion: number; code: Uint8Array }
export interface Consensus {
  data: { CftConsensus: { producers: Producer[] } } | { BftConsensus: { producers: Producer[] } };
  services: { codeNum: bigint; codeHash: Uint8Array; vmType: number; vmVersion: number }[];
  wasmConfig: {
    numExecutionMemories: number;
    vmOptions: { maxMutableGlobalBytes: number; maxPages: number; maxTableElements: number; maxStackBytes: number };
  };
}
export interface BlockHeader {
  previous: Uint8Array;
  blockNum: number;
  /** Microseconds since 1970. */
  time: bigint;
  producer: bigint;
  term: number;
  commitNum: number;
  consensusState: Uint8Array;
  trxMerkleRoot: Uint8Array;
  eventMerkleRoot: Uint8Array;
  newConsensus: Consensus | null;
  authCode: BlockHeaderCode[] | null;
}
export interface Block { header: BlockHeader; transactions: SignedTransaction[] }
export interface GenesisService { service: bigint; flags: bigint; vmType: number; vmVersion: number; code: Uint8Array }
export interface GenesisActionData { memo: string; services: GenesisService[] }
export interface HttpHeader { name: string; value: string }
export interface HttpRequest {
  host: string;
  method: string;
  target: string;
  contentType: string;
  headers: HttpHeader[];
  body: Uint8Array;
}
export interface HttpReply { status: number; contentType: string; body: Uint8Array; headers: HttpHeader[] }
export type InnerTrace =
  | { inner: { ConsoleTrace: { console: string } } }
  | { inner: { EventTrace: { name: string; data: Uint8Array } } }
  | { inner: { ActionTrace: ActionTrace } };
export interface ActionTrace {
  action: Action;
  rawRetval: Uint8Array;
  innerTraces: InnerTrace[];
  /** Nanoseconds. */
  totalTime: bigint;
  error: string | null;
}
export interface TransactionTrace { actionTraces: ActionTrace[]; error: string | null }

export const coreSchema = compileSchema(CORE_SCHEMA);

/** The arguments of an action that takes none: an empty Object (its 2-byte header). */
export const NO_ARGUMENTS: Uint8Array = Uint8Array.of(0, 0);

export const Tapos: TypeCodec<Tapos> = coreSchema.type('Tapos');
export const Action: TypeCodec<Action> = coreSchema.type('Action');
export const Claim: TypeCodec<Claim> = coreSchema.type('Claim');
export const Transaction: TypeCodec<Transaction> = coreSchema.type('Transaction');
export const SignedTransaction: TypeCodec<SignedTransaction> = coreSchema.type('SignedTransaction');
export const ServiceMethod: TypeCodec<ServiceMethod> = coreSchema.type('ServiceMethod');
export const BlockHeader: TypeCodec<BlockHeader> = coreSchema.type('BlockHeader');
export const Block: TypeCodec<Block> = coreSchema.type('Block');
export const GenesisActionData: TypeCodec<GenesisActionData> = coreSchema.type('GenesisActionData');
export const HttpRequest: TypeCodec<HttpRequest> = coreSchema.type('HttpRequest');
export const HttpReply: TypeCodec<HttpReply> = coreSchema.type('HttpReply');
export const ActionTrace: TypeCodec<ActionTrace> = coreSchema.type('ActionTrace');
export const TransactionTrace: TypeCodec<TransactionTrace> = coreSchema.type('TransactionTrace');
/** The body of push_boot: fracpack List<SignedTransaction>. */
export const SignedTransactionList: TypeCodec<SignedTransaction[]> = coreSchema.typeOf({ List: 'SignedTransaction' });

/** Transaction id: SHA-256 of the packed Transaction. */
export function transactionId(packedTransaction: Uint8Array): Uint8Array {
  return sha256(packedTransaction);
}

export { CORE_SCHEMA } from './schema.js';
