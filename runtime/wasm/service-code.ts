import { DbId } from '../../host-api/abi/databases.js';
import { codeByHashKey, codeKey } from '../../host-api/abi/keys.js';
import { CodeByHashRow, CodeRow } from '../../host-api/types/native.js';
import { sha256 } from '../crypto/sha256.js';
import type { KvReader, KvWriter, Store } from '../db/store.js';
import { NativeRowCache } from './native-row-cache.js';

// Service code lives in two native tables: `code` (account -> flags, code hash) and
// `codeByHash` (hash -> bytes, reference count), so identical code is stored once.

export interface ServiceCode {
  readonly account: bigint;
  readonly flags: bigint;
  readonly codeHash: Uint8Array;
  /** Reads the code bytes (only needed when the module is not compiled yet). */
  readonly code: () => Uint8Array;
}

export function readServiceCode(db: KvReader, account: bigint): ServiceCode | undefined {
  const row = db.get(DbId.native, codeKey(account));
  if (!row) return undefined;
  const code = CodeRow.unpack(row);
  if (code.codeHash.every((b) => b === 0)) return undefined;
  return {
    account,
    flags: code.flags,
    codeHash: code.codeHash,
    code: () => {
      const stored = db.get(DbId.native, codeByHashKey(code.codeHash, code.vmType, code.vmVersion));
      if (!stored) throw new Error(`code ${Buffer.from(code.codeHash).toString('hex')} of account ${account} is missing`);
      return CodeByHashRow.unpack(stored).code;
    },
  };
}

const serviceCodes = new NativeRowCache<bigint, ServiceCode | undefined>(readServiceCode);

/** readServiceCode through a cache that holds until the store's code rows may have changed. */
export function serviceCodeOf(store: Store, account: bigint): ServiceCode | undefined {
  return serviceCodes.get(store, account);
}

/** Sets (or, with empty code, clears) an account's code and flags, keeping reference counts. */
export function writeServiceCode(db: KvReader & KvWriter, account: bigint, code: Uint8Array, flags: bigint): Uint8Array {
  const previous = db.get(DbId.native, codeKey(account));
  if (previous) release(db, CodeRow.unpack(previous).codeHash);
  const codeHash = code.length ? sha256(code) : new Uint8Array(32);
  db.put(DbId.native, codeKey(account), CodeRow.pack({ codeNum: account, flags, codeHash, vmType: 0, vmVersion: 0 }));
  if (code.length) {
    const key = codeByHashKey(codeHash);
    const stored = db.get(DbId.native, key);
    const numRefs = stored ? CodeByHashRow.unpack(stored).numRefs + 1 : 1;
    db.put(DbId.native, key, CodeByHashRow.pack({ codeHash, vmType: 0, vmVersion: 0, numRefs, code }));
  }
  return codeHash;
}

function release(db: KvReader & KvWriter, codeHash: Uint8Array): void {
  if (codeHash.every((b) => b === 0)) return;
  const key = codeByHashKey(codeHash);
  const stored = db.get(DbId.native, key);
  if (!stored) return;
  const row = CodeByHashRow.unpack(stored);
  if (row.numRefs <= 1) db.remove(DbId.native, key);
  else db.put(DbId.native, key, CodeByHashRow.pack({ ...row, numRefs: row.numRefs - 1 }));
}
