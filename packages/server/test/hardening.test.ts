import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config.ts";
import { ADMIN_KEY, setup } from "./utils.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), "booking-hardening-"));
  dirs.push(dir);
  return join(dir, "db.sqlite");
};

const weekdays = (ranges: { start: string; end: string }[]) => ({
  monday: ranges,
  tuesday: ranges,
  wednesday: ranges,
  thursday: ranges,
  friday: ranges,
  saturday: [],
  sunday: [],
});

describe("rate limiting by caller", () => {
  it("counts made-up tokens against the client's address, so guessing tokens hits the limit", async () => {
    const { call } = await setup({ config: { rateLimit: { limit: 5, windowSeconds: 60 } } });
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await call("GET", "/configuration", { token: `bk_guess${i}` }));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    expect(answers[4]!.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(answers[5]!.status).toBe(429);
    expect(answers[5]!.body.code).toBe("rate_limited");
  });

  it("takes the address the operator's own proxy added, not one the client claims", async () => {
    const { call, eventType } = await setup({ config: { trustProxy: true, rateLimit: { limit: 2, windowSeconds: 60 } } });
    await eventType();
    const from = (chain: string) => call("GET", "/timezones", { headers: { "x-forwarded-for": chain } });
    expect((await from("1.1.1.1, 10.0.0.7")).status).toBe(200);
    expect((await from("2.2.2.2, 10.0.0.7")).status).toBe(200);
    // The client changed its claimed address, the proxy's entry is the same: one budget.
    expect((await from("3.3.3.3, 10.0.0.7")).status).toBe(429);
    expect((await from("10.0.0.8")).status).toBe(200);
  });

  it("counts the booking page's link token per client address: one visitor's exhausted budget leaves other visitors and the API token unaffected", async () => {
    const { call, eventType, store } = await setup({ config: { trustProxy: true, rateLimit: { limit: 3, windowSeconds: 60 } } });
    const et = await eventType({ slug: "intro-call" });
    const { linkToken } = (await store.eventTypes.byId(et.id))!;
    const from = (address: string, token: string) => call("GET", "/configuration", { token, headers: { "x-forwarded-for": address } });
    for (let i = 0; i < 3; i++) expect((await from("203.0.113.5", linkToken)).status).toBe(200);
    const limited = await from("203.0.113.5", linkToken);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
    // Another visitor of the same page, the organizer's API token (even from the scraper's address)
    // and the scraper's own page loads without a token each keep their own budget.
    const other = await from("198.51.100.7", linkToken);
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("2");
    const api = await from("203.0.113.5", et.token);
    expect(api.status).toBe(200);
    expect(api.headers.get("x-ratelimit-remaining")).toBe("2");
    expect((await call("GET", "/book/intro-call", { headers: { "x-forwarded-for": "203.0.113.5" } })).status).toBe(200);
  });

  it("counts the API token per client address too: a server making many requests from one address meets the limit there, and no other address does", async () => {
    const { call, eventType } = await setup({ config: { trustProxy: true, rateLimit: { limit: 3, windowSeconds: 60 } } });
    const et = await eventType();
    const from = (address: string) => call("GET", "/configuration", { token: et.token, headers: { "x-forwarded-for": address } });
    expect((await from("192.0.2.1")).headers.get("x-ratelimit-remaining")).toBe("2");
    expect((await from("192.0.2.1")).headers.get("x-ratelimit-remaining")).toBe("1");
    expect((await from("192.0.2.1")).headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await from("192.0.2.1")).status).toBe(429);
    const other = await from("192.0.2.2");
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("2");
  });

  it.each(["API token", "link token"] as const)("never lets 120 browser requests from one address with the %s make another address get 429", async (kind) => {
    // The default limit (60 a minute), as a site's visitors meet it.
    const { call, eventType, store } = await setup({ config: { trustProxy: true } });
    const et = await eventType({ slug: "intro-call" });
    const token = kind === "API token" ? et.token : (await store.eventTypes.byId(et.id))!.linkToken;
    const browser = (address: string) => ({ token, headers: { "x-forwarded-for": address, origin: "https://shop.example.com" } });
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) statuses.push((await call("GET", "/configuration", browser("203.0.113.5"))).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
    for (const address of ["198.51.100.7", "192.0.2.1", "2001:db8:7:2::1"]) {
      const other = await call("GET", "/configuration", browser(address));
      expect(other.status, address).toBe(200);
      expect(other.headers.get("x-ratelimit-remaining"), address).toBe("59");
      // The same token sent without Origin (a server at that address) counts in the same budget there.
      const server = await call("GET", "/configuration", { token, headers: { "x-forwarded-for": address } });
      expect(server.status, address).toBe(200);
      expect(server.headers.get("x-ratelimit-remaining"), address).toBe("58");
    }
  });

  it("counts page loads (pages, the element's files, the icon) in a budget of their own per address: they never use up the API's budget there, and one address's exhausted budget leaves others and the API token unaffected", async () => {
    const { call, eventType } = await setup({ config: { trustProxy: true, rateLimit: { limit: 3, windowSeconds: 60 } } });
    const et = await eventType({ slug: "intro-call" });
    const from = (address: string, path: string, token?: string) => call("GET", path, { token: token ?? null, headers: { "x-forwarded-for": address } });
    const pages = ["/book/intro-call", "/favicon.svg", "/embed/v/0123456789abcdef/locales/de.json"];
    for (const path of pages) expect((await from("203.0.113.5", path)).status, path).not.toBe(429);
    const limited = await from("203.0.113.5", "/embed/booking-calendar.js");
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
    // The same address's API budget without a token is untouched, and so is its own limit.
    const api = await from("203.0.113.5", "/timezones");
    expect(api.status).toBe(200);
    expect(api.headers.get("x-ratelimit-remaining")).toBe("2");
    expect((await from("203.0.113.5", "/timezones")).status).toBe(200);
    expect((await from("203.0.113.5", "/timezones")).status).toBe(200);
    expect((await from("203.0.113.5", "/timezones")).status).toBe(429);
    // Another address loads pages; the organizer's API token works from anywhere, the exhausted address included.
    expect((await from("198.51.100.7", "/book/intro-call")).status).toBe(200);
    expect((await from("203.0.113.5", "/configuration", et.token)).status).toBe(200);
  });

  it("refuses an alias prefix at or under the pages' paths at start, and counts calls under the alias in the API's budget whatever it looks like", async () => {
    for (const alias of ["/book", "/book/api", "/embed", "/embed/x", "/docs", "/docs/api", "/openapi.json", "/favicon.svg"]) {
      expect(() => configFromEnv({ BOOKING_ALIAS_PREFIX: alias }), alias).toThrow(`BOOKING_ALIAS_PREFIX must not be /${alias.split("/")[1]} or lie under it`);
    }
    // Only whole segments count: these share letters with the pages, not paths.
    for (const alias of ["/booking-api", "/books", "/embedded", "/api/book", "/docs-api"])
      expect(configFromEnv({ BOOKING_ALIAS_PREFIX: alias }).aliasPrefix).toBe(alias);

    // An app given such a prefix directly (not through the environment) still counts its API calls as API calls.
    const { call } = await setup({ config: { aliasPrefix: "/embed/api", trustProxy: true, rateLimit: { limit: 3, windowSeconds: 60 } } });
    const from = (path: string) => call("GET", path, { headers: { "x-forwarded-for": "203.0.113.5" } });
    const first = await from("/embed/api/timezones");
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("2");
    expect((await from("/embed/api/timezones")).status).toBe(200);
    expect((await from("/timezones")).status).toBe(200);
    expect((await from("/embed/api/timezones")).status).toBe(429);
    // Page loads from that address keep their own budget.
    expect((await from("/favicon.svg")).status).toBe(200);
  });

  it("counts an IPv6 visitor per /64, so picking a fresh address of one's own network for every request earns no fresh budget", async () => {
    const { call, eventType, store } = await setup({ config: { trustProxy: true, rateLimit: { limit: 3, windowSeconds: 60 } } });
    const et = await eventType();
    const { linkToken } = (await store.eventTypes.byId(et.id))!;
    const from = (address: string, token: string | null) =>
      call("GET", token ? "/configuration" : "/timezones", { token, headers: { "x-forwarded-for": address } });
    // Four spellings and hosts of one /64.
    const network = ["2001:db8:7:1::1", "2001:db8:7:1:aaaa:bbbb:cccc:dddd", "2001:0db8:0007:0001::2", "[2001:db8:7:1::3]"];
    expect((await from(network[0]!, linkToken)).status).toBe(200);
    expect((await from(network[1]!, linkToken)).status).toBe(200);
    expect((await from(network[2]!, linkToken)).status).toBe(200);
    expect((await from(network[3]!, linkToken)).status).toBe(429);
    // A neighbouring /64 is another household; requests without a token count the same way.
    expect((await from("2001:db8:7:2::1", linkToken)).status).toBe(200);
    for (const address of network.slice(0, 3)) expect((await from(address, null)).status).toBe(200);
    expect((await from("2001:db8:7:1::ffff", null)).status).toBe(429);
    // An IPv4 address written IPv4-mapped is the same client as written plainly.
    expect((await from("192.0.2.9", null)).headers.get("x-ratelimit-remaining")).toBe("2");
    expect((await from("::ffff:192.0.2.9", null)).headers.get("x-ratelimit-remaining")).toBe("1");
  });
});

describe("CORS", () => {
  it("answers a preflight of the public API with 204 and the methods and headers a calendar sends", async () => {
    const { call } = await setup();
    for (const path of ["/reservations", "/booking-api/time-slots", "/reservations/0b5a8f2e-3c1d-4e6f-9a7b-1c2d3e4f5a6b/confirm"]) {
      const r = await call("OPTIONS", path, {
        headers: {
          origin: "https://shop.example.com",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type",
        },
      });
      expect(r.status).toBe(204);
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(r.headers.get("access-control-allow-headers")).toContain("Authorization");
      expect(r.headers.get("access-control-allow-headers")).toContain("Idempotency-Key");
      expect(r.headers.get("access-control-allow-methods")).toContain("DELETE");
      // Like every response of the API, it carries the contract's headers.
      expect(r.headers.get("ratelimit")).toMatch(/^limit=60, remaining=\d+, reset=\d+$/);
      expect(r.headers.get("service-api-version")).toBe("1");
      expect(r.headers.get("apigw-requestid")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("lets scripts on other sites read public answers and their rate limit and request id headers", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    for (const r of [await call("GET", "/configuration", { token }), await call("GET", "/configuration")]) {
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
      expect(r.headers.get("access-control-expose-headers")).toContain("RateLimit");
      expect(r.headers.get("access-control-expose-headers")).toContain("apigw-requestid");
    }
  });

  it("gives the admin API no CORS headers, so other sites cannot call it from a browser", async () => {
    const { call } = await setup();
    const read = await call("GET", "/admin/event-types", { token: ADMIN_KEY });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
    const pre = await call("OPTIONS", "/admin/event-types", { headers: { origin: "https://evil.example", "access-control-request-method": "GET" } });
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    expect(pre.status).toBe(405);
  });
});

describe("Strict-Transport-Security", () => {
  const HTTPS = "https://book.example.com";
  /** Answers of every kind the server gives: the console page, a booking page, JSON, an error and a preflight. */
  async function answers(config: { environment: "production" | "development"; publicUrl: string }) {
    const { call, eventType } = await setup({ config });
    await eventType({ slug: "intro-call" });
    return [
      await call("GET", "/console"),
      await call("GET", "/book/intro-call"),
      await call("GET", "/health"),
      await call("GET", "/no-such-page"),
      await call("OPTIONS", "/timezones", { headers: { origin: "https://shop.example.com", "access-control-request-method": "GET" } }),
    ];
  }

  it("is sent for a year, without includeSubDomains, on every answer in production when the public URL is https", async () => {
    const all = await answers({ environment: "production", publicUrl: HTTPS });
    // The console page is 503 "not built yet" until `npm run build`; an HTML page either way.
    expect(all[0]!.headers.get("content-type")).toMatch(/^text\/html/);
    expect(all.slice(1).map((a) => a.status)).toEqual([200, 200, 404, 204]);
    for (const a of all) expect(a.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("is not sent in development, nor in production when the public URL is plain http", async () => {
    for (const config of [
      { environment: "development" as const, publicUrl: HTTPS },
      { environment: "production" as const, publicUrl: "http://book.example.com" },
    ]) {
      for (const a of await answers(config)) expect(a.headers.get("strict-transport-security")).toBeNull();
    }
  });
});

describe("a busy store", () => {
  it("answers a cancel with slot_locked, and the admin API with 503 and Retry-After, while another process holds the write lock", async () => {
    const databasePath = tempDb();
    const { call, eventType, admin } = await setup({ databasePath, now: "2026-11-23T07:00:00Z" });
    const { id, token } = await eventType({
      timezone: "UTC",
      minNoticeMinutes: 0,
      availability: { weekly: weekdays([{ start: "09:00", end: "17:00" }]), overrides: [] },
    });
    const booked = await call("POST", "/reservations", {
      token,
      body: { start: "2026-11-26T09:00:00Z", end: "2026-11-26T09:30:00Z", email: "ada@example.com" },
    });
    expect(booked.body.success).toBe(true);

    const other = new Database(databasePath);
    other.exec("BEGIN IMMEDIATE");
    try {
      const started = performance.now();
      const cancel = await call("DELETE", `/reservations/${booked.body.data.uuid}`, { token });
      expect(cancel.status).toBe(200);
      expect(cancel.body).toMatchObject({ success: false, code: "slot_locked" });
      const patch = await admin("PATCH", `/admin/event-types/${id}`, { title: "Renamed" });
      expect(patch.status).toBe(503);
      expect(patch.body.code).toBe("service_unavailable");
      expect(patch.headers.get("retry-after")).toBe("1");
      // Each write waited briefly, not the seconds that would stall every other request.
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect((await call("DELETE", `/reservations/${booked.body.data.uuid}`, { token })).body.success).toBe(true);
  });

  it("does not replay a transient slot_locked to a retry with the same Idempotency-Key", async () => {
    const databasePath = tempDb();
    const { call, eventType } = await setup({ databasePath, now: "2026-11-23T07:00:00Z" });
    const { token } = await eventType({
      timezone: "UTC",
      minNoticeMinutes: 0,
      availability: { weekly: weekdays([{ start: "09:00", end: "17:00" }]), overrides: [] },
    });
    const body = { start: "2026-11-26T10:00:00Z", end: "2026-11-26T10:30:00Z", email: "ada@example.com" };
    const headers = { "idempotency-key": "booking-42" };
    const other = new Database(databasePath);
    other.exec("BEGIN IMMEDIATE");
    let first: Awaited<ReturnType<typeof call>>;
    try {
      first = await call("POST", "/reservations", { token, body, headers });
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect(first.body).toMatchObject({ success: false, code: "slot_locked" });
    const retry = await call("POST", "/reservations", { token, body, headers });
    expect(retry.body.success).toBe(true);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    const again = await call("POST", "/reservations", { token, body, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.uuid).toBe(retry.body.data.uuid);
  });
});

describe("hostile and odd input", () => {
  it("keys a validation error by a field named __proto__ like any other field", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const r = await call("POST", "/event-types/init", { token, rawBody: '{"__proto__": {"polluted": true}}', headers: { "content-type": "application/json" } });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses control characters in what a visitor types, on every engine alike", async () => {
    const { call, eventType } = await setup({ now: "2026-11-23T07:00:00Z" });
    const { token } = await eventType({
      timezone: "UTC",
      minNoticeMinutes: 0,
      availability: { weekly: weekdays([{ start: "09:00", end: "17:00" }]), overrides: [] },
    });
    const r = await call("POST", "/reservations", {
      token,
      body: { start: "2026-11-26T09:00:00Z", end: "2026-11-26T09:30:00Z", email: "ada@example.com", firstname: "Ada\u0000", lastname: "Love\u0007lace" },
    });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors).sort()).toEqual(["firstname", "lastname"]);
  });

  it("refuses UI text keys that are not plain identifiers", async () => {
    const { admin } = await setup();
    const r = await admin("POST", "/admin/event-types", { title: "X", locale: { texts: JSON.parse('{"__proto__": "x"}') } });
    expect(r.status).toBe(422);
    expect((await admin("GET", "/admin/event-types")).body.data).toEqual([]);
  });

  it("answers a reservation path that does not even decode with 404", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const r = await call("DELETE", "/reservations/%ZZ", { token });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
  });

  it("stores timezones in their canonical spelling and refuses offsets, which are not zones", async () => {
    const { admin, call, eventType } = await setup();
    const created = await admin("POST", "/admin/event-types", { title: "Zoned", timezone: "europe/prague" });
    expect(created.body.data.timezone).toBe("Europe/Prague");
    for (const timezone of ["+05:00", "-23:59", "+0530", "Mars/Olympus"]) {
      expect((await admin("POST", "/admin/event-types", { title: "Bad", timezone })).status).toBe(422);
    }
    const { token } = await eventType();
    expect((await call("GET", "/time-slots?from=2026-11-24&until=2026-11-24&timezone=%2B05:00", { token })).body.errors).toHaveProperty("timezone");
    const lower = await call("GET", "/time-slots?from=2026-11-24&until=2026-11-24&timezone=america/new_york", { token });
    expect(lower.body.data[0].start).toMatch(/-05:00$/);
  });
});

describe("reservation rules found in review", () => {
  it("keeps the location value the organizer fixed, whatever a visitor sends", async () => {
    const { call, eventType } = await setup({ now: "2026-11-23T07:00:00Z" });
    const { token } = await eventType({
      timezone: "UTC",
      minNoticeMinutes: 0,
      locations: [{ type: "link", value: "https://meet.example.com/organizer" }],
      availability: { weekly: weekdays([{ start: "09:00", end: "17:00" }]), overrides: [] },
    });
    const booked = await call("POST", "/reservations", {
      token,
      body: {
        start: "2026-11-26T09:00:00Z",
        end: "2026-11-26T09:30:00Z",
        email: "ada@example.com",
        location: { type: "link", value: "https://evil.example/phish" },
      },
    });
    expect(booked.body.success).toBe(true);
    const init = await call("POST", "/event-types/init", { token, body: { reservationUuid: booked.body.data.uuid } });
    expect(init.body.data.reservation.location).toEqual({ type: "link", value: "https://meet.example.com/organizer" });
  });

  it("does not refresh an expired hold into a day the organizer closed meanwhile", async () => {
    const { call, eventType, clock, admin } = await setup({ now: "2026-11-23T07:00:00Z" });
    const { id, token } = await eventType({
      timezone: "UTC",
      minNoticeMinutes: 0,
      availability: { weekly: weekdays([{ start: "09:00", end: "17:00" }]), overrides: [] },
    });
    const held = await call("POST", "/reservations/prepare", {
      token,
      body: { start: "2026-11-26T09:00:00Z", end: "2026-11-26T09:30:00Z", email: "ada@example.com" },
    });
    expect(held.body.success).toBe(true);
    clock.advance(30);
    await admin("PATCH", `/admin/event-types/${id}`, {
      availability: { weekly: weekdays([{ start: "09:00", end: "17:00" }]), overrides: [{ date: "2026-11-26", ranges: [] }] },
    });
    const refreshed = await call("POST", `/reservations/${held.body.data.uuid}/refresh`, { token });
    expect(refreshed.body).toMatchObject({ success: false, code: "reservation_finished" });
    const confirmed = await call("POST", `/reservations/${held.body.data.uuid}/confirm`, { token });
    expect(confirmed.body).toMatchObject({ success: false, code: "reservation_finished" });
  });

  it("lists holds that time has cancelled when the organizer filters by cancelled", async () => {
    const { call, eventType, clock, admin } = await setup({ now: "2026-11-23T07:00:00Z" });
    const { id, token } = await eventType({
      timezone: "UTC",
      minNoticeMinutes: 0,
      availability: { weekly: weekdays([{ start: "09:00", end: "17:00" }]), overrides: [] },
    });
    const held = await call("POST", "/reservations/prepare", {
      token,
      body: { start: "2026-11-26T09:00:00Z", end: "2026-11-26T09:30:00Z", email: "ada@example.com" },
    });
    clock.advance(25 * 60);
    const list = await admin("GET", `/admin/event-types/${id}/reservations?from=2026-11-26&until=2026-11-26&status=cancelled`);
    expect(list.body.data.map((r: { uuid: string; status: string }) => [r.uuid, r.status])).toEqual([[held.body.data.uuid, "cancelled"]]);
  });

  it("accepts the override token of a cancel in a header, keeping it out of URLs and logs", async () => {
    const { call, eventType, clock } = await setup({ now: "2026-11-23T07:00:00Z" });
    const { token, overrideToken } = await eventType({
      timezone: "UTC",
      minNoticeMinutes: 0,
      availability: { weekly: weekdays([{ start: "09:00", end: "17:00" }]), overrides: [] },
    });
    const booked = await call("POST", "/reservations", {
      token,
      body: { start: "2026-11-23T12:00:00Z", end: "2026-11-23T12:30:00Z", email: "ada@example.com" },
    });
    clock.advance(60);
    expect((await call("DELETE", `/reservations/${booked.body.data.uuid}`, { token })).status).toBe(403);
    const r = await call("DELETE", `/reservations/${booked.body.data.uuid}`, { token, headers: { "booking-override-token": overrideToken } });
    expect(r.body).toMatchObject({ success: true });
  });
});
