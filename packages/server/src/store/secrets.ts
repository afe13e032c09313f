import { SecretKeyError, type SecretBox, type SecretPurpose } from "../lib/secrets.ts";

// The columns holding sealed secrets: how both engines open a row's secret, and reseal them at start.

/** The columns holding sealed secrets, with what each secret is for and how an error names its row. */
export const SEALED_COLUMNS = [
  { table: "event_types", column: "webhook_secret", purpose: "webhook", what: (id: number) => `the webhook signing secret of event type #${id}` },
  { table: "busy_sources", column: "secret", purpose: "calendar", what: (id: number) => `the password or token of calendar source #${id}` },
] as const satisfies readonly { table: string; column: string; purpose: SecretPurpose; what: (id: number) => string }[];
type SealedColumn = (typeof SEALED_COLUMNS)[number];

/** A stored secret opened. */
export const openedSecret = (secrets: SecretBox, stored: string, column: SealedColumn, id: number): string =>
  namingTheRow(column, id, () => secrets.open(stored, column.purpose));

/** Runs `work` on a row's secret; a secret that no key given opens is named by its row. */
function namingTheRow<T>(column: SealedColumn, id: number, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw error instanceof SecretKeyError ? new SecretKeyError(`Cannot read ${column.what(id)}: ${error.message}.`) : error;
  }
}

/**
 * What the start of a store rewrites in one sealed column: the rows whose secret is plain (stored
 * before encryption) or sealed with an older key, with the value to store instead. A secret that
 * none of the keys opens stops the start, naming the row and the key it needs.
 */
export function resealedRows(
  rows: { id: number | string; value: string }[],
  column: SealedColumn,
  secrets: SecretBox,
): { id: number; was: string; value: string }[] {
  const changes: { id: number; was: string; value: string }[] = [];
  for (const row of rows) {
    const id = Number(row.id);
    const value = namingTheRow(column, id, () => secrets.resealed(row.value, column.purpose));
    if (value !== null) changes.push({ id, was: row.value, value });
  }
  return changes;
}
