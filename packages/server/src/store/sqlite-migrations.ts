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
];
