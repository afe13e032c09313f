import type pg from "pg";
import type { SecretBox } from "../../lib/secrets.ts";
import { resealedRows, SEALED_COLUMNS } from "../secrets.ts";

/**
 * Seals the secrets stored plain (before encryption) or with an older key with the current key, at
 * the start of an instance. Each row is rewritten only if it still holds what was read, so a secret
 * rotated meanwhile, or resealed by an instance starting at the same time, is left as it is.
 */
export async function resealPostgres(pool: pg.Pool, secrets: SecretBox): Promise<void> {
  for (const column of SEALED_COLUMNS) {
    const { rows } = await pool.query<{ id: number; value: string }>(
      `SELECT id, ${column.column} AS value FROM ${column.table} WHERE ${column.column} IS NOT NULL`,
    );
    for (const change of resealedRows(rows, column, secrets)) {
      await pool.query(`UPDATE ${column.table} SET ${column.column} = $1 WHERE id = $2 AND ${column.column} = $3`, [change.value, change.id, change.was]);
    }
  }
}
