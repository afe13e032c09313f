import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ICAL from "ical.js";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import { openSqliteStore } from "../src/store/sqlite/index.ts";
import { organizerBookingUid } from "../src/modules/invites/ics.ts";
import { postgresAt, sqliteAt } from "./old-databases.ts";
import { ENGINE, POSTGRES_URL, reservation, setup } from "./utils.ts";

// The clock of setup() stands on Monday 2026-11-23T07:00:00Z (08:00 in Prague, UTC+1 in November).
// The event types below offer 30-minute slots on weekdays 09:00-17:00 in Prague.

const FEED_TOKEN = /^bcf_[A-Za-z0-9_-]{43}$/;
const TUE_0900 = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };

type World = Awaited<ReturnType<typeof setup>>;

async function create(w: World, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const r = await w.admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", cancelNoticeMinutes: 0, ...body });
  expect(r.status).toBe(200);
  return r.body.data;
}

const feedPath = (feedToken: string): string => `/feeds/${feedToken}.ics`;

/** The VEVENTs of a feed, each as its properties' first values, dates as UTC text. */
function eventsOf(text: string): Record<string, string>[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents("vevent").map((vevent) =>
    Object.fromEntries(
      vevent.getAllProperties().map((p) => {
        const value = p.getFirstValue();
        return [p.name, value instanceof ICAL.Time ? value.toString() : String(value)];
      }),
    ),
  );
}

describe("the booking feed's address", () => {
  it("is given to every new event type, unguessable and apart from its other tokens, with its absolute URL", async () => {
    const w = await setup();
    const a = await create(w);
    const b = await create(w, { title: "Workshop" });
    expect(a.feedToken).toMatch(FEED_TOKEN);
    expect(a.feedToken).not.toBe(b.feedToken);
    expect([a.token, a.overrideToken, a.linkToken]).not.toContain(a.feedToken);
    expect(a.feedUrl).toBe(`http://localhost/feeds/${a.feedToken}.ics`);
    const read = await w.admin("GET", `/admin/event-types/${a.id}`);
    expect(read.body.data).toMatchObject({ feedToken: a.feedToken, feedUrl: a.feedUrl });
    const list = await w.admin("GET", "/admin/event-types");
    expect(list.body.data.map((et: { feedUrl: string }) => et.feedUrl)).toEqual([a.feedUrl, b.feedUrl]);
  });

  it("uses the configured public URL", async () => {
    const w = await setup({ config: { publicUrl: "https://book.example.org" } });
    const et = await create(w);
    expect(et.feedUrl).toBe(`https://book.example.org/feeds/${et.feedToken}.ics`);
  });

  it("is rotated by the admin API: the old address stops working at once, the new one works", async () => {
    const w = await setup();
    const et = await create(w);
    expect((await w.call("GET", feedPath(et.feedToken))).status).toBe(200);
    const rotated = await w.admin("POST", `/admin/event-types/${et.id}/feed-token`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toEqual({ id: et.id, feedToken: expect.stringMatching(FEED_TOKEN), feedUrl: expect.any(String) });
    const fresh = rotated.body.data.feedToken;
    expect(fresh).not.toBe(et.feedToken);
    expect(rotated.body.data.feedUrl).toBe(`http://localhost/feeds/${fresh}.ics`);
    const old = await w.call("GET", feedPath(et.feedToken));
    expect(old.status).toBe(404);
    expect(old.body).toMatchObject({ success: false, code: "not_found" });
    expect((await w.call("GET", feedPath(fresh))).status).toBe(200);
    expect((await w.admin("GET", `/admin/event-types/${et.id}`)).body.data.feedToken).toBe(fresh);
    // The API token still works: only the feed changed.
    expect((await w.call("GET", "/configuration", { token: et.token })).status).toBe(200);
  });

  it("is rotated only with the admin key, and only for an event type that exists", async () => {
    const w = await setup();
    const et = await create(w);
    expect((await w.call("POST", `/admin/event-types/${et.id}/feed-token`)).status).toBe(401);
    expect((await w.call("POST", `/admin/event-types/${et.id}/feed-token`, { token: et.token })).status).toBe(403);
    const missing = await w.admin("POST", "/admin/event-types/999999/feed-token");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, code: "not_found" });
    expect((await w.call("GET", feedPath(et.feedToken))).status).toBe(200);
  });
});

describe("GET /feeds/{token}.ics", () => {
  it("keeps serving a disabled event type's feed, and stops with its deletion", async () => {
    const w = await setup();
    const et = await create(w);
    await w.store.reservations.insertMany([reservation(et.id, "2026-11-24T08:00:00Z", 30)]);
    expect((await w.admin("POST", `/admin/event-types/${et.id}/disable`)).status).toBe(200);
    const disabled = await w.call("GET", feedPath(et.feedToken));
    expect(disabled.status).toBe(200);
    expect(eventsOf(disabled.text)).toHaveLength(1);
    expect((await w.admin("DELETE", `/admin/event-types/${et.id}`)).status).toBe(200);
    expect((await w.call("GET", feedPath(et.feedToken))).status).toBe(404);
  });

  it("answers text/calendar with one VEVENT per confirmed booking of its event type only", async () => {
    const w = await setup();
    const et = await create(w, {
      locations: [{ type: "video-meet" }, { type: "address", value: "Main Street 1, Brno" }],
      customFields: [{ label: "Company", name: "company", type: "text" }],
    });
    const other = await create(w, { title: "Other" });
    const company = et.customFields[0].uuid;
    const confirmed = reservation(et.id, "2026-11-24T08:00:00Z", 30, {
      firstname: "Ada",
      lastname: "Lovelace",
      email: "ada@example.com",
      phone: "+420 111 222 333",
      guests: ["charles@example.com"],
      meetLink: "https://meet.example.org/ada-1234",
      customFields: [{ uuid: company, value: "Analytical Engines" }],
      createdAtMs: Date.parse("2026-11-20T10:00:00Z"),
      updatedAtMs: Date.parse("2026-11-20T10:05:00Z"),
    });
    const inPerson = reservation(et.id, "2026-11-25T13:00:00Z", 45, {
      firstname: "",
      lastname: "",
      email: "grace@example.com",
      location: { type: "address", value: "Main Street 1, Brno" },
    });
    const recent = reservation(et.id, "2026-08-26T08:00:00Z", 30, { email: "recent@example.com" }); // ended 89 days before now
    await w.store.reservations.insertMany([
      confirmed,
      inPerson,
      recent,
      reservation(et.id, "2026-08-24T08:00:00Z", 30, { email: "old@example.com" }), // ended 91 days before now
      reservation(et.id, "2026-11-26T08:00:00Z", 30, { status: "held", heldUntilMs: Date.parse("2026-11-23T07:05:00Z"), email: "held@example.com" }),
      reservation(et.id, "2026-11-26T09:00:00Z", 30, {
        status: "cancelled",
        cancelledAtMs: Date.parse("2026-11-22T00:00:00Z"),
        email: "cancelled@example.com",
      }),
      reservation(et.id, "2026-11-26T10:00:00Z", 30, { status: "expired", heldUntilMs: Date.parse("2026-11-22T00:00:00Z"), email: "expired@example.com" }),
      reservation(other.id, "2026-11-24T10:00:00Z", 30, { firstname: "Eve", lastname: "Other", email: "eve@example.com" }),
    ]);

    const r = await w.call("GET", feedPath(et.feedToken));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("private, no-cache");
    expect(r.headers.get("referrer-policy")).toBe("no-referrer");
    expect(r.text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(r.text).toContain("\r\nX-WR-CALNAME:Bookings: Intro call\r\n");
    for (const absent of ["eve@example.com", "Eve", "held@", "cancelled@", "expired@", "old@"]) expect(r.text).not.toContain(absent);

    const events = eventsOf(r.text);
    // The UID of the organizer's email copy and of the entry written into a CalDAV calendar: one entry everywhere.
    expect(events.map((e) => e.uid)).toEqual([organizerBookingUid(recent.uuid), organizerBookingUid(confirmed.uuid), organizerBookingUid(inPerson.uuid)]);
    expect(events[1]).toMatchObject({
      uid: organizerBookingUid(confirmed.uuid),
      sequence: "0",
      organizer: "mailto:bookings@localhost",
      dtstart: "2026-11-24T08:00:00Z",
      dtend: "2026-11-24T08:30:00Z",
      dtstamp: "2026-11-20T10:05:00Z",
      summary: "Intro call: Ada Lovelace",
      location: "https://meet.example.org/ada-1234",
      status: "CONFIRMED",
    });
    expect(events[1]!.description!.split("\n")).toEqual([
      "Booked by Ada Lovelace <ada@example.com>",
      "Phone: +420 111 222 333",
      "Guests: charles@example.com",
      "Company: Analytical Engines",
    ]);
    // Whoever the feed is shared with learns no reservation's uuid, which with the booking page's link token cancels it.
    for (const uuid of [confirmed.uuid, inPerson.uuid, recent.uuid]) expect(r.text).not.toContain(uuid);
    expect(events[2]).toMatchObject({
      dtstart: "2026-11-25T13:00:00Z",
      dtend: "2026-11-25T13:45:00Z",
      summary: "Intro call: grace@example.com",
      location: "Main Street 1, Brno",
    });
    // UTC times are written with Z, as RFC 5545 form 2.
    expect(r.text).toContain("\r\nDTSTART:20261124T080000Z\r\n");
  });

  it("shows a booking made through the API, and drops it when it is cancelled", async () => {
    const w = await setup({ config: NO_RATE_LIMIT });
    const et = await create(w);
    const empty = await w.call("GET", feedPath(et.feedToken));
    expect(eventsOf(empty.text)).toEqual([]);

    const booked = await w.call("POST", "/reservations", {
      token: et.token,
      body: { ...TUE_0900, email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" },
    });
    expect(booked.status).toBe(200);
    const uuid = booked.body.data.uuid;
    const withBooking = await w.call("GET", feedPath(et.feedToken));
    expect(eventsOf(withBooking.text)).toEqual([
      expect.objectContaining({
        uid: organizerBookingUid(uuid),
        dtstart: "2026-11-24T08:00:00Z",
        dtend: "2026-11-24T08:30:00Z",
        summary: "Intro call: Ada Lovelace",
      }),
    ]);

    expect((await w.call("DELETE", `/reservations/${uuid}`, { token: et.token })).status).toBe(200);
    const afterCancel = await w.call("GET", feedPath(et.feedToken));
    expect(eventsOf(afterCancel.text)).toEqual([]);
    expect(afterCancel.headers.get("etag")).not.toBe(withBooking.headers.get("etag"));
  });

  it("answers 304 to a request that names its ETag, and the full feed once it changed", async () => {
    const w = await setup();
    const et = await create(w);
    await w.store.reservations.insertMany([reservation(et.id, "2026-11-24T08:00:00Z", 30)]);
    const first = await w.call("GET", feedPath(et.feedToken));
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    // The same bookings give the same text and ETag.
    const again = await w.call("GET", feedPath(et.feedToken));
    expect(again.text).toBe(first.text);
    expect(again.headers.get("etag")).toBe(etag);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const cached = await w.call("GET", feedPath(et.feedToken), { headers: { "if-none-match": ifNoneMatch } });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe("");
      expect(cached.headers.get("etag")).toBe(etag);
    }
    expect((await w.call("GET", feedPath(et.feedToken), { headers: { "if-none-match": '"something-else"' } })).status).toBe(200);

    await w.store.reservations.insertMany([reservation(et.id, "2026-11-25T08:00:00Z", 30)]);
    const changed = await w.call("GET", feedPath(et.feedToken), { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(eventsOf(changed.text)).toHaveLength(2);
  });

  it("answers the JSON 404 to any address that is not a feed's", async () => {
    const w = await setup({ config: NO_RATE_LIMIT });
    const et = await create(w);
    const wrong = [
      feedPath(`bcf_${"A".repeat(43)}`),
      `/feeds/${et.feedToken}`,
      `/feeds/${et.feedToken}.json`,
      feedPath(et.token),
      feedPath(et.linkToken),
      feedPath(""),
      "/feeds/%ZZ.ics",
      feedPath(`${et.feedToken}' OR '1'='1`),
    ];
    for (const path of wrong) {
      const r = await w.call("GET", path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get("content-type"), path).toContain("application/json");
      expect(r.body, path).toMatchObject({ success: false, code: "not_found" });
    }
  });
});

describe("upgrading a database made before booking feeds", () => {
  it("gives every existing SQLite event type its own feed token", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-feeds-"));
    try {
      const path = join(dir, "old.sqlite");
      const db = sqliteAt(path, 4);
      const insert = db.query(
        "INSERT INTO event_types (token_hash, override_token_hash, link_token, settings, created_at, updated_at) VALUES (?, ?, ?, '{}', 'x', 'x')",
      );
      insert.run("hash-a", "override-a", "bcl_a");
      insert.run("hash-b", "override-b", "bcl_b");
      db.close();

      const store = openSqliteStore(path);
      try {
        const [a, b] = await store.eventTypes.list();
        expect(a!.feedToken).toMatch(/^bcf_[0-9a-f]{64}$/);
        expect(b!.feedToken).toMatch(/^bcf_[0-9a-f]{64}$/);
        expect(a!.feedToken).not.toBe(b!.feedToken);
        expect((await store.eventTypes.byFeedToken(b!.feedToken))?.tokenHash).toBe("hash-b");
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(ENGINE === "postgres")("gives every existing PostgreSQL event type its own feed token", async () => {
    const schema = `t_feeds_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await postgresAt(client, schema, 4);
      for (const n of ["a", "b"]) {
        await client.query(
          "INSERT INTO event_types (token_hash, override_token_hash, link_token, settings, webhook_secret, created_at, updated_at) VALUES ($1, $2, $3, '{}', 'whsec_x', 'x', 'x')",
          [`hash-${n}`, `override-${n}`, `bcl_${n}`],
        );
      }
      const store = await openPostgresStore(POSTGRES_URL, { schema, poolSize: 2 });
      try {
        const [a, b] = await store.eventTypes.list();
        expect(a!.feedToken).toMatch(/^bcf_[0-9a-f]{64}$/);
        expect(b!.feedToken).toMatch(/^bcf_[0-9a-f]{64}$/);
        expect(a!.feedToken).not.toBe(b!.feedToken);
        expect((await store.eventTypes.byFeedToken(a!.feedToken))?.tokenHash).toBe("hash-a");
      } finally {
        await store.close();
      }
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});
