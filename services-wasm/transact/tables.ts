// Transact's own tables (service db): their numbers, one per concern, and single-row tables.

import { Table } from "../sdk/index";

export const STATUS_TABLE: u16 = 1;
export const BLOCK_SUMMARY_TABLE: u16 = 2;
export const INCLUDED_TRANSACTIONS_TABLE: u16 = 3;
export const CALLBACKS_TABLE: u16 = 4;
export const SNAPSHOT_INFO_TABLE: u16 = 5;
export const EVENT_INDEXES_TABLE: u16 = 6;
export const RESOURCE_MONITORING_TABLE: u16 = 7;

/** The empty primary key of a table with one row. */
@struct
class SingletonKey {}

/** A table holding at most one row. */
export class SingletonTable<Row> {
  private table: Table<Row, SingletonKey>;

  constructor(table: u16) {
    this.table = new Table<Row, SingletonKey>(table, (row: Row): SingletonKey => new SingletonKey());
  }

  get(): Row | null {
    return this.table.get(new SingletonKey());
  }

  put(row: Row): void {
    this.table.put(row);
  }
}
