// The tables a service declares, for its schema's `database` (psibase's SchemaTableInfo,
// docs/codegen.md §3): each top-level `const x = new Table<Row, PK>(number, key[, DbId.db])` of
// the service's own files, named as its variable. A table of another owner (a fourth argument) is
// one the service reads, not its own. Keys are computed by the service's code, which psibase's
// field paths cannot describe, so `indexes` stays empty.

import { NodeKind } from 'assemblyscript';
import { simpleTypeName } from './ast.mjs';

/** The database names of psibase's schemas, by the SDK's DbId member. */
const DATABASES = { service: 'service', subjective: 'subjective', writeOnly: 'writeOnly' };

const text = (node) => node.range.source.text.substring(node.range.start, node.range.end);

/** `{db, name, table, rowType}` of every table `sources` declare at their top level. */
export function declaredTables(sources) {
  const tables = [];
  for (const source of sources) {
    for (const statement of source.statements) {
      if (statement.kind !== NodeKind.Variable) continue;
      for (const declaration of statement.declarations) {
        const table = tableOf(declaration);
        if (table) tables.push(table);
      }
    }
  }
  return tables;
}

function tableOf(declaration) {
  const init = declaration.initializer;
  if (!init || init.kind !== NodeKind.New || init.typeName.identifier.text !== 'Table') return undefined;
  const [row] = init.typeArguments ?? [];
  const [number, , db, owner] = init.args;
  if (!row || row.kind !== NodeKind.NamedType || !number || owner) return undefined;
  const table = Number(text(number));
  if (!Number.isInteger(table) || table < 0 || table > 0xffff) return undefined;
  const dbName = db ? DATABASES[text(db).split('.').pop()] : 'service';
  if (!dbName) return undefined;
  return { db: dbName, name: declaration.name.text, table, rowType: row, rowName: simpleTypeName(row) };
}
