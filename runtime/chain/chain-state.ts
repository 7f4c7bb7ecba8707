import { DbId } from '../../host-api/abi/databases.js';
import { statusKey } from '../../host-api/abi/keys.js';
import { StatusRow } from '../../host-api/types/native.js';
import type { KvReader, KvWriter } from '../db/store.js';

// The native status row (docs/chain.md §1.4): chain id, the block being built, the head block and
// the consensus. Services read it; only the node writes it.

export function readStatus(db: KvReader): StatusRow | undefined {
  const bytes = db.get(DbId.native, statusKey());
  return bytes ? StatusRow.unpack(bytes) : undefined;
}

export function writeStatus(db: KvWriter, status: StatusRow): void {
  db.put(DbId.native, statusKey(), StatusRow.pack(status));
}
