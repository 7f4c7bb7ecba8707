// Database ids, execution modes and the access matrix of docs/host-abi.md §4-5, as data, so the host
// enforces them and tools can show them.

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
  session: 66,
  temporary: 67,
} as const;

export type DbId = (typeof DbId)[keyof typeof DbId];

/** transaction = TX, speculative = SPEC, rpc = RPC (queries), callback = CB, verify = VER. */
export type Mode = 'transaction' | 'speculative' | 'rpc' | 'callback' | 'verify';

/** Modes that run a transaction, applied or tried: the ones whose traces are reported. */
export function isTransactionMode(mode: Mode): boolean {
  return mode === 'transaction' || mode === 'speculative';
}

/** Modes that see the subjective database, sockets, the clock and randomness. */
export function isSubjectiveMode(mode: Mode): boolean {
  return mode === 'rpc' || mode === 'callback';
}

export interface DbAccess {
  /** kvGet and the ordered lookups: any key, keys under the caller's prefix only, privileged services only, or none. */
  readonly read: 'any' | 'own' | 'privileged' | 'none';
  /** kvPut/kvRemove: own prefix, own prefix for privileged services, privileged (validated), or none. */
  readonly write: 'own' | 'privileged-own' | 'privileged' | 'none';
  /** putSequential (append) or getSequential (read) on event databases. */
  readonly events: 'append' | 'read' | 'none';
}

const NONE: DbAccess = { read: 'none', write: 'none', events: 'none' };
const access = (read: DbAccess['read'], write: DbAccess['write'], events: DbAccess['events'] = 'none'): DbAccess => ({ read, write, events });

const OBJECTIVE: Partial<Record<number, DbAccess>> = {
  [DbId.service]: access('any', 'own'),
  [DbId.writeOnly]: access('none', 'own'),
  [DbId.native]: access('any', 'privileged'),
  [DbId.historyEvent]: access('none', 'none', 'append'),
  [DbId.uiEvent]: access('none', 'none', 'append'),
  [DbId.merkleEvent]: access('none', 'none', 'append'),
};

const QUERY: Partial<Record<number, DbAccess>> = {
  [DbId.service]: access('any', 'none'),
  [DbId.writeOnly]: access('any', 'none'),
  [DbId.native]: access('any', 'none'),
  [DbId.blockLog]: access('any', 'none'),
  [DbId.historyEvent]: access('none', 'none', 'read'),
  [DbId.uiEvent]: access('none', 'none', 'read'),
  [DbId.merkleEvent]: access('none', 'none', 'read'),
  [DbId.subjective]: access('own', 'privileged-own'),
  [DbId.nativeSubjective]: access('privileged', 'privileged'),
  [DbId.session]: access('own', 'privileged-own'),
  [DbId.temporary]: access('own', 'privileged-own'),
};

const CALLBACK: Partial<Record<number, DbAccess>> = {
  ...QUERY,
  [DbId.writeOnly]: access('any', 'own'),
};

const MATRIX: Record<Mode, Partial<Record<number, DbAccess>>> = {
  transaction: OBJECTIVE,
  speculative: OBJECTIVE,
  rpc: QUERY,
  callback: CALLBACK,
  verify: {},
};

/** What a service may do to database `db` in `mode` (everything else aborts). */
export function dbAccess(mode: Mode, db: number): DbAccess {
  return MATRIX[mode][db] ?? NONE;
}

/** Databases whose keys start with the owning service's account; iteration cannot cross owners. */
export function isPrefixedDb(db: number): boolean {
  return db === DbId.service || db === DbId.writeOnly || db === DbId.subjective || db === DbId.session || db === DbId.temporary;
}

export const EVENT_DBS: readonly number[] = [DbId.historyEvent, DbId.uiEvent, DbId.merkleEvent];

/** Account code flags (docs/host-abi.md §6). */
export const CodeFlags = {
  isPrivileged: 1n << 0n,
  isVerify: 1n << 1n,
} as const;

/**
 * The limits the host enforces (docs/host-abi.md §10): the one source for admission and the
 * execution meter. The wasm config the consensus carries is psibase's (wasm-config.ts).
 */
export const Limits = {
  maxKeySize: 128,
  maxValueSize: 8 * 1024 * 1024,
  maxServicesPerContext: 32,
  maxSubjectiveDepth: 8,
  /** kvRange stops after the row that brings its reply to this many bytes (docs/host-abi.md §3). */
  maxRangeReplyBytes: 1024 * 1024,
  /** Wasm stack bytes reserved per `call`. */
  callStackReserve: 4096,
  maxMemoryPages: 512,
  maxTableElements: 8192,
  maxMutableGlobalBytes: 1024,
  /**
   * Wasm stack shared by all nested executions of a context. Estimates are upper bounds of V8's
   * real frames, so half of Node's default ~984 KiB native stack leaves room for the host's own
   * frames between nested calls.
   */
  maxStackBytes: 512 * 1024,
} as const;

/** The "not found" size returned by data-returning imports. */
export const NONE_SIZE = 0xffffffff;
