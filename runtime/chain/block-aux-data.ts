import { DbId } from '../../host-api/abi/databases.js';
import { blockDataKey } from '../../host-api/abi/keys.js';
import { BlockDataRow } from '../../host-api/types/native.js';
import type { KvReader, Store } from '../db/store.js';

// A block's auxConsensusData (docs/p2p.md §3.5) is not covered by its id or signature, so it is
// kept apart from the block log, as psibase keeps it: the BlockDataRow of native-subjective
// table 9, keyed by block id. A node re-sends a block with the aux data it received.

/** Keeps (and commits, on the subjective side) the aux data a block carried, when it carried any. */
export function keepAuxConsensusData(store: Store, blockId: Uint8Array, auxConsensusData: Uint8Array | null): void {
  if (auxConsensusData === null) return;
  store.put(DbId.nativeSubjective, blockDataKey(blockId), BlockDataRow.pack({ blockId, auxConsensusData }));
  store.subjective.commit();
}

export function readAuxConsensusData(db: KvReader, blockId: Uint8Array): Uint8Array | null {
  const row = db.get(DbId.nativeSubjective, blockDataKey(blockId));
  return row ? BlockDataRow.unpack(row).auxConsensusData : null;
}
