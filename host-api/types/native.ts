import { NativeTable } from '../abi/keys.js';
import { compileSchema, type TypeCodec, type ValueOf } from '../fracpack/index.js';
import { CORE_SCHEMA } from './schema.js';

// The node <-> service schema: the core types and the rows of the host-owned native tables (docs/host-abi.md §4, §8; docs/chain.md §1.4).
export const NATIVE_SCHEMA = {
  ...CORE_SCHEMA,
  StatusRow: { Object: { chainId: 'Checksum256', current: 'BlockHeader', head: { Option: 'BlockInfo' }, consensus: 'JointConsensus' } },
  CodeRow: { Object: { codeNum: 'AccountNumber', flags: 'u64', codeHash: 'Checksum256', vmType: 'u8', vmVersion: 'u8' } },
  CodeByHashRow: { Object: { codeHash: 'Checksum256', vmType: 'u8', vmVersion: 'u8', numRefs: 'u32', code: 'bytes' } },
  DatabaseStatusRow: { Object: { nextHistoryEventNumber: 'u64', nextUiEventNumber: 'u64', nextMerkleEventNumber: 'u64' } },
  ConfigRow: { Object: { maxKeySize: 'u32', maxValueSize: 'u32' } },
  WasmConfigRow: { Object: { numExecutionMemories: 'u32', vmOptions: 'VMOptions' } },
  NotifyRow: { Object: { type: 'u32', actions: { List: 'Action' } } },
  ScheduledSnapshotRow: { Object: { blockNum: 'u32' } },
  BlockDataRow: { Object: { blockId: 'Checksum256', auxConsensusData: { Option: 'bytes' } } },
  // Snapshots (docs/p2p.md §7.2, §7.3): a block's checksums and their signatures, where the block log starts.
  SnapshotStateItem: { Object: { state: 'StateChecksum', signatures: { List: 'StateSignature' } } },
  SnapshotRow: { Object: { id: 'Checksum256', state: { Option: 'SnapshotStateItem' }, other: { List: 'SnapshotStateItem' } } },
  LogTruncateRow: { Object: { start: 'u32' } },
  // A finished producer change (docs/p2p.md §3.4, §7.3): the blocks that started joint consensus,
  // that the ending block's producer knew irreversible, and that ended it.
  ConsensusChangeRow: { Object: { start: 'u32', commit: 'u32', end: 'u32' } },
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

// The rows' native forms, derived from the schema (fracpack/native-type.ts).
type Native<N extends keyof typeof NATIVE_SCHEMA> = ValueOf<typeof NATIVE_SCHEMA, N>;

export type CodeRow = Native<'CodeRow'>;
export type CodeByHashRow = Native<'CodeByHashRow'>;
export type ConfigRow = Native<'ConfigRow'>;
export type DatabaseStatusRow = Native<'DatabaseStatusRow'>;
export type WasmConfigRow = Native<'WasmConfigRow'>;
export type BlockInfo = Native<'BlockInfo'>;
export type JointConsensus = Native<'JointConsensus'>;
export type StatusRow = Native<'StatusRow'>;
export type NotifyRow = Native<'NotifyRow'>;
export type ScheduledSnapshotRow = Native<'ScheduledSnapshotRow'>;
export type BlockDataRow = Native<'BlockDataRow'>;
export type StateChecksum = Native<'StateChecksum'>;
export type StateSignature = Native<'StateSignature'>;
export type SnapshotStateItem = Native<'SnapshotStateItem'>;
export type SnapshotRow = Native<'SnapshotRow'>;
export type LogTruncateRow = Native<'LogTruncateRow'>;
export type ConsensusChangeRow = Native<'ConsensusChangeRow'>;
export type ProcessTransactionArgs = Native<'ProcessTransactionArgs'>;
export type VerifyArgs = Native<'VerifyArgs'>;
export type TransactionInfo = Native<'TransactionInfo'>;
export type ServeArgs = Native<'ServeArgs'>;
export type LoginData = Native<'LoginData'>;
export type CheckAuthArgs = Native<'CheckAuthArgs'>;
export type AccountArgs = Native<'AccountArgs'>;
export type TransactionCallbackArgs = Native<'TransactionCallbackArgs'>;

export const CodeRow = native.type('CodeRow');
export const CodeByHashRow = native.type('CodeByHashRow');
export const ConfigRow = native.type('ConfigRow');
export const StatusRow = native.type('StatusRow');
export const JointConsensus = native.type('JointConsensus');
export const BlockInfo = native.type('BlockInfo');
export const TransactionInfo = native.type('TransactionInfo');
export const ProcessTransactionArgs = native.type('ProcessTransactionArgs');
export const VerifyArgs = native.type('VerifyArgs');
/**
 * What the http service's `serve` export reads: the request, its socket, the root host it matched
 * and the user its login token names.
 */
export const ServeArgs = native.type('ServeArgs');
export const LoginData = native.type('LoginData');
export const CheckAuthArgs = native.type('CheckAuthArgs');
/** The arguments of an action taking one account (accounts' `exists`, `getAuthOf`). */
export const AccountArgs = native.type('AccountArgs');
export const TransactionCallbackArgs = native.type('TransactionCallbackArgs');
export const DatabaseStatusRow = native.type('DatabaseStatusRow');
export const WasmConfigRow = native.type('WasmConfigRow');
export const NotifyRow = native.type('NotifyRow');
export const ScheduledSnapshotRow = native.type('ScheduledSnapshotRow');
export const BlockDataRow = native.type('BlockDataRow');
export const StateChecksum = native.type('StateChecksum');
export const StateSignature = native.type('StateSignature');
export const SnapshotRow = native.type('SnapshotRow');
export const LogTruncateRow = native.type('LogTruncateRow');
export const ConsensusChangeRow = native.type('ConsensusChangeRow');

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
