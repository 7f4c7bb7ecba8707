import { DbId } from '../../host-api/abi/databases.js';
import { consensusChangeKey, NativeTable, nativeTableKey } from '../../host-api/abi/keys.js';
import { ConsensusChangeRow } from '../../host-api/types/native.js';
import { rowsOf } from '../db/prefix-rows.js';
import type { KvReader, KvWriter } from '../db/store.js';

// The finished producer changes (docs/p2p.md §3.4, §7.3): psibase's subjective ConsensusChangeRow
// (native-subjective table 10, keyed by the block that started the change). The block that ends
// joint consensus writes one; snapshots carry the headers of its three blocks, which let a new node
// follow the producer sets from genesis (light validation).

const PREFIX = nativeTableKey(NativeTable.consensusChange).finish();

export function writeConsensusChange(db: KvWriter, row: ConsensusChangeRow): void {
  db.put(DbId.nativeSubjective, consensusChangeKey(row.start), ConsensusChangeRow.pack(row));
}

/** Every recorded change, by start block ascending. */
export function readConsensusChanges(db: KvReader): ConsensusChangeRow[] {
  return [...rowsOf(db, DbId.nativeSubjective, PREFIX)].map((row) => ConsensusChangeRow.unpack(row.value));
}
