import { Database } from "bun:sqlite";
import type pg from "pg";
import { POSTGRES_MIGRATIONS } from "../src/store/postgres/migrations.ts";
import { SQLITE_MIGRATIONS } from "../src/store/sqlite/migrations.ts";

// Databases as an earlier release left them, for the tests of upgrading: the migrations up to one
// version applied and recorded, the later ones left for the store to run when it opens.

const APPLIED_AT = "2026-01-01T00:00:00Z";

/** A SQLite file at `path` with the migrations up to `version`; the caller adds its rows and closes it. */
export function sqliteAt(path: string, version: number): Database {
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
  for (const m of SQLITE_MIGRATIONS.filter((m) => m.version <= version)) {
    db.exec(m.sql);
    db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, APPLIED_AT);
  }
  return db;
}

/** Makes `schema` with the PostgreSQL migrations up to `version`, and points `client`'s search_path at it. */
export async function postgresAt(client: pg.Client, schema: string, version: number): Promise<void> {
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`SET search_path TO "${schema}"`);
  await client.query("CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)");
  for (const m of POSTGRES_MIGRATIONS.filter((m) => m.version <= version)) {
    await client.query(m.sql);
    await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [m.version, m.name, APPLIED_AT]);
  }
}
