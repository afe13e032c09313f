import type { Database } from "bun:sqlite";
import type { SecretBox } from "../../lib/secrets.ts";
import { resealedRows, SEALED_COLUMNS } from "../secrets.ts";

/** Seals secrets stored plain (before encryption) or with an older key with the current key, in one transaction. */
export function resealSqlite(db: Database, secrets: SecretBox): void {
  db.transaction(() => {
    for (const column of SEALED_COLUMNS) {
      const rows = db
        .query<{ id: number; value: string }, []>(`SELECT id, ${column.column} AS value FROM ${column.table} WHERE ${column.column} IS NOT NULL`)
        .all();
      const update = db.query(`UPDATE ${column.table} SET ${column.column} = ? WHERE id = ?`);
      for (const change of resealedRows(rows, column, secrets)) update.run(change.value, change.id);
    }
  }).immediate();
}
