import pg from "pg";
import removeRunDatabase from "../../packages/booking-calendar/test/teardown.ts";
import { POSTGRES_URL } from "./postgres.ts";

/** Global teardown of the end-to-end run: the SQLite file, and the PostgreSQL schema of the run. */
export default async function teardown(): Promise<void> {
  removeRunDatabase();
  const schema = process.env.E2E_PG_SCHEMA;
  if (!schema || !/^[a-z0-9_]+$/.test(schema)) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } catch {
    // PostgreSQL gone already: nothing to tidy.
  } finally {
    await client.end().catch(() => undefined);
  }
}
