import { DbId, type Mode } from './databases.js';

// The databases of the handle generation (docs/host-abi.md §12.3): psibase HEAD's database ids,
// the tsibase database each one is, and who may open it (kvOpen) in which mode and run mode.

/** psibase HEAD's DbId: the numbers kvOpen takes in a handle-generation module. */
export const HandleDbId = {
  service: 0,
  writeOnly: 1,
  native: 2,
  blockLog: 3,
  blockProof: 4,
  prevAuthServices: 5,
  subjective: 64,
  nativeSubjective: 65,
  session: 66,
  nativeSession: 67,
  temporary: 68,
} as const;

/** psibase's KvMode: a handle reads, writes or both. */
export const KvMode = { none: 0, read: 1, write: 2, readWrite: 3 } as const;

/** The handle limit per service and context (psibase's WasmConfigRow.maxHandles, not part of its packed row). */
export const MAX_HANDLES = 64;

/** The invalid handle (psibase's KvHandle::invalid). */
export const INVALID_HANDLE = 0xffffffff;

const STORE_DB: Readonly<Record<number, DbId>> = {
  [HandleDbId.service]: DbId.service,
  [HandleDbId.writeOnly]: DbId.writeOnly,
  [HandleDbId.native]: DbId.native,
  [HandleDbId.blockLog]: DbId.blockLog,
  [HandleDbId.subjective]: DbId.subjective,
  [HandleDbId.nativeSubjective]: DbId.nativeSubjective,
  [HandleDbId.session]: DbId.session,
  [HandleDbId.temporary]: DbId.temporary,
};

/** The tsibase database a handle-generation id stands for; undefined for the ones no service may open here. */
export function storeDbOf(handleDb: number): DbId | undefined {
  return STORE_DB[handleDb];
}

function isSubjective(mode: Mode): boolean {
  return mode === 'rpc' || mode === 'callback';
}

/** psibase's "sync" run modes: those that may write (a transaction, tried or applied, and callbacks). */
function isSync(mode: Mode): boolean {
  return mode === 'transaction' || mode === 'speculative' || mode === 'callback';
}

/**
 * Why a privileged service may not open `handleDb` for reading (`read`) and/or writing (`write`)
 * in run mode `mode`, or undefined when it may: psibase's kvOpen rules, with tsibase's privileged
 * chain services in the place of psibase's node-local services (tsibase has none).
 */
export function openRefusal(mode: Mode, handleDb: number, read: boolean, write: boolean): string | undefined {
  switch (handleDb) {
    case HandleDbId.service:
    case HandleDbId.native:
      if (mode === 'verify') return 'database access disabled during proof verification';
      if (write && isSubjective(mode)) return 'database cannot be written in subjective context';
      if (write && !isSync(mode)) return 'database cannot be written in async context';
      return undefined;
    case HandleDbId.blockLog:
    case HandleDbId.writeOnly:
      if (read && !isSubjective(mode)) return 'subjective databases cannot be read in a deterministic context';
      if (write && !isSync(mode)) return 'database cannot be written in async context';
      return undefined;
    case HandleDbId.nativeSubjective:
      if (write) return "nativeSubjective holds the node's own tables here (block data, snapshots); services may only read it";
      if (!isSubjective(mode)) return 'subjective databases cannot be accessed in a deterministic context';
      return undefined;
    case HandleDbId.subjective:
    case HandleDbId.session:
    case HandleDbId.temporary:
      if (!isSubjective(mode)) return 'subjective databases cannot be accessed in a deterministic context';
      return undefined;
    case HandleDbId.nativeSession:
      return 'nativeSession is not kept by this node (its sockets, timers and host config are the node\'s own)';
    default:
      return 'service may not read this db, or must use another intrinsic';
  }
}

/** Databases a handle may write (psibase's getDbWrite); others abort at kvPut/kvRemove. */
export function isWritableThroughHandle(handleDb: number): boolean {
  return handleDb !== HandleDbId.blockLog;
}
