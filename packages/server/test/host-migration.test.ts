import { describe, expect, it } from "vitest";
import pg from "pg";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { ManualClock } from "../src/clock.ts";
import { DEFAULT_SETTINGS } from "../src/domain/event-type.ts";
import { hashToken } from "../src/lib/tokens.ts";
import { openSqliteStore } from "../src/store/sqlite/index.ts";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import type { Store } from "../src/store/store.ts";
import { postgresAt, sqliteAt } from "./old-databases.ts";
import { ADMIN_KEY, ENGINE, POSTGRES_URL } from "./utils.ts";

/**
 * A database as the version before hosts left it (schema 9, two event types of one organizer, their
 * bookings, a CalDAV calendar with its objects and busy intervals, the calendar bookings are written
 * into), opened by this version: migration 10 must move everything to the default host, losing nothing.
 */
const T = "2026-11-23T07:00:00Z";
const ms = (iso: string) => Date.parse(iso);
const settings = (title: string, extra: Record<string, unknown>) => JSON.stringify({ ...DEFAULT_SETTINGS, title, timezone: "Europe/Prague", ...extra });
const FIRST = settings("Intro call", {
  hostName: "Jana Nováková",
  organizerEmail: "jana@example.com",
  profileImage: "https://example.com/jana.png",
  bookingsCalendar: { sourceId: 7, calendarUrl: "https://dav.example.com/jana/bookings/" },
});
const SECOND = settings("Long talk", { hostName: null, organizerEmail: null });
const BOOKED = { uuid: "0b0e4b58-6c1d-4d43-9d5e-6f9a1c2b3d4e", start: "2026-11-24T08:00:00Z", end: "2026-11-24T08:30:00Z" };
const CANCELLED = { uuid: "5f2a7c1e-3b4d-4e6f-8a9b-0c1d2e3f4a5b", start: "2026-11-24T12:00:00Z", end: "2026-11-24T12:30:00Z" };
const BUSY = { start: "2026-11-24T10:00:00Z", end: "2026-11-24T11:00:00Z" };
const OBJECT = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n";

/** The rows of the old database, as statements with positional parameters ($n on PostgreSQL, ? on SQLite). */
function oldRows(p: (n: number) => string): [string, unknown[]][] {
  const params = (count: number) => Array.from({ length: count }, (_, i) => p(i + 1)).join(", ");
  const et = (id: number, title: string, s: string): [string, unknown[]] => [
    `INSERT INTO event_types (id, token_hash, override_token_hash, settings, revision, created_at, updated_at, webhook_secret, link_token, feed_token, longest_reservation_ms)
     VALUES (${params(11)})`,
    [
      id,
      hashToken(`bk_${title}`),
      hashToken(`bko_${title}`),
      s,
      3,
      T,
      T,
      "whsec_plain",
      `bcl_${id}${"a".repeat(60)}`,
      `bcf_${id}${"b".repeat(60)}`,
      30 * 60_000,
    ],
  ];
  const reservation = (uuid: string, start: string, end: string, status: string): [string, unknown[]] => [
    `INSERT INTO reservations (uuid, event_type_id, status, start_ms, end_ms, email, firstname, lastname, created_at_ms, updated_at_ms, confirmed_at_ms, cancelled_at_ms)
     VALUES (${params(12)})`,
    [uuid, 1, status, ms(start), ms(end), "ada@example.com", "Ada", "Lovelace", ms(T), ms(T), ms(T), status === "cancelled" ? ms(T) : null],
  ];
  return [
    et(1, "first", FIRST),
    et(2, "second", SECOND),
    reservation(BOOKED.uuid, BOOKED.start, BOOKED.end, "confirmed"),
    reservation(CANCELLED.uuid, CANCELLED.start, CANCELLED.end, "cancelled"),
    [
      `INSERT INTO busy_sources (id, event_type_id, kind, url, username, secret, calendars, sync_state, last_success_at_ms, expanded_until_ms, created_at_ms, failure_count, skipped_objects)
       VALUES (${params(13)})`,
      [
        7,
        1,
        "caldav",
        "https://dav.example.com/jana/",
        "jana",
        "pw-plain",
        "[]",
        '{"zone":"Europe/Prague"}',
        ms(T),
        ms("2027-01-30T00:00:00Z"),
        ms(T),
        0,
        "[]",
      ],
    ],
    [`INSERT INTO busy_objects (source_id, href, etag, ics) VALUES (${params(4)})`, [7, "https://dav.example.com/jana/cal/a.ics", '"e1"', OBJECT]],
    [`INSERT INTO busy_intervals (source_id, event_type_id, start_ms, end_ms) VALUES (${params(4)})`, [7, 1, ms(BUSY.start), ms(BUSY.end)]],
  ];
}

/** What must hold of the migrated store: one default host owning everything, nothing lost, and one person's time across the two event types. */
async function expectMigrated(store: Store): Promise<void> {
  const hosts = await store.hosts.list();
  expect(hosts).toHaveLength(1);
  const host = hosts[0]!;
  expect(host).toMatchObject({
    isDefault: true,
    name: "Jana Nováková",
    email: "jana@example.com",
    timezone: "Europe/Prague",
    avatarUrl: "https://example.com/jana.png",
    bookingsCalendar: { sourceId: 7, calendarUrl: "https://dav.example.com/jana/bookings/" },
  });
  const [first, second] = [(await store.eventTypes.byId(1))!, (await store.eventTypes.byId(2))!];
  for (const et of [first, second]) expect(et.hosts.map((h) => [h.hostId, h.scheduleId])).toEqual([[host.id, null]]);
  expect(first.assignment).toBe("collective");
  // Their settings stay as they were, byte for byte.
  expect(JSON.stringify(first.settings)).toBe(FIRST);
  expect(JSON.stringify(second.settings)).toBe(SECOND);
  expect(await store.eventTypes.byTokenHash(hashToken("bk_first"))).toMatchObject({ id: 1 });
  const booked = await store.reservations.byUuid(1, BOOKED.uuid);
  expect(booked).toMatchObject({ status: "confirmed", startMs: ms(BOOKED.start), email: "ada@example.com", hostIds: [host.id] });
  expect((await store.reservations.byUuid(1, CANCELLED.uuid))!.hostIds).toEqual([host.id]);
  const ofHost = await store.hosts.reservations(host.id, { fromMs: ms("2026-11-24T00:00:00Z"), untilMs: ms("2026-11-25T00:00:00Z"), limit: 10 });
  expect(ofHost.map((r) => r.uuid)).toEqual([BOOKED.uuid, CANCELLED.uuid]);
  const sources = await store.busy.list(host.id);
  expect(sources).toHaveLength(1);
  expect(sources[0]).toMatchObject({
    id: 7,
    hostId: host.id,
    kind: "caldav",
    url: "https://dav.example.com/jana/",
    username: "jana",
    secret: "pw-plain",
    syncState: { zone: "Europe/Prague" },
    objectCount: 1,
    intervalCount: 1,
  });
  expect(await store.busy.objects(7)).toEqual([{ href: "https://dav.example.com/jana/cal/a.ics", etag: '"e1"', ics: OBJECT }]);
  expect(await store.busy.between(host.id, 0, ms("2030-01-01T00:00:00Z"))).toEqual([{ startMs: ms(BUSY.start), endMs: ms(BUSY.end) }]);

  // The second event type now sees the first one's booking and the calendar: one person's time.
  const app = createApp({ store, clock: new ManualClock(T), config: { adminKey: ADMIN_KEY }, log: () => undefined });
  const slots = await app.handle(
    new Request("http://localhost/time-slots?from=2026-11-24&until=2026-11-24", { headers: { authorization: "Bearer bk_second" } }),
  );
  const starts = ((await slots.json()) as { data: { startIso8601: string }[] }).data.map((s) => s.startIso8601);
  expect(starts[0]).toBe("2026-11-24T08:30:00Z");
  expect(starts).not.toContain("2026-11-24T10:00:00Z");
  expect(starts).toContain("2026-11-24T12:00:00Z");
  // An event type created with today's admin body joins the default host.
  const created = await app.handle(
    new Request("http://localhost/admin/event-types", {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "New" }),
    }),
  );
  const view = ((await created.json()) as { data: { hosts: { hostId: number }[] } }).data;
  expect(view.hosts.map((h) => h.hostId)).toEqual([host.id]);
}

describe("migration 10: hosts", () => {
  it.skipIf(ENGINE !== "sqlite")("moves an existing SQLite database to one default host and loses nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-host-migration-"));
    const path = join(dir, "old.sqlite");
    try {
      const db = sqliteAt(path, 9);
      for (const [sql, values] of oldRows(() => "?")) db.query(sql).run(...(values as (string | number | null)[]));
      db.close();
      const store = openSqliteStore(path);
      try {
        await expectMigrated(store);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(ENGINE !== "postgres")("moves an existing PostgreSQL schema to one default host and loses nothing", async () => {
    const schema = `mig_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await postgresAt(client, schema, 9);
      for (const [sql, values] of oldRows((n) => `$${n}`)) await client.query(sql, values);
      // The rows were given their ids, as SQLite's would be: the identities go on after them.
      await client.query("SELECT setval(pg_get_serial_sequence('event_types', 'id'), 2), setval(pg_get_serial_sequence('busy_sources', 'id'), 7)");
      const store = await openPostgresStore(POSTGRES_URL, { schema, poolSize: 2 });
      try {
        await expectMigrated(store);
      } finally {
        await store.close();
      }
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });
});

/**
 * A database as the version before hosts' own feeds left it (schema 14): the default host with an
 * event type of its own, a second host with a team event type. Migration 15 gives every host a feed
 * of its own and replaces the feed address of every event type a host's session could have read.
 */
function feedRows(p: (n: number) => string): [string, unknown[]][] {
  const params = (count: number) => Array.from({ length: count }, (_, i) => p(i + 1)).join(", ");
  const et = (id: number, title: string): [string, unknown[]] => [
    `INSERT INTO event_types (id, token_hash, override_token_hash, settings, revision, created_at, updated_at, webhook_secret, link_token, feed_token, longest_reservation_ms)
     VALUES (${params(11)})`,
    [
      id,
      hashToken(`bk_${title}`),
      hashToken(`bko_${title}`),
      settings(title, {}),
      1,
      T,
      T,
      "whsec_plain",
      `bcl_${id}${"a".repeat(60)}`,
      `bcf_${id}${"b".repeat(60)}`,
      30 * 60_000,
    ],
  ];
  return [
    [
      `INSERT INTO hosts (id, name, email, timezone, avatar_url, created_at_ms, updated_at_ms) VALUES (${params(7)})`,
      [2, "Mia", "mia@example.com", "UTC", null, ms(T), ms(T)],
    ],
    et(1, "Organizer alone"),
    et(2, "With Mia"),
    [`INSERT INTO event_type_hosts (event_type_id, host_id, position) VALUES (${params(3)})`, [1, 1, 0]],
    [`INSERT INTO event_type_hosts (event_type_id, host_id, position) VALUES (${params(3)})`, [2, 1, 0]],
    [`INSERT INTO event_type_hosts (event_type_id, host_id, position) VALUES (${params(3)})`, [2, 2, 1]],
  ];
}

async function expectFeedsMigrated(store: Store): Promise<void> {
  const hosts = await store.hosts.list();
  expect(hosts.map((h) => h.id)).toEqual([1, 2]);
  for (const h of hosts) expect(h.feedToken).toMatch(/^bcf_[A-Za-z0-9_-]{32,100}$/);
  expect(new Set(hosts.map((h) => h.feedToken)).size).toBe(2);
  for (const h of hosts) expect((await store.hosts.byFeedToken(h.feedToken))?.id).toBe(h.id);
  // The default host's own event type keeps its address; the team's, which Mia's session was shown, gets a new one.
  expect((await store.eventTypes.byId(1))!.feedToken).toBe(`bcf_1${"b".repeat(60)}`);
  const team = (await store.eventTypes.byId(2))!.feedToken;
  expect(team).not.toBe(`bcf_2${"b".repeat(60)}`);
  expect(team).toMatch(/^bcf_[A-Za-z0-9_-]{32,100}$/);
  expect(await store.eventTypes.byFeedToken(`bcf_2${"b".repeat(60)}`)).toBeNull();
}

describe("migration 15: a feed per host", () => {
  it.skipIf(ENGINE !== "sqlite")("gives every host of a SQLite database a feed and replaces the team event types' feed addresses", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-feed-migration-"));
    const path = join(dir, "old.sqlite");
    try {
      const db = sqliteAt(path, 14);
      for (const [sql, values] of feedRows(() => "?")) db.query(sql).run(...(values as (string | number | null)[]));
      db.close();
      const store = openSqliteStore(path);
      try {
        await expectFeedsMigrated(store);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(ENGINE !== "postgres")("gives every host of a PostgreSQL schema a feed and replaces the team event types' feed addresses", async () => {
    const schema = `mig_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await postgresAt(client, schema, 14);
      for (const [sql, values] of feedRows((n) => `$${n}`)) await client.query(sql, values);
      await client.query("SELECT setval(pg_get_serial_sequence('event_types', 'id'), 2), setval(pg_get_serial_sequence('hosts', 'id'), 2)");
      const store = await openPostgresStore(POSTGRES_URL, { schema, poolSize: 2 });
      try {
        await expectFeedsMigrated(store);
      } finally {
        await store.close();
      }
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });
});
