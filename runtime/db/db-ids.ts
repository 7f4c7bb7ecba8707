// The database ids of host-abi §4 as the store sees them: which ones live in LMDB (and under
// which LMDB name), and which undo domain they belong to. Chain databases follow forks and are
// undone with a failed transaction; subjective ones are node-local and commit on their own.

export const DbId = {
  service: 0,
  writeOnly: 1,
  native: 2,
  blockLog: 3,
  historyEvent: 4,
  uiEvent: 5,
  merkleEvent: 6,
  blockProof: 7,
  prevAuthServices: 8,
  subjective: 64,
  nativeSubjective: 65,
  temporary: 67,
} as const;

export type DbId = (typeof DbId)[keyof typeof DbId];

export const chainDbIds: readonly number[] = [
  DbId.service, DbId.writeOnly, DbId.native, DbId.blockLog, DbId.historyEvent,
  DbId.uiEvent, DbId.merkleEvent, DbId.blockProof, DbId.prevAuthServices,
];

export const subjectiveDbIds: readonly number[] = [DbId.subjective, DbId.nativeSubjective];

/** Every database kept in LMDB; `temporary` is not among them (it lives for one context). */
export const persistedDbIds: readonly number[] = [...chainDbIds, ...subjectiveDbIds];

export function isChainDb(db: number): boolean {
  return db >= DbId.service && db <= DbId.prevAuthServices && Number.isInteger(db);
}

export function isSubjectiveDb(db: number): boolean {
  return db === DbId.subjective || db === DbId.nativeSubjective;
}

/** The LMDB database name of a persisted DbId: its host-abi name, so a data directory is legible. */
export function lmdbNameOf(db: number): string {
  const entry = Object.entries(DbId).find(([, id]) => id === db);
  if (!entry || db === DbId.temporary) throw new RangeError(`database ${db} is not persisted`);
  return entry[0];
}
