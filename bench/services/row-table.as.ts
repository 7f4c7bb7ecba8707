// The rows the bench query services read (bench/http's `rows`, bench/graphql's `paged`): one
// record type and table, so both benchmarks read the same rows.

import { AccountNumber, Table } from "../../services-wasm/sdk/index";

@fracpack
export class Row {
  constructor(public id: u32 = 0, public owner: AccountNumber = 0, public label: string = "", public amount: u64 = 0) {}
}

export const rows = new Table<Row, u32>(1, (r: Row): u32 => r.id);

/** Writes rows 0 to count - 1. */
export function fillRows(count: u32): void {
  for (let i: u32 = 0; i < count; i++) rows.put(new Row(i, 0, "row " + i.toString(), <u64>i * 1000));
}
