import { NativeTable } from '../abi/keys.js';
import { compileSchema, type TypeCodec } from '../fracpack/index.js';
import type { Action, BlockHeader, Claim, Consensus, HttpRequest, ServiceMethod, TransactionTrace } from './index.js';
import { CORE_SCHEMA } from './schema.js';

// Rows of the host-owned native tables (host-abi §4, §8; docs/chain.md §1.4).
const NATIVE_SCHEMA = {
  ...CORE_SCHEMA,
  StatusRow: { Object: { chainId: 'Checksum256', current: 'BlockHeader', head: { Option: 'BlockInfo' }, consensus: 'JointConsensus' } },
  CodeRow: { Object: { codeNum: 'AccountNumber', flags: 'u64', codeHash: 'Checksum256', vmType: 'u8', vmVersion: 'u8' } },
  CodeByHashRow: { Object: { codeHash: 'Checksum256', vmType: 'u8', vmVersion: 'u8', numRefs: 'u32', code: 'bytes' } },
  DatabaseStatusRow: { Object: { nextHistoryEventNumber: 'u64', nextUiEventNumber: 'u64', nextMerkleEventNumber: 'u64' } },
  ConfigRow: { Object: { maxKeySize: 'u32', maxValueSize: 'u32' } },
  WasmConfigRow: { Object: { numExecutionMemories: 'u32', vmOptions: 'VMOptions' } },
  NotifyRow: { Object: { type: 'u32', actions: { List: 'Action' } } },
  ScheduledSnapshotRow: { Object: { blockNum: 'u32' } },
  // The node <-> transact and node <-> http contracts (docs/system-services.md).
  ProcessTransactionArgs: { Object: { transaction: 'bytes', id: 'Checksum256', speculative: 'bool' } },
  VerifyArgs: { Object: { transactionHash: 'Checksum256', claim: 'Claim', proof: 'bytes' } },
  TransactionCallbackArgs: { Object: { id: 'Checksum256', trace: 'TransactionTrace' } },
  ServeArgs: { Object: { socket: 'i32', request: 'HttpRequest', rootHost: 'string', user: { Option: 'AccountNumber' } } },
  // Login (docs/chain.md §7): loginSys's data, and the auth interface call that approves the user.
  LoginData: { Object: { rootHost: 'string' } },
  CheckAuthArgs: {
    Object: {
      flags: 'u32', requester: 'AccountNumber', sender: 'AccountNumber', action: 'ServiceMethod',
      allowedActions: { List: 'ServiceMethod' }, claims: { List: 'Claim' },
    },
  },
  AccountArgs: { Object: { account: 'AccountNumber' } },
} as const;

const native = compileSchema(NATIVE_SCHEMA);

export interface CodeRow { codeNum: bigint; flags: bigint; codeHash: Uint8Array; vmType: number; vmVersion: number }
export interface CodeByHashRow { codeHash: Uint8Array; vmType: number; vmVersion: number; numRefs: number; code: Uint8Array }
export interface ConfigRow { maxKeySize: number; maxValueSize: number }

export interface BlockInfo { header: BlockHeader; blockId: Uint8Array }
export interface JointConsensus { current: Consensus; next: { consensus: Consensus; blockNum: number } | null }
export interface StatusRow { chainId: Uint8Array; current: BlockHeader; head: BlockInfo | null; consensus: JointConsensus }
export interface NotifyRow { type: number; actions: Action[] }
export interface ProcessTransactionArgs { transaction: Uint8Array; id: Uint8Array; speculative: boolean }
export interface VerifyArgs { transactionHash: Uint8Array; claim: Claim; proof: Uint8Array }
export interface TransactionInfo { transactionId: Uint8Array; signatureHash: Uint8Array; subjectiveDataHash: Uint8Array }

export const CodeRow: TypeCodec<CodeRow> = native.type('CodeRow');
export const CodeByHashRow: TypeCodec<CodeByHashRow> = native.type('CodeByHashRow');
export const ConfigRow: TypeCodec<ConfigRow> = native.type('ConfigRow');
export const StatusRow: TypeCodec<StatusRow> = native.type('StatusRow');
export const JointConsensus: TypeCodec<JointConsensus> = native.type('JointConsensus');
export const BlockInfo: TypeCodec<BlockInfo> = native.type('BlockInfo');
export const TransactionInfo: TypeCodec<TransactionInfo> = native.type('TransactionInfo');
export const ProcessTransactionArgs: TypeCodec<ProcessTransactionArgs> = native.type('ProcessTransactionArgs');
export const VerifyArgs: TypeCodec<VerifyArgs> = native.type('VerifyArgs');
/**
 * What the http service's `serve` export reads: the request, its socket, the root host it matched
 * and the user its login token names.
 */
export const ServeArgs: TypeCodec<{ socket: number; request: HttpRequest; rootHost: string; user: bigint | null }> = native.type('ServeArgs');
export const LoginData: TypeCodec<{ rootHost: string }> = native.type('LoginData');
export interface CheckAuthArgs {
  flags: number; requester: bigint; sender: bigint; action: ServiceMethod; allowedActions: ServiceMethod[]; claims: Claim[];
}
export const CheckAuthArgs: TypeCodec<CheckAuthArgs> = native.type('CheckAuthArgs');
/** The arguments of an action taking one account (accounts' `exists`, `getAuthOf`). */
export const AccountArgs: TypeCodec<{ account: bigint }> = native.type('AccountArgs');
export const TransactionCallbackArgs: TypeCodec<{ id: Uint8Array; trace: TransactionTrace }> = native.type('TransactionCallbackArgs');
export const DatabaseStatusRow: TypeCodec = native.type('DatabaseStatusRow');
export const WasmConfigRow: TypeCodec = native.type('WasmConfigRow');
export const NotifyRow: TypeCodec<NotifyRow> = native.type('NotifyRow');
export const ScheduledSnapshotRow: TypeCodec = native.type('ScheduledSnapshotRow');

/** Native tables whose rows a privileged service may write, with the codec that validates them. */
export const WRITABLE_NATIVE_ROWS: ReadonlyMap<number, TypeCodec | undefined> = new Map<number, TypeCodec | undefined>([
  [NativeTable.status, StatusRow],
  [NativeTable.code, CodeRow],
  [NativeTable.codeByHash, CodeByHashRow],
  [NativeTable.transactionWasmConfig, WasmConfigRow],
  [NativeTable.proofWasmConfig, WasmConfigRow],
  [NativeTable.config, ConfigRow],
  [NativeTable.notify, undefined], // notify rows are not checked
  [NativeTable.scheduledSnapshot, ScheduledSnapshotRow],
]);
