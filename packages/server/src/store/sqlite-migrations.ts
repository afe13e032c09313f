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
];
