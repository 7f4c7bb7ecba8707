// Which databases of docs/host-abi.md §4 the store keeps in LMDB, under which LMDB name, and in which
// undo domain. Chain databases follow forks and are undone with a failed transaction;
// subjective ones are node-local and commit on their own. `session` commits with the subjective
// ones but is held in memory, for the life of the process; `temporary` is not persisted either
// (it lives for one execution context).

import { DbId } from '../../host-api/abi/databases.js';

export const chainDbIds: readonly number[] = [
  DbId.service, DbId.writeOnly, DbId.native, DbId.blockLog, DbId.historyEvent,
  DbId.uiEvent, DbId.merkleEvent, DbId.blockProof, DbId.prevAuthServices,
];

export const subjectiveDbIds: readonly number[] = [DbId.subjective, DbId.nativeSubjective];

/** The subjective undo domain's databases that are held in memory, not in LMDB. */
export const sessionDbIds: readonly number[] = [DbId.session];

export const persistedDbIds: readonly number[] = [...chainDbIds, ...subjectiveDbIds];

/** The LMDB name of a persisted database: its host-abi name, so a data directory is legible. */
export function lmdbNameOf(db: number): string {
  const name = Object.keys(DbId).find((key) => DbId[key as keyof typeof DbId] === db);
  if (name === undefined || !persistedDbIds.includes(db)) throw new RangeError(`database ${db} is not persisted`);
  return name;
}
