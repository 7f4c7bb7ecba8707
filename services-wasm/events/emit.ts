// What services written for psibase's handle ABI call to emit events (docs/system-services.md,
// events): psibase's event db numbers, and the index requests addIndex keeps.

import { AccountNumber, DbId, MethodNumber, Table, abort } from "../sdk/index";

/** psibase's EventDb: the event logs a service of the handle generation names. */
export enum PsibaseEventDb {
  history = 0,
  merkle = 1,
}

/** The event db of psibase's EventDb `db`; aborts for an unknown one. */
export function eventDbOfPsibase(db: u8): DbId {
  if (db == PsibaseEventDb.history) return DbId.historyEvent;
  if (db == PsibaseEventDb.merkle) return DbId.merkleEvent;
  abort("Invalid event db " + db.toString() + ": 0 (history) or 1 (merkle)");
  return DbId.historyEvent;
}

/** One index a service asked for on the column of one of its event types. */
@fracpack
export class IndexRequest {
  constructor(
    public db: u8 = 0,
    public service: AccountNumber = 0,
    public event: MethodNumber = 0,
    public column: u8 = 0,
  ) {}
}

@struct
export class IndexRequestKey {
  constructor(public db: u8 = 0, public service: AccountNumber = 0, public event: MethodNumber = 0, public column: u8 = 0) {}
}

/**
 * The index requests, kept as psibase keeps them. Queries here read events in id order and keep
 * no index (docs/system-services.md), so a request changes what a query costs on a psibase node
 * only; it is recorded, and answered by nodes that index.
 */
export const indexRequests = new Table<IndexRequest, IndexRequestKey>(
  1, (r: IndexRequest): IndexRequestKey => new IndexRequestKey(r.db, r.service, r.event, r.column),
);
