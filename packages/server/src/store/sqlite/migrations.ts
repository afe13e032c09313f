import type { Database } from "bun:sqlite";

/** Versioned schema of the SQLite engine; a migration never changes once released. */
export const SQLITE_MIGRATIONS: { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: "event types and reservations",
    sql: `
      CREATE TABLE event_types (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        token_hash TEXT NOT NULL UNIQUE,
        override_token_hash TEXT NOT NULL,
        disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
        settings TEXT NOT NULL CHECK (json_valid(settings)),
        revision INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE reservations (
        uuid TEXT PRIMARY KEY,
        event_type_id INTEGER NOT NULL REFERENCES event_types(id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('held', 'confirmed', 'expired', 'cancelled')),
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL CHECK (end_ms > start_ms),
        held_until_ms INTEGER,
        email TEXT NOT NULL,
        firstname TEXT NOT NULL DEFAULT '',
        lastname TEXT NOT NULL DEFAULT '',
        phone TEXT NOT NULL DEFAULT '',
        timezone TEXT,
        location TEXT,
        guests TEXT NOT NULL DEFAULT '[]',
        custom_fields TEXT NOT NULL DEFAULT '[]',
        created_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL
      );
      CREATE INDEX reservations_by_start ON reservations (event_type_id, start_ms);
    `,
  },
  {
    version: 2,
    name: "reservation lifecycle, card payments, idempotency keys",
    sql: `
      ALTER TABLE event_types ADD COLUMN longest_reservation_ms INTEGER NOT NULL DEFAULT 0;
      UPDATE event_types SET longest_reservation_ms = coalesce((SELECT max(end_ms - start_ms) FROM reservations r WHERE r.event_type_id = event_types.id), 0);
      ALTER TABLE reservations ADD COLUMN meet_link TEXT;
      ALTER TABLE reservations ADD COLUMN confirmed_at_ms INTEGER;
      ALTER TABLE reservations ADD COLUMN cancelled_at_ms INTEGER;
      ALTER TABLE reservations ADD COLUMN payment TEXT CHECK (payment IS NULL OR json_valid(payment));
      ALTER TABLE reservations ADD COLUMN payment_intent_id TEXT;
      CREATE INDEX reservations_by_payment_intent ON reservations (payment_intent_id) WHERE payment_intent_id IS NOT NULL;
      CREATE INDEX reservations_by_hold ON reservations (status, held_until_ms) WHERE status IN ('held', 'expired');
      CREATE TABLE idempotency_keys (
        event_type_id INTEGER NOT NULL REFERENCES event_types(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        reservation_uuid TEXT,
        status INTEGER,
        response TEXT,
        created_at_ms INTEGER NOT NULL,
        PRIMARY KEY (event_type_id, key)
      );
    `,
  },
  {
    version: 3,
    name: "webhook outbox",
    sql: `
      ALTER TABLE event_types ADD COLUMN webhook_secret TEXT NOT NULL DEFAULT '';
      ALTER TABLE event_types ADD COLUMN webhook_disabled_at_ms INTEGER;
      UPDATE event_types SET webhook_secret = 'whsec_' || hex(randomblob(32)) WHERE webhook_secret = '';
      CREATE TABLE webhook_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_type_id INTEGER NOT NULL REFERENCES event_types(id) ON DELETE CASCADE,
        reservation_uuid TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('reservation.created', 'reservation.rescheduled', 'reservation.cancelled')),
        msg_id TEXT NOT NULL UNIQUE,
        url TEXT NOT NULL,
        payload TEXT NOT NULL CHECK (json_valid(payload)),
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at_ms INTEGER NOT NULL,
        locked_until_ms INTEGER,
        last_status_code INTEGER,
        last_error TEXT,
        delivered_at_ms INTEGER,
        created_at_ms INTEGER NOT NULL
      );
      CREATE INDEX webhook_events_due ON webhook_events (status, next_attempt_at_ms);
      CREATE INDEX webhook_events_by_reservation ON webhook_events (reservation_uuid, id);
      CREATE INDEX webhook_events_by_event_type ON webhook_events (event_type_id, id);
      CREATE TABLE webhook_attempts (
        event_id INTEGER NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
        attempt INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        status_code INTEGER,
        error TEXT,
        duration_ms INTEGER NOT NULL,
        PRIMARY KEY (event_id, attempt)
      );
    `,
  },
  {
    version: 4,
    name: "booking page slugs and publishable link tokens",
    sql: `
      ALTER TABLE event_types ADD COLUMN slug TEXT;
      ALTER TABLE event_types ADD COLUMN link_token TEXT NOT NULL DEFAULT '';
      UPDATE event_types SET link_token = 'bcl_' || lower(hex(randomblob(32))) WHERE link_token = '';
      CREATE UNIQUE INDEX event_types_by_slug ON event_types (slug);
      CREATE UNIQUE INDEX event_types_by_link_token ON event_types (link_token);
    `,
  },
  {
    version: 5,
    name: "one outbox for several delivery channels; invite sequence of reservations",
    // webhook_events keeps its name and becomes the outbox of every channel: existing rows are webhooks.
    // A channel is a plain name, so one added later (a calendar writer) needs no schema change.
    sql: `
      ALTER TABLE webhook_events ADD COLUMN channel TEXT NOT NULL DEFAULT 'webhook' CHECK (length(channel) BETWEEN 1 AND 32);
      CREATE INDEX webhook_events_due_by_channel ON webhook_events (channel, status, next_attempt_at_ms);
      CREATE INDEX webhook_events_by_reservation_channel ON webhook_events (reservation_uuid, channel, id);
      ALTER TABLE reservations ADD COLUMN ics_sequence INTEGER NOT NULL DEFAULT 0 CHECK (ics_sequence >= 0);
    `,
  },
  {
    // Numbered 6: migration 5 belongs to another change; the runner applies whatever is missing, gaps included.
    version: 6,
    name: "busy sources: the organizer's calendars, their objects and busy intervals",
    sql: `
      CREATE TABLE busy_sources (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_type_id INTEGER NOT NULL REFERENCES event_types(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('caldav', 'ical')),
        url TEXT NOT NULL,
        username TEXT,
        secret TEXT,
        calendars TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(calendars)),
        freshness_minutes INTEGER CHECK (freshness_minutes IS NULL OR freshness_minutes > 0),
        sync_state TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(sync_state)),
        last_attempt_at_ms INTEGER,
        last_success_at_ms INTEGER,
        last_failure_at_ms INTEGER,
        last_error TEXT,
        expanded_until_ms INTEGER,
        created_at_ms INTEGER NOT NULL
      );
      CREATE INDEX busy_sources_by_event_type ON busy_sources (event_type_id, id);
      CREATE TABLE busy_objects (
        source_id INTEGER NOT NULL REFERENCES busy_sources(id) ON DELETE CASCADE,
        href TEXT NOT NULL,
        etag TEXT,
        ics TEXT NOT NULL,
        PRIMARY KEY (source_id, href)
      );
      CREATE TABLE busy_intervals (
        source_id INTEGER NOT NULL REFERENCES busy_sources(id) ON DELETE CASCADE,
        event_type_id INTEGER NOT NULL REFERENCES event_types(id) ON DELETE CASCADE,
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL CHECK (end_ms > start_ms)
      );
      CREATE INDEX busy_intervals_by_time ON busy_intervals (event_type_id, end_ms, start_ms);
      CREATE INDEX busy_intervals_by_source ON busy_intervals (source_id);
    `,
  },
  {
    version: 7,
    name: "private booking feed tokens",
    sql: `
      ALTER TABLE event_types ADD COLUMN feed_token TEXT NOT NULL DEFAULT '';
      UPDATE event_types SET feed_token = 'bcf_' || lower(hex(randomblob(32))) WHERE feed_token = '';
      CREATE UNIQUE INDEX event_types_by_feed_token ON event_types (feed_token);
    `,
  },
  {
    version: 8,
    name: "reasons given for cancelling",
    sql: `
      ALTER TABLE reservations ADD COLUMN cancel_reason TEXT;
    `,
  },
  {
    version: 9,
    name: "calendar sync failures in a row and objects left out",
    sql: `
      ALTER TABLE busy_sources ADD COLUMN failure_count INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE busy_sources ADD COLUMN skipped_objects TEXT NOT NULL DEFAULT '[]';
    `,
  },
  {
    version: 10,
    name: "hosts: people, their schedules, event types' hosts, reservations' hosts, calendars of hosts",
    // Every event type joins one default host (named from the first event type that names its
    // organizer; an empty name, shown nowhere, when none does), existing calendars move to it, and every reservation takes it: nothing is lost and a
    // one-person install books as before. reservation_hosts is kept by triggers from reservations.host_ids,
    // so every write path (claims, saves, imports) keeps the per-host index of bookings current.
    sql: `
      CREATE TABLE hosts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        email TEXT,
        timezone TEXT NOT NULL,
        avatar_url TEXT,
        is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
        bookings_calendar TEXT CHECK (bookings_calendar IS NULL OR json_valid(bookings_calendar)),
        revision INTEGER NOT NULL DEFAULT 1,
        longest_reservation_ms INTEGER NOT NULL DEFAULT 0,
        created_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX hosts_one_default ON hosts (is_default) WHERE is_default = 1;
      INSERT INTO hosts (name, email, timezone, avatar_url, is_default, bookings_calendar, longest_reservation_ms, created_at_ms, updated_at_ms)
      SELECT
        coalesce((SELECT json_extract(settings, '$.hostName') FROM event_types WHERE coalesce(json_extract(settings, '$.hostName'), '') <> '' ORDER BY id LIMIT 1), ''),
        (SELECT json_extract(settings, '$.organizerEmail') FROM event_types WHERE coalesce(json_extract(settings, '$.organizerEmail'), '') <> '' ORDER BY id LIMIT 1),
        coalesce((SELECT json_extract(settings, '$.timezone') FROM event_types ORDER BY id LIMIT 1), 'UTC'),
        (SELECT json_extract(settings, '$.profileImage') FROM event_types WHERE coalesce(json_extract(settings, '$.profileImage'), '') <> '' ORDER BY id LIMIT 1),
        1,
        (SELECT json_extract(settings, '$.bookingsCalendar') FROM event_types WHERE json_type(settings, '$.bookingsCalendar') = 'object' ORDER BY id LIMIT 1),
        coalesce((SELECT max(longest_reservation_ms) FROM event_types), 0),
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER);
      CREATE TABLE schedules (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host_id INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        timezone TEXT NOT NULL,
        availability TEXT NOT NULL CHECK (json_valid(availability)),
        created_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL
      );
      CREATE INDEX schedules_by_host ON schedules (host_id, id);
      CREATE TABLE event_type_hosts (
        event_type_id INTEGER NOT NULL REFERENCES event_types(id) ON DELETE CASCADE,
        host_id INTEGER NOT NULL REFERENCES hosts(id),
        position INTEGER NOT NULL,
        priority INTEGER NOT NULL DEFAULT 0,
        schedule_id INTEGER REFERENCES schedules(id),
        PRIMARY KEY (event_type_id, host_id)
      );
      CREATE INDEX event_type_hosts_by_host ON event_type_hosts (host_id, event_type_id);
      INSERT INTO event_type_hosts (event_type_id, host_id, position, priority, schedule_id)
        SELECT id, (SELECT id FROM hosts WHERE is_default = 1), 0, 0, NULL FROM event_types;
      ALTER TABLE event_types ADD COLUMN assignment TEXT NOT NULL DEFAULT 'collective' CHECK (assignment IN ('collective', 'round-robin'));
      ALTER TABLE reservations ADD COLUMN host_ids TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(host_ids));
      CREATE TABLE reservation_hosts (
        reservation_uuid TEXT NOT NULL REFERENCES reservations(uuid) ON DELETE CASCADE,
        host_id INTEGER NOT NULL REFERENCES hosts(id),
        event_type_id INTEGER NOT NULL,
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL,
        created_at_ms INTEGER NOT NULL,
        PRIMARY KEY (reservation_uuid, host_id)
      );
      CREATE INDEX reservation_hosts_by_time ON reservation_hosts (host_id, start_ms);
      CREATE TRIGGER reservation_hosts_on_insert AFTER INSERT ON reservations BEGIN
        INSERT INTO reservation_hosts (reservation_uuid, host_id, event_type_id, start_ms, end_ms, created_at_ms)
          SELECT NEW.uuid, value, NEW.event_type_id, NEW.start_ms, NEW.end_ms, NEW.created_at_ms FROM json_each(NEW.host_ids);
      END;
      CREATE TRIGGER reservation_hosts_on_update AFTER UPDATE OF host_ids, start_ms, end_ms ON reservations
        WHEN OLD.host_ids IS NOT NEW.host_ids OR OLD.start_ms <> NEW.start_ms OR OLD.end_ms <> NEW.end_ms BEGIN
        DELETE FROM reservation_hosts WHERE reservation_uuid = NEW.uuid;
        INSERT INTO reservation_hosts (reservation_uuid, host_id, event_type_id, start_ms, end_ms, created_at_ms)
          SELECT NEW.uuid, value, NEW.event_type_id, NEW.start_ms, NEW.end_ms, NEW.created_at_ms FROM json_each(NEW.host_ids);
      END;
      UPDATE reservations SET host_ids = json_array((SELECT id FROM hosts WHERE is_default = 1));

      -- Calendars move from event types to hosts: the three tables are rebuilt with host_id.
      CREATE TABLE busy_sources_new (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host_id INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('caldav', 'ical')),
        url TEXT NOT NULL,
        username TEXT,
        secret TEXT,
        calendars TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(calendars)),
        freshness_minutes INTEGER CHECK (freshness_minutes IS NULL OR freshness_minutes > 0),
        sync_state TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(sync_state)),
        last_attempt_at_ms INTEGER,
        last_success_at_ms INTEGER,
        last_failure_at_ms INTEGER,
        last_error TEXT,
        expanded_until_ms INTEGER,
        created_at_ms INTEGER NOT NULL,
        failure_count INTEGER NOT NULL DEFAULT 0,
        skipped_objects TEXT NOT NULL DEFAULT '[]'
      );
      INSERT INTO busy_sources_new (id, host_id, kind, url, username, secret, calendars, freshness_minutes, sync_state, last_attempt_at_ms, last_success_at_ms,
          last_failure_at_ms, last_error, expanded_until_ms, created_at_ms, failure_count, skipped_objects)
        SELECT id, (SELECT id FROM hosts WHERE is_default = 1), kind, url, username, secret, calendars, freshness_minutes, sync_state, last_attempt_at_ms, last_success_at_ms,
          last_failure_at_ms, last_error, expanded_until_ms, created_at_ms, failure_count, skipped_objects FROM busy_sources;
      CREATE TABLE busy_objects_new (
        source_id INTEGER NOT NULL REFERENCES busy_sources_new(id) ON DELETE CASCADE,
        href TEXT NOT NULL,
        etag TEXT,
        ics TEXT NOT NULL,
        PRIMARY KEY (source_id, href)
      );
      INSERT INTO busy_objects_new (source_id, href, etag, ics) SELECT source_id, href, etag, ics FROM busy_objects;
      CREATE TABLE busy_intervals_new (
        source_id INTEGER NOT NULL REFERENCES busy_sources_new(id) ON DELETE CASCADE,
        host_id INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,
        start_ms INTEGER NOT NULL,
        end_ms INTEGER NOT NULL CHECK (end_ms > start_ms)
      );
      INSERT INTO busy_intervals_new (source_id, host_id, start_ms, end_ms)
        SELECT source_id, (SELECT id FROM hosts WHERE is_default = 1), start_ms, end_ms FROM busy_intervals;
      DROP TABLE busy_intervals;
      DROP TABLE busy_objects;
      DROP TABLE busy_sources;
      ALTER TABLE busy_sources_new RENAME TO busy_sources;
      ALTER TABLE busy_objects_new RENAME TO busy_objects;
      ALTER TABLE busy_intervals_new RENAME TO busy_intervals;
      CREATE INDEX busy_sources_by_host ON busy_sources (host_id, id);
      CREATE INDEX busy_intervals_by_time ON busy_intervals (host_id, end_ms, start_ms);
      CREATE INDEX busy_intervals_by_source ON busy_intervals (source_id);
    `,
  },
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
];

/**
 * Applies pending migrations inside one immediate transaction, so processes starting together on
 * one file apply each migration once: the second waits for the write lock, then finds them recorded.
 */
export function applySqliteMigrations(db: Database): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
  db.transaction(() => {
    const applied = new Set(db.query<{ version: number }, []>("SELECT version FROM schema_migrations").all().map((r) => r.version));
    for (const m of SQLITE_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      db.exec(m.sql);
      db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(m.version, m.name, new Date().toISOString());
    }
  }).immediate();
}
