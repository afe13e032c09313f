import type { Database } from "bun:sqlite";
import { SQLITE_MIGRATIONS_1_TO_10 } from "./migrations-1-10.ts";

/** Versioned schema of the SQLite engine; a migration never changes once released. */
export const SQLITE_MIGRATIONS: { version: number; name: string; sql: string }[] = [
  ...SQLITE_MIGRATIONS_1_TO_10,
  {
    version: 13,
    name: "the language and clock a booking was made in; the outbox claimed by event type",
    sql: `
      ALTER TABLE reservations ADD COLUMN locale TEXT;
      -- The outbox's claim reads pending events by event type in the order they fall due, and each
      -- event type's leases, by index ranges: never the whole backlog of a burst of bookings.
      CREATE INDEX webhook_events_pending_by_type ON webhook_events (channel, event_type_id, next_attempt_at_ms) WHERE status = 'pending';
      CREATE INDEX webhook_events_leased ON webhook_events (channel, event_type_id, locked_until_ms) WHERE status = 'pending' AND locked_until_ms IS NOT NULL;
      -- Every outbox query names its channel: the indexes from before channels existed only slowed each insert.
      DROP INDEX IF EXISTS webhook_events_due;
      DROP INDEX IF EXISTS webhook_events_by_reservation;
    `,
  },
  {
    version: 14,
    name: "organizer console sessions and sign-in links; reservations by start across event types",
    sql: `
      CREATE TABLE console_sessions (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL,
        host_id INTEGER,
        method TEXT NOT NULL CHECK (method IN ('key', 'link')),
        key_fingerprint TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        last_seen_at_ms INTEGER NOT NULL,
        revoked_at_ms INTEGER,
        address TEXT NOT NULL,
        user_agent TEXT NOT NULL
      );
      CREATE INDEX console_sessions_by_expiry ON console_sessions (expires_at_ms);
      CREATE TABLE console_sign_in_links (
        token_hash TEXT PRIMARY KEY,
        role TEXT NOT NULL,
        host_id INTEGER,
        created_at_ms INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL,
        used_at_ms INTEGER
      );
      CREATE INDEX reservations_by_start_across ON reservations (start_ms, uuid);
    `,
  },
  {
    version: 15,
    name: "a private booking feed per host; new feed addresses for event types a host's session could read",
    // Until now a host's console session was shown the feed address of each event type of theirs,
    // which lists every host's bookings of a team: those addresses are replaced (of event types with
    // another host than the default, or bookings of one: a host who left), and each host gets a feed
    // of their own bookings.
    sql: `
      ALTER TABLE hosts ADD COLUMN feed_token TEXT NOT NULL DEFAULT '';
      UPDATE hosts SET feed_token = 'bcf_' || lower(hex(randomblob(32))) WHERE feed_token = '';
      CREATE UNIQUE INDEX hosts_by_feed_token ON hosts (feed_token);
      UPDATE event_types SET feed_token = 'bcf_' || lower(hex(randomblob(32)))
        WHERE id IN (SELECT eth.event_type_id FROM event_type_hosts eth JOIN hosts h ON h.id = eth.host_id WHERE h.is_default = 0)
           OR id IN (SELECT rh.event_type_id FROM reservation_hosts rh JOIN hosts h ON h.id = rh.host_id WHERE h.is_default = 0);
    `,
  },
  {
    version: 16,
    name: "attempt counters shared by every process on the file",
    sql: `
      -- The twin of PostgreSQL's rate_limits: the console's failed sign-ins per address and window.
      CREATE TABLE rate_limits (
        key TEXT NOT NULL,
        window_start INTEGER NOT NULL,
        count INTEGER NOT NULL CHECK (count >= 0),
        PRIMARY KEY (key, window_start)
      ) WITHOUT ROWID;
      CREATE INDEX rate_limits_by_window ON rate_limits (window_start);
    `,
  },
  {
    version: 17,
    name: "bookings by host kept in one tree, in host and time order",
    // Every booking writes a row here. Keyed by its reservation's random uuid (a table, that key and
    // the index by host and time: three trees), each row dirtied a page of its own in the key's index,
    // and a WAL commit writes each dirtied page whole: as much as the rest of the booking's writes.
    // Every read goes by host and time, so that is now the table's key (the same rows, one tree,
    // where a host's next bookings sit side by side). A reservation's rows are found by its hosts and
    // start, which the triggers keep equal to the reservation's own; they also remove the rows of a
    // deleted reservation, as the foreign key's cascade did (deleting an event type deletes its
    // reservations, and that fires the trigger).
    sql: `
      DROP TRIGGER reservation_hosts_on_insert;
      DROP TRIGGER reservation_hosts_on_update;
      CREATE TABLE reservation_hosts_new (
        host_id INTEGER NOT NULL REFERENCES hosts(id),
        start_ms INTEGER NOT NULL,
        reservation_uuid TEXT NOT NULL,
        event_type_id INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        created_at_ms INTEGER NOT NULL,
        PRIMARY KEY (host_id, start_ms, reservation_uuid)
      ) WITHOUT ROWID;
      -- Made again from the reservations, as the triggers make them, so every row is found by them.
      INSERT INTO reservation_hosts_new (host_id, start_ms, reservation_uuid, event_type_id, end_ms, created_at_ms)
        SELECT j.value, r.start_ms, r.uuid, r.event_type_id, r.end_ms, r.created_at_ms FROM reservations r, json_each(r.host_ids) j;
      DROP TABLE reservation_hosts;
      ALTER TABLE reservation_hosts_new RENAME TO reservation_hosts;
      CREATE TRIGGER reservation_hosts_on_insert AFTER INSERT ON reservations BEGIN
        INSERT INTO reservation_hosts (host_id, start_ms, reservation_uuid, event_type_id, end_ms, created_at_ms)
          SELECT value, NEW.start_ms, NEW.uuid, NEW.event_type_id, NEW.end_ms, NEW.created_at_ms FROM json_each(NEW.host_ids);
      END;
      CREATE TRIGGER reservation_hosts_on_update AFTER UPDATE OF host_ids, start_ms, end_ms ON reservations
        WHEN OLD.host_ids IS NOT NEW.host_ids OR OLD.start_ms <> NEW.start_ms OR OLD.end_ms <> NEW.end_ms BEGIN
        DELETE FROM reservation_hosts WHERE host_id IN (SELECT value FROM json_each(OLD.host_ids)) AND start_ms = OLD.start_ms AND reservation_uuid = OLD.uuid;
        INSERT INTO reservation_hosts (host_id, start_ms, reservation_uuid, event_type_id, end_ms, created_at_ms)
          SELECT value, NEW.start_ms, NEW.uuid, NEW.event_type_id, NEW.end_ms, NEW.created_at_ms FROM json_each(NEW.host_ids);
      END;
      CREATE TRIGGER reservation_hosts_on_delete AFTER DELETE ON reservations BEGIN
        DELETE FROM reservation_hosts WHERE host_id IN (SELECT value FROM json_each(OLD.host_ids)) AND start_ms = OLD.start_ms AND reservation_uuid = OLD.uuid;
      END;
    `,
  },
  {
    version: 18,
    name: "a host's bookings counted apart from its other changes",
    // A host's revision is revision + booking_revision. Claims count in booking_revision alone, so
    // revision says when anything of the host other than its seats changed, and a token lookup
    // keeps its parsed event type through bookings (see ParsedEventTypes.rebased).
    sql: `
      ALTER TABLE hosts ADD COLUMN booking_revision INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 19,
    name: "booking limits of hosts",
    // The host's limits as JSON (domain/limits.ts); null: none. An event type's are in its settings.
    sql: `
      ALTER TABLE hosts ADD COLUMN limits TEXT;
    `,
  },
  {
    version: 20,
    name: "hosts' time off, with a colleague who takes their bookings meanwhile",
    sql: `
      CREATE TABLE host_time_off (
        id INTEGER PRIMARY KEY,
        host_id INTEGER NOT NULL REFERENCES hosts (id) ON DELETE CASCADE,
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL CHECK (end_ms > start_ms),
        start_date TEXT,
        end_date TEXT,
        note TEXT,
        colleague_host_id INTEGER REFERENCES hosts (id) ON DELETE SET NULL,
        created_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL
      );
      CREATE INDEX host_time_off_by_host ON host_time_off (host_id, end_ms);
    `,
  },
  {
    version: 21,
    name: "recurring bookings: the series a reservation is an occurrence of",
    sql: `
      ALTER TABLE reservations ADD COLUMN series_id TEXT;
      ALTER TABLE reservations ADD COLUMN series_rule TEXT;
      CREATE INDEX reservations_by_series ON reservations (series_id, start_ms) WHERE series_id IS NOT NULL;
    `,
  },
];

/**
 * Applies pending migrations inside one immediate transaction, so processes starting together on
 * one file apply each migration once: the second waits for the write lock, then finds them recorded.
 */
export function applySqliteMigrations(db: Database): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
  db.transaction(() => {
    const applied = new Set(
      db
        .query<{ version: number }, []>("SELECT version FROM schema_migrations")
        .all()
        .map((r) => r.version),
    );
    for (const m of SQLITE_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, new Date().toISOString());
    }
  }).immediate();
}
