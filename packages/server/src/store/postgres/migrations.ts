import type pg from "pg";
import { POSTGRES_MIGRATIONS_1_TO_10 } from "./migrations-1-10.ts";

/**
 * Versioned schema of the PostgreSQL engine: the same tables and record shapes as the SQLite
 * engine (times in epoch milliseconds as bigint, JSON kept as text so it reads back byte for byte,
 * which the signed webhook payload needs), plus shared rate-limit counters. A migration never
 * changes once released.
 *
 * Seats are guarded by the advisory time-range locks a claim takes (see claim.ts), not by a
 * constraint: with several seats per slot an exclusion constraint cannot count. The constraints
 * here are the last line of defence against records no code path should write.
 */
export const POSTGRES_MIGRATIONS: { version: number; name: string; sql: string }[] = [
  ...POSTGRES_MIGRATIONS_1_TO_10,
  {
    version: 13,
    name: "the language and clock a booking was made in",
    sql: `
      ALTER TABLE reservations ADD COLUMN locale text;
    `,
  },
  {
    version: 14,
    name: "organizer console sessions and sign-in links; reservations by start across event types",
    sql: `
      CREATE TABLE console_sessions (
        id text PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        role text NOT NULL,
        host_id bigint,
        method text NOT NULL CHECK (method IN ('key', 'link')),
        key_fingerprint text NOT NULL,
        created_at_ms bigint NOT NULL,
        expires_at_ms bigint NOT NULL,
        last_seen_at_ms bigint NOT NULL,
        revoked_at_ms bigint,
        address text NOT NULL,
        user_agent text NOT NULL
      );
      CREATE INDEX console_sessions_by_expiry ON console_sessions (expires_at_ms);
      CREATE TABLE console_sign_in_links (
        token_hash text PRIMARY KEY,
        role text NOT NULL,
        host_id bigint,
        created_at_ms bigint NOT NULL,
        expires_at_ms bigint NOT NULL,
        used_at_ms bigint
      );
      CREATE INDEX reservations_by_start_across ON reservations (start_ms, uuid);
    `,
  },
  {
    version: 15,
    name: "a private booking feed per host; new feed addresses for event types a host's session could read",
    // As SQLite's migration 15: the event types' feed addresses a host's session was shown are replaced.
    sql: `
      ALTER TABLE hosts ADD COLUMN feed_token text;
      UPDATE hosts SET feed_token = 'bcf_' || replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
      ALTER TABLE hosts ALTER COLUMN feed_token SET NOT NULL;
      ALTER TABLE hosts ADD CONSTRAINT hosts_feed_token_unique UNIQUE (feed_token);
      UPDATE event_types SET feed_token = 'bcf_' || replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
        WHERE id IN (SELECT eth.event_type_id FROM event_type_hosts eth JOIN hosts h ON h.id = eth.host_id WHERE NOT h.is_default)
           OR id IN (SELECT rh.event_type_id FROM reservation_hosts rh JOIN hosts h ON h.id = rh.host_id WHERE NOT h.is_default);
    `,
  },
  {
    version: 16,
    name: "attempt counters that give slots back",
    sql: `
      -- A successful sign-in gives its slot back, which may leave a window's count at zero.
      ALTER TABLE rate_limits DROP CONSTRAINT IF EXISTS rate_limits_count_check;
      ALTER TABLE rate_limits ADD CONSTRAINT rate_limits_count_check CHECK (count >= 0);
    `,
  },
  {
    version: 17,
    name: "booking limits of hosts",
    // The host's limits as JSON (domain/limits.ts); null: none. An event type's are in its settings.
    sql: `
      ALTER TABLE hosts ADD COLUMN limits text;
      `,
  },
  {
    version: 18,
    name: "hosts' time off, with a colleague who takes their bookings meanwhile",
    sql: `
      CREATE TABLE host_time_off (
        id bigserial PRIMARY KEY,
        host_id bigint NOT NULL REFERENCES hosts (id) ON DELETE CASCADE,
        start_ms bigint NOT NULL,
        end_ms bigint NOT NULL CHECK (end_ms > start_ms),
        start_date text,
        end_date text,
        note text,
        colleague_host_id bigint REFERENCES hosts (id) ON DELETE SET NULL,
        created_at_ms bigint NOT NULL,
        updated_at_ms bigint NOT NULL
      );
      CREATE INDEX host_time_off_by_host ON host_time_off (host_id, end_ms);
      `,
  },
  {
    version: 19,
    name: "recurring bookings: the series a reservation is an occurrence of",
    sql: `
      ALTER TABLE reservations ADD COLUMN series_id text;
      ALTER TABLE reservations ADD COLUMN series_rule text;
      CREATE INDEX reservations_by_series ON reservations (series_id, start_ms) WHERE series_id IS NOT NULL;
    `,
  },
];

/**
 * First key of the transaction-scoped advisory lock that serializes migrations: an arbitrary
 * constant, the same in every process. The second is the schema's hash, so instances of one schema
 * wait for each other while other schemas (a test suite's, one per test) migrate in parallel.
 */
const MIGRATION_LOCK_KEY = 634_820_177;

/** How long an instance starting next to another waits for its migrations before giving up. */
const MIGRATION_WAIT = "60s";

/**
 * Applies pending migrations in one transaction holding the advisory lock, so instances starting
 * together apply each migration once: the second waits, then finds them recorded. Creates `schema`
 * (and points the transaction at it) when given.
 */
export async function applyPostgresMigrations(client: pg.ClientBase, schema: string | null): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(`SET LOCAL lock_timeout = '${MIGRATION_WAIT}'`);
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY}, hashtext($1))`, [schema ?? ""]);
    if (schema !== null) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await client.query(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
    }
    await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)");
    const applied = new Set((await client.query<{ version: number }>("SELECT version FROM schema_migrations")).rows.map((r) => r.version));
    for (const m of POSTGRES_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      await client.query(m.sql);
      await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [m.version, m.name, new Date().toISOString()]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/** A schema name as a quoted identifier; names are checked to be plain lowercase identifiers first. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
