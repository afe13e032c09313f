import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import { openSqliteStore } from "../src/store/sqlite/index.ts";
import { postgresAt, sqliteAt } from "./old-databases.ts";
import { ENGINE, POSTGRES_URL, setup, type Answer } from "./utils.ts";
import { manageActionOf, manageActionUrlOf, manageUrlOf } from "../src/lib/links.ts";

// The clock of setup() starts on Monday 2026-11-23T07:00:00Z, 08:00 in Prague. The event types
// below offer 30-minute slots on weekdays 09:00-17:00 in Prague with no reschedule notice.

const TUE_0900 = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
const THU_1000 = { start: "2026-11-26T10:00:00+01:00", end: "2026-11-26T10:30:00+01:00" };
const LINK_TOKEN = /^bcl_[A-Za-z0-9_-]{43}$/;
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };

type World = Awaited<ReturnType<typeof setup>>;

const BUILT_CALENDAR = '/* booking-calendar build for page tests */ customElements.define("booking-calendar", class extends HTMLElement {});\n';

/** A script-tag build of the calendar in a fresh directory, so pages link it under its version. */
function builtCalendar(): string {
  const path = join(mkdtempSync(join(tmpdir(), "pages-")), "booking-calendar.js");
  writeFileSync(path, BUILT_CALENDAR);
  return path;
}

/** The version the server names a script by: 16 hex digits of its SHA-256. */
const versionOf = (source: string) => createHash("sha256").update(source).digest("hex").slice(0, 16);

/** Creates an event type through the admin API and answers its data (tokens included). */
async function create(w: World, body: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await w.admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", rescheduleNoticeMinutes: 0, ...body });
  expect(r.status).toBe(200);
  return r.body.data;
}

/** Asserts a 422 whose errors name `slug`. */
function expectSlugRefused(r: Answer): void {
  expect(r.status).toBe(422);
  expect(r.body).toMatchObject({ success: false, code: "validation_failed" });
  expect(r.body.errors.slug).toEqual([expect.any(String)]);
}

/** Text with the numeric character references and `&amp;` of the server's escaping decoded (HTMLRewriter leaves them). */
const decoded = (text: string): string => text.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))).replace(/&amp;/g, "&");

/** The attributes of the first element named `tag` in a page, read by Bun's HTML parser, values decoded. */
async function attributesOf(html: string, tag: string): Promise<Record<string, string> | null> {
  let found: Record<string, string> | null = null;
  await new HTMLRewriter()
    .on(tag, {
      element(element) {
        found ??= Object.fromEntries([...element.attributes].map(([name, value]) => [name, decoded(value)]));
      },
    })
    .transform(new Response(html))
    .text();
  return found;
}

/** The text of the first element named `tag`, entities decoded. */
async function textOf(html: string, tag: string): Promise<string> {
  let text = "";
  await new HTMLRewriter()
    .on(tag, {
      text(chunk) {
        text += chunk.text;
      },
    })
    .transform(new Response(html))
    .text();
  return decoded(text);
}

describe("event type slugs", () => {
  it("stores a slug given on create and shows it with the publishable link token", async () => {
    const w = await setup();
    const et = await create(w, { slug: "intro-call" });
    expect(et.slug).toBe("intro-call");
    expect(et.linkToken).toMatch(LINK_TOKEN);
    expect(et.linkToken).not.toBe(et.token);
    const read = await w.admin("GET", `/admin/event-types/${et.id}`);
    expect(read.body.data).toMatchObject({ id: et.id, slug: "intro-call", linkToken: et.linkToken });
    expect(read.body.data).not.toHaveProperty("token");
    expect((await w.store.eventTypes.bySlug("intro-call"))?.id).toBe(et.id);
    // The slug lives in its own column, not in the settings.
    expect((await w.store.eventTypes.byId(et.id))!.settings).not.toHaveProperty("slug");
  });

  it("answers 422 on slug when another event type has it, on create and on change, and lets an event type keep its own", async () => {
    const w = await setup();
    const first = await create(w, { slug: "intro-call" });
    expectSlugRefused(await w.admin("POST", "/admin/event-types", { title: "Copy", slug: "intro-call" }));
    const second = await create(w, { title: "Second", slug: "second" });
    expectSlugRefused(await w.admin("PATCH", `/admin/event-types/${second.id}`, { slug: "intro-call", title: "Renamed" }));
    // Nothing of the refused change was written.
    expect((await w.admin("GET", `/admin/event-types/${second.id}`)).body.data).toMatchObject({ slug: "second", title: "Second" });
    const again = await w.admin("PATCH", `/admin/event-types/${first.id}`, { slug: "intro-call", description: "Same slug" });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ slug: "intro-call", description: "Same slug" });
    expect((await w.store.eventTypes.list()).map((e) => e.slug)).toEqual(["intro-call", "second"]);
  });

  it("refuses slugs that are not lowercase letters and digits in words joined by single hyphens, or longer than 64", async () => {
    const w = await setup();
    for (const slug of ["Intro-Call", "intro_call", "-intro", "intro-", "intro--call", "intro call", "über", "", "a".repeat(65), 42]) {
      expectSlugRefused(await w.admin("POST", "/admin/event-types", { title: "Bad", slug }));
    }
    expect(await w.store.eventTypes.count()).toBe(0);
    expect((await create(w, { slug: "a".repeat(64) })).slug).toBe("a".repeat(64));
    expect((await create(w, { slug: "2026-q4-review-call" })).slug).toBe("2026-q4-review-call");
  });

  it("removes the slug with null, which takes the page down and frees the slug for another event type", async () => {
    const w = await setup();
    const first = await create(w, { slug: "intro-call" });
    const removed = await w.admin("PATCH", `/admin/event-types/${first.id}`, { slug: null });
    expect(removed.status).toBe(200);
    expect(removed.body.data.slug).toBeNull();
    expect((await w.call("GET", "/book/intro-call")).status).toBe(404);
    const other = await create(w, { title: "Other", slug: "intro-call" });
    expect(other.slug).toBe("intro-call");
    expect((await w.call("GET", "/book/intro-call")).text).toContain("<h1>Other</h1>");
  });

  it("leaves event types without a slug when none is given, any number of them", async () => {
    const w = await setup();
    const a = await create(w, {});
    const b = await create(w, { title: "Second" });
    expect([a.slug, b.slug]).toEqual([null, null]);
    expect(a.linkToken).not.toBe(b.linkToken);
  });
});

describe("the publishable link token", () => {
  it("acts on the public API like the event type's API token", async () => {
    const w = await setup();
    const et = await create(w, { slug: "intro-call" });
    const config = await w.call("GET", "/configuration", { token: et.linkToken });
    expect(config.status).toBe(200);
    expect(config.body.data.configuration.title).toBe("Intro call");
    const booked = await w.call("POST", "/reservations", { token: et.linkToken, body: { ...TUE_0900, email: "ada@example.com" } });
    expect(booked.body.success).toBe(true);
    const listed = await w.admin("GET", `/admin/event-types/${et.id}/reservations?from=2026-11-24&until=2026-11-24`);
    expect(listed.body.data.map((r: { uuid: string }) => r.uuid)).toEqual([booked.body.data.uuid]);
    // The same rules: another event type's reservation is not found, a made-up link token is 401.
    const other = await create(w, { title: "Other", slug: "other" });
    expect((await w.call("DELETE", `/reservations/${booked.body.data.uuid}`, { token: other.linkToken })).status).toBe(404);
    expect((await w.call("GET", "/configuration", { token: "bcl_made-up" })).body.code).toBe("unauthenticated");
  });

  it("answers 403 event_type_disabled for a disabled event type, except init, and 403 on the admin API", async () => {
    const w = await setup();
    const et = await create(w, { slug: "closed", disabled: true });
    const config = await w.call("GET", "/configuration", { token: et.linkToken });
    expect(config.status).toBe(403);
    expect(config.body.code).toBe("event_type_disabled");
    const init = await w.call("POST", "/event-types/init", { token: et.linkToken });
    expect(init.status).toBe(200);
    expect(init.body.data.disabled).toBe(true);
    const admin = await w.call("GET", "/admin/event-types", { token: et.linkToken });
    expect(admin.status).toBe(403);
    expect(admin.body.code).toBe("forbidden");
  });

  it("is replaced with the API token, the old one stopping at once; a new override token leaves it", async () => {
    const w = await setup();
    const et = await create(w, { slug: "intro-call" });
    const override = await w.admin("POST", `/admin/event-types/${et.id}/token`, { kind: "override" });
    expect(override.body.data).not.toHaveProperty("linkToken");
    expect((await w.call("GET", "/configuration", { token: et.linkToken })).status).toBe(200);

    const renewed = await w.admin("POST", `/admin/event-types/${et.id}/token`);
    expect(renewed.body.data.linkToken).toMatch(LINK_TOKEN);
    expect(renewed.body.data.linkToken).not.toBe(et.linkToken);
    expect((await w.call("GET", "/configuration", { token: et.linkToken })).status).toBe(401);
    expect((await w.call("GET", "/configuration", { token: renewed.body.data.linkToken })).status).toBe(200);
    expect((await w.admin("GET", `/admin/event-types/${et.id}`)).body.data.linkToken).toBe(renewed.body.data.linkToken);
    // The page carries the new one.
    expect((await attributesOf((await w.call("GET", "/book/intro-call")).text, "booking-calendar"))!.token).toBe(renewed.body.data.linkToken);
  });
});

describe("upgrading a database made before booking pages", () => {
  it("gives every existing SQLite event type its own link token and no slug", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-links-"));
    try {
      const path = join(dir, "old.sqlite");
      const db = sqliteAt(path, 3);
      const insert = db.query("INSERT INTO event_types (token_hash, override_token_hash, settings, created_at, updated_at) VALUES (?, ?, '{}', 'x', 'x')");
      insert.run("hash-a", "override-a");
      insert.run("hash-b", "override-b");
      db.close();

      const store = openSqliteStore(path);
      const raw = new Database(path, { readonly: true });
      try {
        const rows = raw.query<{ slug: string | null; link_token: string }, []>("SELECT slug, link_token FROM event_types ORDER BY id").all();
        expect(rows).toHaveLength(2);
        for (const row of rows) {
          expect(row.slug).toBeNull();
          expect(row.link_token).toMatch(/^bcl_[0-9a-f]{64}$/);
        }
        expect(rows[0]!.link_token).not.toBe(rows[1]!.link_token);
        expect((await store.eventTypes.byLinkToken(rows[1]!.link_token))?.tokenHash).toBe("hash-b");
      } finally {
        raw.close();
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(ENGINE === "postgres")("gives every existing PostgreSQL event type its own link token and no slug", async () => {
    const schema = `t_links_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await postgresAt(client, schema, 2);
      for (const n of ["a", "b"]) {
        await client.query(
          "INSERT INTO event_types (token_hash, override_token_hash, settings, webhook_secret, created_at, updated_at) VALUES ($1, $2, '{}', 'whsec_x', 'x', 'x')",
          [`hash-${n}`, `override-${n}`],
        );
      }
      const store = await openPostgresStore(POSTGRES_URL, { schema, poolSize: 2 });
      try {
        const rows = (await client.query<{ slug: string | null; link_token: string }>("SELECT slug, link_token FROM event_types ORDER BY id")).rows;
        expect(rows.map((r) => r.slug)).toEqual([null, null]);
        for (const row of rows) expect(row.link_token).toMatch(/^bcl_[0-9a-f]{64}$/);
        expect(rows[0]!.link_token).not.toBe(rows[1]!.link_token);
        expect((await store.eventTypes.byLinkToken(rows[0]!.link_token))?.tokenHash).toBe("hash-a");
      } finally {
        await store.close();
      }
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});

describe("GET /book/{slug}", () => {
  it("serves an accessible HTML page that loads the calendar with the link token and the server's origin", async () => {
    const w = await setup({ calendarScriptPath: builtCalendar() });
    const et = await create(w, { slug: "intro-call", description: "A first conversation." });
    const r = await w.call("GET", "/book/intro-call");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.headers.get("referrer-policy")).toBe("no-referrer");
    expect(r.headers.get("x-robots-tag")).toBeNull();
    // The contract's headers are on the page too.
    expect(r.headers.get("service-api-version")).toBe("1");
    expect(r.headers.get("apigw-requestid")).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.text).toMatch(/^<!doctype html>/);
    expect(await attributesOf(r.text, "html")).toEqual({ lang: "en" });
    expect(await textOf(r.text, "title")).toBe("Intro call");
    expect(await attributesOf(r.text, 'meta[name="viewport"]')).toEqual({ name: "viewport", content: "width=device-width, initial-scale=1" });
    expect(await textOf(r.text, "main h1")).toBe("Intro call");
    expect(await textOf(r.text, "main p.description")).toBe("A first conversation.");
    // The element's script under its versioned URL, deferred so it never holds up the first paint.
    expect(await attributesOf(r.text, "script")).toEqual({ src: `/embed/v/${versionOf(BUILT_CALENDAR)}/booking-calendar.js`, defer: "" });
    expect(await attributesOf(r.text, "main booking-calendar")).toEqual({ token: et.linkToken, "api-base": "http://localhost" });
    expect(r.text).not.toContain(et.token);
  });

  it("opens the reschedule view for ?reservation=<uuid> and keeps such a personal page out of search engines", async () => {
    const w = await setup();
    const et = await create(w, { slug: "intro-call" });
    const uuid = "0B8A3A3E-6D1C-4F3E-9A55-2F7B6D1E9C01";
    const r = await w.call("GET", `/book/intro-call?reservation=${uuid}`);
    expect(r.status).toBe(200);
    expect(await attributesOf(r.text, "booking-calendar")).toEqual({
      token: et.linkToken,
      "api-base": "http://localhost",
      "reservation-uuid": uuid.toLowerCase(),
    });
    expect(r.headers.get("x-robots-tag")).toBe("noindex");
  });

  it("passes a manage link's action to the calendar: the question to cancel, or the new times", async () => {
    const w = await setup();
    const et = await create(w, { slug: "intro-call" });
    const uuid = "0b8a3a3e-6d1c-4f3e-9a55-2f7b6d1e9c01";
    for (const action of ["cancel", "reschedule"]) {
      const r = await w.call("GET", `/book/intro-call?reservation=${uuid}&action=${action}`);
      expect(await attributesOf(r.text, "booking-calendar")).toEqual({
        token: et.linkToken,
        "api-base": "http://localhost",
        "reservation-uuid": uuid,
        "manage-action": action,
      });
    }
    // Another value, or an action without a booking to manage, is ignored.
    for (const query of [`reservation=${uuid}&action=delete`, `reservation=${uuid}&action=%22%3E%3Cscript%3E`, "action=cancel"]) {
      const r = await w.call("GET", `/book/intro-call?${query}`);
      expect(r.status).toBe(200);
      expect(await attributesOf(r.text, "booking-calendar"), query).not.toHaveProperty("manage-action");
    }
    // The link the emails carry is the manage link with the action.
    expect(manageActionUrlOf(manageUrlOf("https://book.example", "intro-call", uuid)!, "cancel")).toBe(
      `https://book.example/book/intro-call?reservation=${uuid}&action=cancel`,
    );
    expect([manageActionOf("reschedule"), manageActionOf("Cancel"), manageActionOf(null)]).toEqual(["reschedule", null, null]);
  });

  it("ignores a reservation parameter that is not a uuid", async () => {
    const w = await setup();
    await create(w, { slug: "intro-call" });
    for (const value of ["x", '"><script>alert(1)</script>', "0b8a3a3e-6d1c-4f3e-9a55-2f7b6d1e9c0", ""]) {
      const r = await w.call("GET", `/book/intro-call?reservation=${encodeURIComponent(value)}&utm_source=mail`);
      expect(r.status).toBe(200);
      const calendar = await attributesOf(r.text, "booking-calendar");
      expect(calendar).not.toHaveProperty("reservation-uuid");
      expect(r.text).not.toContain("alert(1)");
    }
  });

  it("escapes every value it writes into the page", async () => {
    const w = await setup();
    const title = `Ada's <b>"launch"</b> & co`;
    const description = "</p><script>alert(1)</script>";
    await create(w, { slug: "launch", title, description });
    const r = await w.call("GET", "/book/launch");
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("<b>");
    expect(r.text).not.toContain("<script>alert");
    expect(await textOf(r.text, "title")).toBe(title);
    expect(await textOf(r.text, "h1")).toBe(title);
    expect(await textOf(r.text, "p.description")).toBe(description);
    expect(await attributesOf(r.text, 'meta[name="description"]')).toEqual({ name: "description", content: description });
  });

  it("gives the calendar BOOKING_PUBLIC_URL as its API base when set", async () => {
    const w = await setup({ config: { publicUrl: "https://book.example.com" } });
    await create(w, { slug: "intro-call" });
    const r = await w.call("GET", "/book/intro-call");
    expect((await attributesOf(r.text, "booking-calendar"))!["api-base"]).toBe("https://book.example.com");
  });

  it("renders the page of a disabled event type, whose calendar then says it takes no bookings, in the event type's language", async () => {
    const w = await setup();
    await create(w, { slug: "workshop", title: "Workshop", disabled: true, locale: { preset: "de-AT" } });
    const r = await w.call("GET", "/book/workshop");
    expect(r.status).toBe(200);
    expect(await attributesOf(r.text, "html")).toEqual({ lang: "de-AT" });
    expect(await attributesOf(r.text, "booking-calendar")).not.toBeNull();
  });

  it("finds the page whatever the case of the slug in the address", async () => {
    const w = await setup();
    await create(w, { slug: "intro-call" });
    expect((await w.call("GET", "/book/Intro-Call")).status).toBe(200);
  });

  it("answers an unknown slug with a friendly HTML page and 404, not the API's JSON", async () => {
    const w = await setup();
    await create(w, { slug: "intro-call" });
    for (const path of ["/book/no-such-page", "/book/%ZZ", `/book/${"a".repeat(300)}`, "/book/intro_call", "/book/", "/book"]) {
      const r = await w.call("GET", path);
      expect(r.status).toBe(404);
      expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(r.body).toBeUndefined();
      expect(await attributesOf(r.text, "html")).toEqual({ lang: "en" });
      expect(await textOf(r.text, "main h1")).toBe("Booking page not found");
      expect(await attributesOf(r.text, "booking-calendar")).toBeNull();
    }
  });
});

describe("booking links in answers and webhooks", () => {
  it("gives the booking page's address as configuration.bookingUrl, also through the alias and init, null without a slug", async () => {
    const w = await setup();
    const et = await create(w, { slug: "intro-call" });
    for (const path of ["/configuration", "/booking-api/configuration"]) {
      expect((await w.call("GET", path, { token: et.token })).body.data.configuration.bookingUrl).toBe("http://localhost/book/intro-call");
    }
    expect((await w.call("POST", "/event-types/init", { token: et.linkToken })).body.data.configuration.bookingUrl).toBe("http://localhost/book/intro-call");
    const bare = await create(w, { title: "No page" });
    expect((await w.call("GET", "/configuration", { token: bare.token })).body.data.configuration.bookingUrl).toBeNull();

    const behindProxy = await setup({ config: { publicUrl: "https://book.example.com" } });
    const proxied = await create(behindProxy, { slug: "intro-call" });
    expect((await behindProxy.call("GET", "/configuration", { token: proxied.token })).body.data.configuration.bookingUrl).toBe(
      "https://book.example.com/book/intro-call",
    );
  });

  it("follows a slug change in the configuration at once", async () => {
    const w = await setup();
    const et = await create(w, { slug: "intro-call" });
    expect((await w.call("GET", "/configuration", { token: et.token })).body.data.configuration.bookingUrl).toBe("http://localhost/book/intro-call");
    await w.admin("PATCH", `/admin/event-types/${et.id}`, { slug: "first-call" });
    expect((await w.call("GET", "/configuration", { token: et.token })).body.data.configuration.bookingUrl).toBe("http://localhost/book/first-call");
  });

  it("answers the visitor's manage link from create, prepare, confirm and reschedule", async () => {
    const w = await setup({ config: NO_RATE_LIMIT });
    const et = await create(w, { slug: "intro-call" });
    const call = (method: string, path: string, body?: unknown) => w.call(method, path, { token: et.token, body });
    const manage = (uuid: string) => `http://localhost/book/intro-call?reservation=${uuid}`;

    const booked = await call("POST", "/reservations", { ...TUE_0900, email: "ada@example.com" });
    expect(booked.body.data.manageUrl).toBe(manage(booked.body.data.uuid));
    const moved = await call("PUT", `/reservations/${booked.body.data.uuid}`, THU_1000);
    expect(moved.body.data.manageUrl).toBe(manage(booked.body.data.uuid));

    const held = await call("POST", "/reservations/prepare", { ...TUE_0900, email: "grace@example.com" });
    expect(held.body.data.manageUrl).toBe(manage(held.body.data.uuid));
    const confirmed = await call("POST", `/reservations/${held.body.data.uuid}/confirm`);
    expect(confirmed.body.data.manageUrl).toBe(manage(held.body.data.uuid));

    // A retry with the same Idempotency-Key replays the same answer, link included.
    const body = { ...THU_1000, start: "2026-11-26T11:00:00+01:00", end: "2026-11-26T11:30:00+01:00", email: "alan@example.com" };
    const first = await w.call("POST", "/reservations", { token: et.token, body, headers: { "idempotency-key": "k1" } });
    const replay = await w.call("POST", "/reservations", { token: et.token, body, headers: { "idempotency-key": "k1" } });
    expect(replay.body).toEqual(first.body);
    expect(replay.body.data.manageUrl).toBe(manage(first.body.data.uuid));
  });

  it("puts the manage link into the webhook payloads of created, rescheduled and cancelled", async () => {
    const w = await setup({ config: { ...NO_RATE_LIMIT, publicUrl: "https://book.example.com" } });
    const et = await create(w, { slug: "intro-call", webhookUrl: "http://127.0.0.1:9/hooks", cancelNoticeMinutes: 0 });
    const uuid = (await w.call("POST", "/reservations", { token: et.token, body: { ...TUE_0900, email: "ada@example.com" } })).body.data.uuid;
    await w.call("PUT", `/reservations/${uuid}`, { token: et.token, body: THU_1000 });
    await w.call("DELETE", `/reservations/${uuid}`, { token: et.token });
    const events = (await w.store.webhooks.recent(et.id, 10)).reverse().map((d) => JSON.parse(d.payload));
    expect(events.map((e) => e.type)).toEqual(["reservation.created", "reservation.rescheduled", "reservation.cancelled"]);
    for (const event of events) expect(event.data.manageUrl).toBe(`https://book.example.com/book/intro-call?reservation=${uuid}`);
  });
});
