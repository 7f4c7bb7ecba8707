import { CodeFlags, DbId } from '../../host-api/abi/databases.js';
import { codeByHashKey, nativeTableKey, NativeTable } from '../../host-api/abi/keys.js';
import { DEFAULT_WASM_CONFIG } from '../../host-api/abi/wasm-config.js';
import { equalBytes } from '../../host-api/encoding/bytes.js';
import { bytesToHex } from '../../host-api/encoding/hex.js';
import { coreSchema, type BlockHeaderCode, type Consensus, type WasmConfig } from '../../host-api/types/index.js';
import { CodeByHashRow, CodeRow, WasmConfigRow } from '../../host-api/types/native.js';
import { rowsOf } from '../db/prefix-rows.js';
import type { KvReader } from '../db/store.js';

// The verify services and the proof wasm config are part of the consensus (docs/p2p.md §3.4,
// psibase's updateAuthServices): what a block ends with is compared with the consensus it would
// otherwise keep, and a difference starts a change of its own with the same producers.

type AuthService = Consensus['services'][number];

const CODE_PREFIX = nativeTableKey(NativeTable.code).finish();
const PROOF_WASM_CONFIG_KEY = nativeTableKey(NativeTable.proofWasmConfig).finish();
const AuthState = coreSchema.typeOf({ Object: { services: { List: 'BlockHeaderAuthAccount' }, wasmConfig: 'WasmConfig' } });

/** A change of verify services or proof wasm config, and the code the block's header carries for it. */
export interface AuthServicesChange {
  /** Every service whose code row has isVerify and whose code is stored, by account number. */
  readonly services: AuthService[];
  readonly wasmConfig: WasmConfig;
  /** The code of the services whose code (hash, vmType, vmVersion) the previous list did not use, once each. */
  readonly authCode: BlockHeaderCode[];
}

function codeKeyOf(service: AuthService): string {
  return bytesToHex(codeByHashKey(service.codeHash, service.vmType, service.vmVersion));
}

/** The code rows with isVerify, in account order (the code table's key order). */
export function verifyCodeRows(db: KvReader): AuthService[] {
  const services: AuthService[] = [];
  for (const entry of rowsOf(db, DbId.native, CODE_PREFIX)) {
    const row = CodeRow.unpack(entry.value);
    if ((row.flags & CodeFlags.isVerify) !== 0n) services.push({ codeNum: row.codeNum, codeHash: row.codeHash, vmType: row.vmType, vmVersion: row.vmVersion });
  }
  return services;
}

/** The verify services a block ends with: the isVerify code rows without those whose code is gone. */
function verifyServices(db: KvReader): AuthService[] {
  const stored = new Map<string, boolean>();
  return verifyCodeRows(db).filter((service) => {
    const key = codeKeyOf(service);
    if (!stored.has(key)) stored.set(key, db.get(DbId.native, codeByHashKey(service.codeHash, service.vmType, service.vmVersion)) !== undefined);
    return stored.get(key)!;
  });
}

/** The proof wasm config row, or the row's defaults while none is written. */
function proofWasmConfig(db: KvReader): WasmConfig {
  const row = db.get(DbId.native, PROOF_WASM_CONFIG_KEY);
  return row ? WasmConfigRow.unpack(row) : DEFAULT_WASM_CONFIG;
}

/**
 * Compares the state's verify services and proof wasm config with `previous` (the pending
 * consensus, else the current one). `codeChanged` false says no code row can have changed since
 * `previous` was derived from the state, so its list still holds. Null when nothing differs.
 */
export function authServicesChange(db: KvReader, previous: Consensus, codeChanged: boolean): AuthServicesChange | null {
  const services = codeChanged ? verifyServices(db) : previous.services;
  const wasmConfig = proofWasmConfig(db);
  if (equalBytes(AuthState.pack({ services, wasmConfig }), AuthState.pack({ services: previous.services, wasmConfig: previous.wasmConfig }))) return null;
  const known = new Set(previous.services.map(codeKeyOf));
  const authCode: BlockHeaderCode[] = [];
  for (const service of services) {
    const key = codeKeyOf(service);
    if (known.has(key)) continue;
    known.add(key);
    const { vmType, vmVersion, code } = CodeByHashRow.unpack(db.get(DbId.native, codeByHashKey(service.codeHash, service.vmType, service.vmVersion))!);
    authCode.push({ vmType, vmVersion, code });
  }
  return { services, wasmConfig, authCode };
}
