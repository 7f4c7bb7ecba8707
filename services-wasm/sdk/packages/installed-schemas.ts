// The schemas the packages service keeps (docs/system-services.md, packages): one row per
// service, its ServiceSchema as JSON text, in packages' table 1. Any service may read them.

import { AccountNumber } from "../names/types";
import { account } from "../names/account";
import { Table } from "../tables/table";
import { DbId } from "../tables/db";

@fracpack
export class InstalledSchema {
  constructor(public account: AccountNumber = 0, public schema: string = "") {}
}

export const installedSchemas = new Table<InstalledSchema, AccountNumber>(
  1, (s: InstalledSchema): AccountNumber => s.account, DbId.service, account("packages"),
);

/** The schema JSON `service` stored with packages::setSchema, or null. */
export function installedSchemaOf(service: AccountNumber): string | null {
  const row = installedSchemas.get(service);
  return row === null ? null : row.schema;
}
