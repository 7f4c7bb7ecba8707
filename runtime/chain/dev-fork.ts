import { equalBytes } from '../../host-api/encoding/bytes.js';
import { JointConsensus } from '../../host-api/types/native.js';
import type { Store } from '../db/store.js';
import { EMPTY_CLAIM } from './block-signing.js';
import { readStatus, writeStatus } from './chain-state.js';
import { nextBlockConsensus } from './consensus.js';

// A development fork (docs/chain.md §9) produces its own blocks as one producer, whatever the
// producer set of the chain it was forked from: the state's consensus is replaced by CFT with
// that producer alone and the empty claim (unsigned blocks), keeping the verify services and
// wasm config the next block would start under. The change is written at the head, in no block:
// a fork's blocks are valid on the fork alone.

/** Makes `producer` the sole producer of the state's consensus (committed at once), unless it is already. */
export function takeOverProduction(store: Store, producer: bigint): void {
  const status = readStatus(store);
  if (!status?.head) return;
  const joint = nextBlockConsensus(status);
  const kept = joint.next?.consensus ?? joint.current;
  const consensus: JointConsensus = {
    current: { data: { CftConsensus: { producers: [{ name: producer, auth: EMPTY_CLAIM }] } }, services: kept.services, wasmConfig: kept.wasmConfig },
    next: null,
  };
  if (equalBytes(JointConsensus.pack(consensus), JointConsensus.pack(status.consensus))) return;
  writeStatus(store, { ...status, consensus });
  store.commit();
}
