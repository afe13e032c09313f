import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import type { EventTypeCreate } from "@booking/wire";
import { WebhookWorker } from "../src/modules/webhooks/worker.ts";
import { connectOverHttp, failure, startReceiver, success, type Receiver } from "./mcp-utils.ts";
import { startRadicale } from "./radicale.ts";
import { ADMIN_KEY, setup, waitFor } from "./utils.ts";

// The clock of setup() starts on Monday 2026-11-23T07:00:00Z, 08:00 in Prague (CET, +01:00). The
// intro call offers 30-minute slots on weekdays 09:00-17:00 in Prague with an hour's minimum
// notice, and lets visitors reschedule or cancel only up to two days ahead, so every change below
// within those two days is one only the organizer may make. Ada has booked Tuesday at 3 pm.

const TOOLS = [
  "list_event_types",
  "resolve_booking_link",
  "find_free_slots",
  "search_reservations",
  "get_reservation",
  "reschedule_reservation",
  "cancel_reservation",
  "get_availability",
  "check_availability",
  "set_weekly_hours",
  "set_date_override",
  "close_day",
  "clear_date_override",
  "list_busy_sources",
  "add_busy_source",
  "remove_busy_source",
  "sync_busy_source",
  "write_bookings_to_calendar",
  "stop_writing_bookings",
  "list_hosts",
  "get_host",
  "create_host",
  "update_host",
  "delete_host",
  "list_host_bookings",
  "create_schedule",
  "update_schedule",
  "delete_schedule",
  "set_event_type_hosts",
  "set_booking_limits",
  "list_time_off",
  "add_time_off",
  "remove_time_off",
];
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };
const slot = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  const end = `${String(h! + (m! + 30 >= 60 ? 1 : 0)).padStart(2, "0")}:${String((m! + 30) % 60).padStart(2, "0")}`;
  return { start: `${date}T${time}:00+01:00`, end: `${date}T${end}:00+01:00` };
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * The organizer's world: the intro call (webhooks to a verifying receiver) and a consulting event
 * type, Ada's Tuesday 3 pm, and an assistant connected to `/mcp` with the admin key.
 */
async function world(options: { intro?: Partial<EventTypeCreate>; syncAnswerMs?: number } = {}) {
  const env = await setup({ config: NO_RATE_LIMIT, ...(options.syncAnswerMs === undefined ? {} : { calendars: { syncAnswerMs: options.syncAnswerMs } }) });
  const receiver = startReceiver();
  cleanups.push(() => receiver.stop());
  const created = await env.admin("POST", "/admin/event-types", {
    title: "Intro call",
    slug: "intro-call",
    timezone: "Europe/Prague",
    rescheduleNoticeMinutes: 2880,
    cancelNoticeMinutes: 2880,
    webhookUrl: receiver.url,
    ...options.intro,
  });
  expect(created.status).toBe(200);
  const intro = created.body.data as { id: number; token: string; webhookSecret: string; linkToken: string };
  receiver.secret = intro.webhookSecret;
  const consulting = (
    await env.admin("POST", "/admin/event-types", { title: "Consulting", slug: "consulting", timezone: "Europe/Prague", cancelNoticeMinutes: 0 })
  ).body.data as { id: number; token: string };
  const book = async (token: string, times: { start: string; end: string }, visitor: Record<string, unknown>, prepare = false) => {
    const r = await env.call("POST", prepare ? "/reservations/prepare" : "/reservations", { token, body: { ...times, ...visitor } });
    expect(r.body.success).toBe(true);
    return r.body.data.uuid as string;
  };
  const ada = await book(intro.token, slot("2026-11-24", "15:00"), {
    email: "ada@example.com",
    firstname: "Ada",
    lastname: "Lovelace",
    timezone: "Europe/London",
  });
  const client = await connectOverHttp(env.app, ADMIN_KEY);
  cleanups.push(() => client.close());
  const worker = new WebhookWorker(env.store, env.clock, { allowPrivateAddresses: true }, (e) => env.logs.push(e));
  /** Starts of the slots GET /time-slots lists for a day of the intro call, as HH:MM in Prague. */
  const freeTimes = async (date: string, token = intro.token): Promise<string[]> => {
    const r = await env.call("GET", `/time-slots?from=${date}&until=${date}`, { token });
    expect(r.status).toBe(200);
    return r.body.data.map((s: { readable_start: string }) => s.readable_start);
  };
  const tool = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
  return { ...env, receiver, intro, consulting, ada, book, client, worker, freeTimes, tool };
}

/** Delivers every due webhook event and answers the verified payloads so far. */
async function delivered(w: { worker: WebhookWorker; receiver: Receiver }): Promise<any[]> {
  while ((await w.worker.runOnce()) > 0);
  return w.receiver.payloads;
}

describe("booking limits through the assistant server", () => {
  it("sets an event type's limits by slug, after which its full day is no longer offered, and a host's, created with limits", async () => {
    const w = await world();
    expect((await w.freeTimes("2026-11-24")).length).toBeGreaterThan(0);
    // Ada's Tuesday 3 pm booking fills a day of at most one booking.
    const set = success(await w.tool("set_booking_limits", { slug: "intro-call", limits: { bookingsPerDay: 1, minutesPerWeek: 300 } }));
    expect(set.data).toMatchObject({ eventType: { id: w.intro.id }, host: null, limits: { bookingsPerDay: 1, minutesPerWeek: 300, bookingsPerWeek: null } });
    expect(set.text).toContain("at most 1 bookings a day, 300 minutes a week");
    expect(await w.freeTimes("2026-11-24")).toEqual([]);
    expect((await w.freeTimes("2026-11-25")).length).toBeGreaterThan(0);
    expect(failure(await w.tool("set_booking_limits", { slug: "intro-call", limits: { bookingsPerDay: 0 } }))).toMatch(/limits/);

    const bea = success(
      await w.tool("create_host", { name: "Bea Limits", email: "bea@example.com", timezone: "Europe/Prague", limits: { bookingsPerWeek: 5 } }),
    ).data.host;
    expect(bea.limits).toMatchObject({ bookingsPerWeek: 5, bookingsPerDay: null });
    const host = success(await w.tool("set_booking_limits", { hostId: bea.id, limits: { minutesPerDay: 240 } }));
    expect(host.data).toMatchObject({ eventType: null, host: { id: bea.id }, limits: { minutesPerDay: 240, bookingsPerWeek: null } });
    expect(success(await w.tool("get_host", { hostId: bea.id })).data.host.limits.minutesPerDay).toBe(240);
  });
});

describe("the assistant server over Streamable HTTP", () => {
  it("lists its tools, each with a title, a description and JSON schemas of its input and output", async () => {
    const w = await world();
    const { tools } = await w.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const t of tools) {
      expect(t.title).toMatch(/\w/);
      expect(t.description!.length).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
    }
    const reschedule = tools.find((t) => t.name === "reschedule_reservation")!;
    expect(reschedule.inputSchema.required).toEqual(["uuid", "start"]);
    expect(Object.keys(reschedule.inputSchema.properties!)).toEqual(["uuid", "start", "eventTypeId", "slug", "timezone"]);
    expect(tools.find((t) => t.name === "search_reservations")!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === "cancel_reservation")!.annotations).toMatchObject({ destructiveHint: true });
    expect(w.client.getInstructions()).toMatch(/search_reservations.*find_free_slots.*reschedule_reservation/s);
  });

  it("refuses a missing or wrong key, and an event type's token, with the API's 401 JSON error", async () => {
    const w = await world();
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const headers = { accept: "application/json, text/event-stream" };
    for (const token of [null, `${ADMIN_KEY}-wrong`, w.intro.token, w.intro.linkToken]) {
      const r = await w.call("POST", "/mcp", { token, body: initialize, headers });
      expect(r.status).toBe(401);
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      expect(r.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(r.body).toMatchObject({ success: false, status: 401, code: "unauthenticated" });
      expect(r.body.hint).toContain("BOOKING_ADMIN_KEY");
    }
    await expect(connectOverHttp(w.app, "wrong-key")).rejects.toThrow();
    await expect(connectOverHttp(w.app, null)).rejects.toThrow();
    // With the key the same request is answered, without CORS headers: browsers on other sites cannot use it.
    const ok = await w.call("POST", "/mcp", { token: ADMIN_KEY, body: initialize, headers });
    expect(ok.status).toBe(200);
    expect(ok.body.result.serverInfo.name).toBe("booking-calendar");
    expect(ok.headers.get("access-control-allow-origin")).toBeNull();
    expect(ok.headers.get("ratelimit-policy")).toBe("100000;w=60");
  });

  it("answers GET and DELETE with 405 (it is stateless), after checking the key", async () => {
    const w = await world();
    for (const method of ["GET", "DELETE"]) {
      expect((await w.call(method, "/mcp")).status).toBe(401);
      const r = await w.call(method, "/mcp", { token: ADMIN_KEY, headers: { accept: "text/event-stream" } });
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("POST");
      expect(r.body.code).toBe("method_not_allowed");
    }
  });

  it("is not there without an admin key, like /admin", async () => {
    const env = await setup({ config: { adminKey: null } });
    const r = await env.call("POST", "/mcp", { token: ADMIN_KEY, body: {} });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
  });

  it("serves a client over a real listening socket as well", async () => {
    const w = await world();
    const server = w.app.listen({ port: 0, hostname: "127.0.0.1" });
    cleanups.push(() => server.stop());
    const client = new Client({ name: "remote-assistant", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.server!.port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${ADMIN_KEY}` } },
      }),
    );
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
    const { data } = success(await client.callTool({ name: "list_event_types", arguments: {} }));
    expect(data.eventTypes[0].bookingUrl).toBe(`http://127.0.0.1:${server.server!.port}/book/intro-call`);
  });
});

describe("event types and booking links", () => {
  it("lists the event types with their booking links", async () => {
    const w = await world();
    const { data, text } = success(await w.tool("list_event_types"));
    expect(data.eventTypes).toEqual([
      {
        id: w.intro.id,
        title: "Intro call",
        slug: "intro-call",
        bookingUrl: "http://localhost/book/intro-call",
        disabled: false,
        timezone: "Europe/Prague",
        durationMinutes: 30,
        seats: 1,
        price: null,
        hosts: [{ hostId: 1, name: expect.any(String) }],
        assignment: "collective",
      },
      {
        id: w.consulting.id,
        title: "Consulting",
        slug: "consulting",
        bookingUrl: "http://localhost/book/consulting",
        disabled: false,
        timezone: "Europe/Prague",
        durationMinutes: 30,
        seats: 1,
        price: null,
        hosts: [{ hostId: 1, name: expect.any(String) }],
        assignment: "collective",
      },
    ]);
    expect(text).toContain("2 event types");
    expect(text).toContain(`#${w.intro.id} Intro call: 30 min, Europe/Prague, free, http://localhost/book/intro-call`);
  });

  it("resolves a booking link, its path or its slug to the event type, its settings and the next free slots in the asked zone", async () => {
    const w = await world();
    for (const link of ["https://book.example.com/book/intro-call", "/book/intro-call/", "intro-call", "Intro-Call"]) {
      const { data } = success(await w.tool("resolve_booking_link", { link, timezone: "America/New_York", slotCount: 3 }));
      expect(data.eventType).toMatchObject({ id: w.intro.id, title: "Intro call", slug: "intro-call", rescheduleNoticeMinutes: 2880, minNoticeMinutes: 60 });
      expect(data.eventType.availability.weekly.monday).toEqual([{ start: "09:00", end: "17:00" }]);
      expect(data.reservation).toBeNull();
      // Monday 09:00 in Prague is 03:00 in New York.
      expect(data.nextFreeSlots.map((s: { start: string }) => s.start)).toEqual([
        "2026-11-23T03:00:00-05:00",
        "2026-11-23T03:30:00-05:00",
        "2026-11-23T04:00:00-05:00",
      ]);
    }
    const { text } = success(await w.tool("resolve_booking_link", { link: "intro-call", slotCount: 2 }));
    expect(text).toContain("http://localhost/book/intro-call is the booking page of event type");
    expect(text).toContain("Mon 23 Nov 2026: 09:00, 09:30");
  });

  it("tells which custom fields are asked only under a condition", async () => {
    const w = await world({
      intro: {
        customFields: [
          { label: "Plan", name: "plan", type: "select", options: ["Personal", "Business"] },
          { label: "Company size", name: "companySize", type: "text", required: true, showIf: { field: "plan", equals: ["Business"] } },
        ],
      },
    });
    const { data } = success(await w.tool("resolve_booking_link", { link: "intro-call", slotCount: 1 }));
    expect(data.eventType.customFields).toEqual([
      { name: "plan", label: "Plan", type: "select", required: false },
      { name: "companySize", label: "Company size", type: "text", required: true, showIf: { field: "plan", equals: ["Business"] } },
    ]);
  });

  it("resolves a visitor's manage link to the reservation it names", async () => {
    const w = await world();
    const { data, text } = success(await w.tool("resolve_booking_link", { link: `http://localhost/book/intro-call?reservation=${w.ada}` }));
    expect(data.reservation).toMatchObject({
      uuid: w.ada,
      name: "Ada Lovelace",
      start: "2026-11-24T15:00:00+01:00",
      manageUrl: `http://localhost/book/intro-call?reservation=${w.ada}`,
    });
    expect(text).toContain("manage link of: Tue 24 Nov 2026, 15:00–15:30 (Europe/Prague), Intro call with Ada Lovelace");
  });

  it("answers unknown slugs, foreign reservations, non-links and bad zones with tool errors that say what to do", async () => {
    const w = await world();
    expect(failure(await w.tool("resolve_booking_link", { link: "https://x.example/book/nope" }))).toBe(
      'No event type has the slug "nope". Known slugs: intro-call, consulting. (not_found)',
    );
    const theirs = await w.book(w.consulting.token, slot("2026-11-25", "10:00"), { email: "bob@example.com" });
    expect(failure(await w.tool("resolve_booking_link", { link: `/book/intro-call?reservation=${theirs}` }))).toMatch(
      /No reservation with the uuid .* for event type #\d+ "Intro call".*\(not_found\)$/,
    );
    expect(failure(await w.tool("resolve_booking_link", { link: "https://x.example/about" }))).toMatch(/^Invalid input\. link: .* is not a booking link/);
    expect(failure(await w.tool("resolve_booking_link", { link: "intro-call", timezone: "Mars/Olympus" }))).toMatch(
      /timezone: "Mars\/Olympus" is not an IANA time zone.*\(validation_failed\)/,
    );
    expect(failure(await w.tool("resolve_booking_link", {}))).toMatch(/Input validation error/);
  });
});

describe("free slots", () => {
  it("lists the free slots of a date range in the asked zone, as GET /time-slots does", async () => {
    const w = await world();
    const { data, text } = success(
      await w.tool("find_free_slots", { slug: "intro-call", from: "2026-11-24", until: "2026-11-25", timezone: "America/New_York" }),
    );
    const api = await w.call("GET", "/time-slots?from=2026-11-24&until=2026-11-25&timezone=America/New_York", { token: w.intro.token });
    expect(data.slots.map((s: { startUtc: string }) => s.startUtc)).toEqual(api.body.data.map((s: { startIso8601: string }) => s.startIso8601));
    expect(data.slots).toHaveLength(31); // 32 on two days, less Ada's
    expect(data.slots[0]).toEqual({
      start: "2026-11-24T03:00:00-05:00",
      end: "2026-11-24T03:30:00-05:00",
      startUtc: "2026-11-24T08:00:00Z",
      endUtc: "2026-11-24T08:30:00Z",
      date: "2026-11-24",
      time: "03:00",
      freeSeats: 1,
      seats: 1,
    });
    expect(data).toMatchObject({ eventType: { id: w.intro.id, slug: "intro-call" }, timezone: "America/New_York", disabled: false, truncated: false });
    expect(text).toContain('31 free slots for "Intro call" from 2026-11-24 to 2026-11-25 (America/New_York)');
    const limited = success(await w.tool("find_free_slots", { eventTypeId: w.intro.id, from: "2026-11-24", until: "2026-11-24", limit: 2 }));
    expect(limited.data.slots.map((s: { time: string }) => s.time)).toEqual(["09:00", "09:30"]);
    expect(limited.data.truncated).toBe(true);
  });

  it("adds the times inside the minimum notice, which only the organizer can use, when asked", async () => {
    const w = await world({ intro: { minNoticeMinutes: 1440 } });
    const visitor = success(await w.tool("find_free_slots", { slug: "intro-call", from: "2026-11-23", until: "2026-11-23" }));
    expect(visitor.data.slots).toEqual([]);
    const organizer = success(await w.tool("find_free_slots", { slug: "intro-call", from: "2026-11-23", until: "2026-11-23", includeShortNotice: true }));
    expect(organizer.data.slots[0].start).toBe("2026-11-23T09:00:00+01:00");
    expect(organizer.data.slots).toHaveLength(16);
  });

  it("answers invalid dates, ranges and zones, and an ambiguous event type, with tool errors", async () => {
    const w = await world();
    expect(failure(await w.tool("find_free_slots", { slug: "intro-call", from: "2026-02-30", until: "2026-03-01" }))).toMatch(/from: Expected a calendar date/);
    expect(failure(await w.tool("find_free_slots", { slug: "intro-call", from: "2026-11-25", until: "2026-11-24" }))).toMatch(/until: Must not be before from/);
    expect(failure(await w.tool("find_free_slots", { slug: "intro-call", from: "2026-11-01", until: "2027-01-31" }))).toMatch(
      /until: The range spans at most 62 days/,
    );
    expect(failure(await w.tool("find_free_slots", { slug: "intro-call", from: "2026-11-24", until: "2026-11-24", timezone: "+05:00" }))).toMatch(/timezone/);
    expect(failure(await w.tool("find_free_slots", { from: "2026-11-24", until: "2026-11-24" }))).toMatch(
      /Name the event type with eventTypeId or slug; there are 2: #\d+ Intro call, #\d+ Consulting/,
    );
    expect(failure(await w.tool("find_free_slots", { eventTypeId: 999, from: "2026-11-24", until: "2026-11-24" }))).toMatch(
      /No event type has the id 999.*\(not_found\)/,
    );
    expect(failure(await w.tool("find_free_slots", { eventTypeId: w.intro.id, slug: "consulting", from: "2026-11-24", until: "2026-11-24" }))).toMatch(
      /slug: Event type #\d+ has the slug intro-call/,
    );
  });
});

describe("reservations", () => {
  /** Ada's Tuesday call, Grace on Thursday, Alan's hold on Friday; at consulting Adá on Wednesday and a cancelled Ada on Thursday. */
  async function populated() {
    const w = await world();
    const grace = await w.book(w.intro.token, slot("2026-11-26", "09:00"), { email: "grace@example.com", firstname: "Grace", lastname: "Hopper" });
    const alan = await w.book(w.intro.token, slot("2026-11-27", "09:00"), { email: "alan@example.com", firstname: "Alan", lastname: "Turing" }, true);
    const adaN = await w.book(w.consulting.token, slot("2026-11-25", "10:00"), { email: "ada.novakova@example.com", firstname: "Adá", lastname: "Nováková" });
    const gone = await w.book(w.consulting.token, slot("2026-11-26", "11:00"), { email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" });
    expect((await w.call("DELETE", `/reservations/${gone}`, { token: w.consulting.token })).status).toBe(200);
    return { ...w, grace, alan, adaN, gone };
  }
  const uuids = (data: { reservations: { uuid: string }[] }) => data.reservations.map((r) => r.uuid);

  it("searches by part of the name (any case or accents, words in any order), email, status, dates and event type", async () => {
    const w = await populated();
    const byName = success(await w.tool("search_reservations", { name: "ada" }));
    expect(uuids(byName.data)).toEqual([w.ada, w.adaN, w.gone]);
    expect(byName.data).toMatchObject({ total: 3, truncated: false, from: "2026-11-23", until: "2027-11-23", timezone: null });
    expect(byName.text).toContain("3 reservations between 2026-11-23 and 2027-11-23:");
    expect(byName.text).toContain(`Tue 24 Nov 2026, 15:00–15:30 (Europe/Prague), Intro call with Ada Lovelace <ada@example.com>, confirmed [${w.ada}]`);
    expect(uuids(success(await w.tool("search_reservations", { name: "ADÁ", status: "confirmed" })).data)).toEqual([w.ada, w.adaN]);
    expect(uuids(success(await w.tool("search_reservations", { name: "lovelace ada" })).data)).toEqual([w.ada, w.gone]);
    expect(uuids(success(await w.tool("search_reservations", { email: "GRACE@EXAMPLE" })).data)).toEqual([w.grace]);
    expect(uuids(success(await w.tool("search_reservations", { status: "held" })).data)).toEqual([w.alan]);
    expect(uuids(success(await w.tool("search_reservations", { status: "cancelled" })).data)).toEqual([w.gone]);
    expect(uuids(success(await w.tool("search_reservations", { slug: "consulting" })).data)).toEqual([w.adaN, w.gone]);
    expect(uuids(success(await w.tool("search_reservations", { from: "2026-11-26", until: "2026-11-26" })).data)).toEqual([w.grace, w.gone]);
    const first = success(await w.tool("search_reservations", { name: "ada", limit: 1 }));
    expect(first.data).toMatchObject({ total: 3, truncated: true });
    expect(uuids(first.data)).toEqual([w.ada]);
    expect(success(await w.tool("search_reservations", { name: "nobody" })).text).toBe("No reservations match between 2026-11-23 and 2027-11-23.");
  });

  it("shows a found reservation in full, times in the asked zone", async () => {
    const w = await populated();
    const { data } = success(await w.tool("search_reservations", { email: "ada@example.com", status: "confirmed", timezone: "Asia/Tokyo" }));
    expect(data.reservations).toEqual([
      {
        uuid: w.ada,
        status: "confirmed",
        eventType: { id: w.intro.id, title: "Intro call", slug: "intro-call" },
        start: "2026-11-24T23:00:00+09:00",
        end: "2026-11-24T23:30:00+09:00",
        startUtc: "2026-11-24T14:00:00Z",
        endUtc: "2026-11-24T14:30:00Z",
        timezone: "Asia/Tokyo",
        visitorTimezone: "Europe/London",
        name: "Ada Lovelace",
        firstname: "Ada",
        lastname: "Lovelace",
        email: "ada@example.com",
        phone: "",
        guests: [],
        location: { type: "video-meet", value: null },
        customFields: [],
        meetLink: expect.stringMatching(/^https:\/\/meet\.jit\.si\/booking-/),
        manageUrl: `http://localhost/book/intro-call?reservation=${w.ada}`,
        heldUntil: null,
        payment: null,
        createdAt: "2026-11-23T07:00:00Z",
        confirmedAt: "2026-11-23T07:00:00Z",
        cancelledAt: null,
      },
    ]);
  });

  it("refuses bad search input with tool errors", async () => {
    const w = await populated();
    expect(failure(await w.tool("search_reservations", { from: "2026-13-01" }))).toMatch(/from: Expected a calendar date/);
    expect(failure(await w.tool("search_reservations", { from: "2026-11-30", until: "2026-11-01" }))).toMatch(/until: Must not be before from/);
    expect(failure(await w.tool("search_reservations", { status: "lost" }))).toMatch(/Input validation error/);
    expect(failure(await w.tool("search_reservations", { slug: "nope" }))).toMatch(/No event type has the slug "nope"/);
  });

  it("gets one reservation by uuid, in any event type or the named one; unknown, malformed and foreign uuids are tool errors", async () => {
    const w = await populated();
    const { data, text } = success(await w.tool("get_reservation", { uuid: w.ada.toUpperCase(), timezone: "UTC" }));
    expect(data.reservation).toMatchObject({ uuid: w.ada, start: "2026-11-24T14:00:00Z", timezone: "UTC", status: "confirmed" });
    expect(text).toMatch(
      /^Tue 24 Nov 2026, 14:00–14:30 \(UTC\), Intro call with Ada Lovelace <ada@example\.com>, confirmed \[.*\]; location video-meet, meeting link https:/,
    );
    expect(success(await w.tool("get_reservation", { uuid: w.adaN, slug: "consulting" })).data.reservation.eventType.title).toBe("Consulting");
    expect(failure(await w.tool("get_reservation", { uuid: w.adaN, slug: "intro-call" }))).toMatch(
      /No reservation with the uuid ".*" exists for event type #\d+ "Intro call"/,
    );
    expect(failure(await w.tool("get_reservation", { uuid: "0b8a3a3e-6d1c-4f3e-9a55-2f7b6d1e9c01" }))).toMatch(
      /No reservation with the uuid .* exists; search_reservations finds/,
    );
    expect(failure(await w.tool("get_reservation", { uuid: "not-a-uuid" }))).toMatch(/\(not_found\)$/);
  });
});

describe("moving and cancelling as the organizer", () => {
  it("moves my 3 pm with Ada to tomorrow: inside the visitor's notice, through the outbox's webhook, freeing the old slot", async () => {
    const w = await world();
    // Ada herself can no longer move it: Tuesday is within the two days' notice.
    const own = await w.call("PUT", `/reservations/${w.ada}`, { token: w.intro.token, body: slot("2026-11-25", "15:00") });
    expect(own.status).toBe(403);

    const found = success(await w.tool("search_reservations", { name: "Ada", from: "2026-11-24", until: "2026-11-24" }));
    expect(found.data.reservations.map((r: { uuid: string; start: string }) => [r.uuid, r.start])).toEqual([[w.ada, "2026-11-24T15:00:00+01:00"]]);
    expect(
      success(await w.tool("find_free_slots", { slug: "intro-call", from: "2026-11-25", until: "2026-11-25" })).data.slots.map((s: { time: string }) => s.time),
    ).toContain("15:00");

    const moved = success(await w.tool("reschedule_reservation", { uuid: w.ada, start: "2026-11-25T15:00" }));
    expect(moved.data).toMatchObject({
      changed: true,
      webhookQueued: true,
      previousStart: "2026-11-24T15:00:00+01:00",
      previousEnd: "2026-11-24T15:30:00+01:00",
      reservation: { uuid: w.ada, status: "confirmed", start: "2026-11-25T15:00:00+01:00", end: "2026-11-25T15:30:00+01:00", visitorTimezone: "Europe/London" },
    });
    expect(moved.text).toBe(
      `Moved Ada Lovelace's "Intro call" from Tue 24 Nov 2026, 15:00–15:30 to Wed 25 Nov 2026, 15:00–15:30 (Europe/Prague). The reservation.rescheduled webhook is queued. The visitor's link: http://localhost/book/intro-call?reservation=${w.ada}`,
    );
    expect(await w.freeTimes("2026-11-24")).toContain("15:00");
    expect(await w.freeTimes("2026-11-25")).not.toContain("15:00");

    const payloads = await delivered(w);
    expect(payloads.map((p) => p.type)).toEqual(["reservation.created", "reservation.rescheduled"]);
    expect(payloads[1].data).toMatchObject({
      uuid: w.ada,
      start: "2026-11-25T14:00:00Z",
      previousStart: "2026-11-24T14:00:00Z",
      timezone: "Europe/London",
      manageUrl: `http://localhost/book/intro-call?reservation=${w.ada}`,
      eventType: { id: w.intro.id, title: "Intro call" },
    });
  });

  it("reads a start with an offset as given and a local one in the asked zone, and changes nothing when it already starts then", async () => {
    const w = await world();
    const viaOffset = success(await w.tool("reschedule_reservation", { uuid: w.ada, start: "2026-11-25T09:00:00-05:00" }));
    expect(viaOffset.data.reservation.start).toBe("2026-11-25T15:00:00+01:00");
    const viaZone = success(await w.tool("reschedule_reservation", { uuid: w.ada, start: "2026-11-25T10:00", timezone: "America/New_York" }));
    expect(viaZone.data.reservation).toMatchObject({ start: "2026-11-25T10:00:00-05:00", startUtc: "2026-11-25T15:00:00Z", timezone: "America/New_York" });
    const same = success(await w.tool("reschedule_reservation", { uuid: w.ada, start: "2026-11-25T16:00", slug: "intro-call" }));
    expect(same.data).toMatchObject({ changed: false, webhookQueued: false });
    expect(same.text).toContain("nothing changed");
    expect((await delivered(w)).map((p) => p.type)).toEqual(["reservation.created", "reservation.rescheduled", "reservation.rescheduled"]);
  });

  it("refuses a taken, closed, past or malformed time and a cancelled reservation with tool errors, changing nothing", async () => {
    const w = await world();
    const grace = await w.book(w.intro.token, slot("2026-11-24", "10:00"), { email: "grace@example.com", firstname: "Grace" });
    const outbox = (await w.store.webhooks.recent(w.intro.id, 50)).length;
    const unavailable = /^That time is not free: .*find_free_slots lists the free times.*\(slot_unavailable\)$/;
    expect(failure(await w.tool("reschedule_reservation", { uuid: w.ada, start: "2026-11-24T10:00" }))).toMatch(unavailable); // Grace's
    expect(failure(await w.tool("reschedule_reservation", { uuid: w.ada, start: "2026-11-28T10:00" }))).toMatch(unavailable); // a Saturday
    expect(failure(await w.tool("reschedule_reservation", { uuid: w.ada, start: "2026-11-25T16:45" }))).toMatch(unavailable); // off the grid
    w.clock.set("2026-11-23T11:00:00Z"); // noon in Prague
    expect(failure(await w.tool("reschedule_reservation", { uuid: w.ada, start: "2026-11-23T10:00" }))).toMatch(unavailable); // already past
    expect(failure(await w.tool("reschedule_reservation", { uuid: w.ada, start: "tomorrow at 3" }))).toMatch(
      /start: "tomorrow at 3" is not a date-time; use 2026-11-25T15:00/,
    );
    expect(failure(await w.tool("reschedule_reservation", { uuid: w.ada, start: "2027-03-28T02:30" }))).toMatch(
      /2027-03-28 02:30 does not exist in Europe\/Prague/,
    );
    expect(failure(await w.tool("reschedule_reservation", { uuid: w.ada, start: "2026-11-25T15:00", timezone: "Nowhere/Land" }))).toMatch(/timezone/);
    expect(failure(await w.tool("reschedule_reservation", { uuid: crypto.randomUUID(), start: "2026-11-25T15:00" }))).toMatch(/not_found/);

    expect((await w.call("DELETE", `/reservations/${grace}`, { token: w.intro.token })).status).toBe(403);
    success(await w.tool("cancel_reservation", { uuid: grace }));
    expect(failure(await w.tool("reschedule_reservation", { uuid: grace, start: "2026-11-25T15:00" }))).toBe(
      "A cancelled reservation cannot be rescheduled. (reservation_finished)",
    );

    expect(success(await w.tool("get_reservation", { uuid: w.ada })).data.reservation.start).toBe("2026-11-24T15:00:00+01:00");
    // Only Grace's cancellation was written to the outbox.
    expect((await w.store.webhooks.recent(w.intro.id, 50)).length).toBe(outbox + 1);
  });

  it("cancels inside the visitor's notice, sends reservation.cancelled once, frees the seat, and cancelling again changes nothing", async () => {
    const w = await world();
    expect((await w.call("DELETE", `/reservations/${w.ada}`, { token: w.intro.token })).status).toBe(403);
    expect(await w.freeTimes("2026-11-24")).not.toContain("15:00");

    const cancelled = success(await w.tool("cancel_reservation", { uuid: w.ada }));
    expect(cancelled.data).toMatchObject({
      alreadyCancelled: false,
      webhookQueued: true,
      reservation: { uuid: w.ada, status: "cancelled", cancelledAt: "2026-11-23T07:00:00Z" },
    });
    expect(cancelled.text).toMatch(
      /^Cancelled: Tue 24 Nov 2026, 15:00–15:30 \(Europe\/Prague\), Intro call with Ada Lovelace .*The seat is free again\. The reservation\.cancelled webhook is queued\.$/,
    );
    expect(await w.freeTimes("2026-11-24")).toContain("15:00");

    const again = success(await w.tool("cancel_reservation", { uuid: w.ada, slug: "intro-call" }));
    expect(again.data).toMatchObject({ alreadyCancelled: true, webhookQueued: false });
    expect(again.text).toContain("it was already cancelled; nothing changed");

    const payloads = await delivered(w);
    expect(payloads.map((p) => p.type)).toEqual(["reservation.created", "reservation.cancelled"]);
    expect(payloads[1].data).toMatchObject({ uuid: w.ada, status: "cancelled", manageUrl: `http://localhost/book/intro-call?reservation=${w.ada}` });
  });

  it("cannot cancel a meeting that has already taken place", async () => {
    const w = await world();
    w.clock.set("2026-11-24T15:00:00Z");
    expect(failure(await w.tool("cancel_reservation", { uuid: w.ada }))).toBe("The meeting has already taken place. (reservation_finished)");
    expect(success(await w.tool("get_reservation", { uuid: w.ada })).data.reservation.status).toBe("confirmed");
  });
});

describe("opening hours", () => {
  it("reads the weekly hours and date overrides", async () => {
    const w = await world();
    const { data, text } = success(await w.tool("get_availability", { slug: "intro-call" }));
    expect(data.availability).toEqual({
      timezone: "Europe/Prague",
      weekly: {
        monday: [{ start: "09:00", end: "17:00" }],
        tuesday: [{ start: "09:00", end: "17:00" }],
        wednesday: [{ start: "09:00", end: "17:00" }],
        thursday: [{ start: "09:00", end: "17:00" }],
        friday: [{ start: "09:00", end: "17:00" }],
        saturday: [],
        sunday: [],
      },
      overrides: [],
    });
    expect(text).toContain("Mon: 09:00–17:00");
    expect(text).toContain("Sat: closed");
  });

  it("changes weekly hours, a date's own hours, closes a day and clears it again, each visible at once in GET /time-slots", async () => {
    const w = await world();
    const grace = await w.book(w.intro.token, slot("2026-11-26", "09:00"), { email: "grace@example.com", firstname: "Grace", lastname: "Hopper" });

    const weekly = success(await w.tool("set_weekly_hours", { slug: "intro-call", days: ["tuesday", "saturday"], ranges: [{ start: "10:00", end: "12:00" }] }));
    expect(weekly.data.availability.weekly).toMatchObject({
      monday: [{ start: "09:00", end: "17:00" }],
      tuesday: [{ start: "10:00", end: "12:00" }],
      saturday: [{ start: "10:00", end: "12:00" }],
    });
    expect(weekly.text).toContain("tuesday, saturday now 10:00–12:00 every week");
    expect(await w.freeTimes("2026-11-24")).toEqual(["10:00", "10:30", "11:00", "11:30"]);
    expect(await w.freeTimes("2026-11-28")).toEqual(["10:00", "10:30", "11:00", "11:30"]);
    // Ada's call outside the new hours is kept.
    expect(success(await w.tool("get_reservation", { uuid: w.ada })).data.reservation.status).toBe("confirmed");

    const own = success(await w.tool("set_date_override", { slug: "intro-call", date: "2026-11-25", ranges: [{ start: "14:00", end: "15:00" }] }));
    expect(own.data.availability.overrides).toEqual([{ date: "2026-11-25", ranges: [{ start: "14:00", end: "15:00" }], closed: false }]);
    expect(own.text).toBe('"Intro call": 2026-11-25 is open 14:00–15:00 (Europe/Prague).');
    expect(await w.freeTimes("2026-11-25")).toEqual(["14:00", "14:30"]);

    const closed = success(await w.tool("close_day", { eventTypeId: w.intro.id, date: "2026-11-26" }));
    expect(closed.data.reservationsOnDate.map((r: { uuid: string }) => r.uuid)).toEqual([grace]);
    expect(closed.text).toContain("2026-11-26 is closed");
    expect(closed.text).toContain("Reservations on that day are kept");
    expect(closed.text).toContain("Intro call with Grace Hopper");
    expect(await w.freeTimes("2026-11-26")).toEqual([]);

    const cleared = success(await w.tool("clear_date_override", { slug: "intro-call", date: "2026-11-26" }));
    expect(cleared.data.removed).toBe(true);
    expect(await w.freeTimes("2026-11-26")).toHaveLength(15); // 09:00-17:00 less Grace's 09:00
    const noop = success(await w.tool("clear_date_override", { slug: "intro-call", date: "2026-11-26" }));
    expect(noop.data.removed).toBe(false);
    expect(noop.text).toContain("had no override; nothing changed");

    expect(success(await w.tool("get_availability", { slug: "intro-call" })).data.availability.overrides).toEqual([
      { date: "2026-11-25", ranges: [{ start: "14:00", end: "15:00" }], closed: false },
    ]);
    // The admin API sees the same hours.
    expect((await w.admin("GET", `/admin/event-types/${w.intro.id}`)).body.data.availability.weekly.tuesday).toEqual([{ start: "10:00", end: "12:00" }]);
  });

  it("refuses hours the admin API would refuse, and dates that are not dates, with tool errors, changing nothing", async () => {
    const w = await world();
    expect(failure(await w.tool("set_weekly_hours", { slug: "intro-call", days: ["monday"], ranges: [{ start: "12:00", end: "10:00" }] }))).toBe(
      "Invalid input. availability.weekly.monday: Range 12:00-10:00 must end after it starts. (validation_failed)",
    );
    expect(failure(await w.tool("set_weekly_hours", { slug: "intro-call", days: ["monday"], ranges: [{ start: "25:00", end: "26:00" }] }))).toMatch(
      /Input validation error/,
    );
    expect(failure(await w.tool("set_weekly_hours", { slug: "intro-call", days: ["someday"], ranges: [] }))).toMatch(/Input validation error/);
    expect(failure(await w.tool("set_date_override", { slug: "intro-call", date: "2026-11-25", ranges: [{ start: "24:00", end: "24:00" }] }))).toMatch(
      /cannot start at 24:00/,
    );
    expect(failure(await w.tool("close_day", { slug: "intro-call", date: "2026-02-30" }))).toBe(
      'Invalid input. date: "2026-02-30" is not a calendar date; use YYYY-MM-DD. (validation_failed)',
    );
    expect(failure(await w.tool("clear_date_override", { slug: "intro-call", date: "2026-02-30" }))).toMatch(/not a calendar date/);
    expect(failure(await w.tool("close_day", { slug: "nope", date: "2026-11-25" }))).toMatch(/No event type has the slug "nope"/);
    expect(success(await w.tool("get_availability", { slug: "intro-call" })).data.availability.overrides).toEqual([]);
    expect(await w.freeTimes("2026-11-23")).toHaveLength(16);
  });
});

describe("calendars that block slots", () => {
  it("adds a feed (synced at once), lists it with its status, syncs it again and removes it, never showing its token", async () => {
    const w = await world();
    const feed = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//tests//EN",
      "BEGIN:VEVENT",
      "UID:dentist",
      "DTSTAMP:20261101T000000Z",
      "DTSTART:20261124T091000Z",
      "DTEND:20261124T095000Z",
      "SUMMARY:Dentist",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    let served = 0;
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (served++, new Response(feed, { headers: { "content-type": "text/calendar" } })) });
    cleanups.push(() => server.stop(true));
    const url = `http://127.0.0.1:${server.port}/me.ics`;
    expect(await w.freeTimes("2026-11-24")).toContain("10:00");

    const added = success(await w.tool("add_busy_source", { slug: "intro-call", kind: "ical", url, token: "feed-secret-token" }));
    expect(added.data.sync).toMatchObject({ ok: true, changed: true, downloaded: 1 });
    expect(added.data.source).toMatchObject({ kind: "ical", url, credentialsSet: true, status: "ok", objects: 1, busyIntervals: 1 });
    expect(added.text).not.toContain("feed-secret-token");
    const times = await w.freeTimes("2026-11-24");
    expect(times).not.toContain("10:00");
    expect(times).not.toContain("10:30");

    const listed = success(await w.tool("list_busy_sources", { eventTypeId: w.intro.id }));
    expect(listed.data.sources.map((s: { id: number }) => s.id)).toEqual([added.data.source.id]);
    expect(JSON.stringify(listed)).not.toContain("feed-secret-token");
    expect(success(await w.tool("sync_busy_source", { sourceId: added.data.source.id })).data.sync).toMatchObject({ ok: true, changed: false });
    expect(served).toBe(2);

    expect(failure(await w.tool("add_busy_source", { slug: "intro-call", kind: "ical", url: "ftp://example.com/x.ics" }))).toMatch(
      /url: .*\(validation_failed\)/,
    );
    expect(failure(await w.tool("sync_busy_source", { sourceId: 999 }))).toMatch(/No busy source with id 999\. \(not_found\)/);
    expect(success(await w.tool("remove_busy_source", { sourceId: added.data.source.id })).data.removed).toBe(true);
    expect(await w.freeTimes("2026-11-24")).toContain("10:00");
    expect(success(await w.tool("list_busy_sources", { slug: "intro-call" })).data.sources).toEqual([]);
  });
});

describe("calendars slower than the answer window", () => {
  it("answers add and sync within the window with the source syncing, and list_busy_sources shows the sync end", async () => {
    const w = await world({ syncAnswerMs: 200 });
    const feed = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//tests//EN",
      "BEGIN:VEVENT",
      "UID:dentist",
      "DTSTAMP:20261101T000000Z",
      "DTSTART:20261124T091000Z",
      "DTEND:20261124T095000Z",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    // The feed answers only when the test lets it: until then every sync of it is under way.
    let release!: () => void;
    let gate = new Promise<void>((resolve) => (release = resolve));
    let served = 0;
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async () => {
        await gate;
        served++;
        return new Response(feed, { headers: { "content-type": "text/calendar" } });
      },
    });
    cleanups.push(() => (release(), server.stop(true)));
    const url = `http://127.0.0.1:${server.port}/me.ics`;
    /** The tool's answer, or null when it took longer than 10 s (the calendar is never answered in time). */
    const answered = (name: string, args: Record<string, unknown>) => Promise.race([w.tool(name, args), Bun.sleep(10_000).then(() => null)]);

    const added = await answered("add_busy_source", { slug: "intro-call", kind: "ical", url });
    expect(added, "add_busy_source answered while the feed was still silent").not.toBeNull();
    const addedOut = success(added!);
    expect(addedOut.data).toMatchObject({ state: "syncing", sync: null, source: { url, syncing: true, status: "never" } });
    expect(addedOut.text).toMatch(/goes on after this answer.*list_busy_sources/);
    const sourceId = addedOut.data.source.id as number;
    const listed = success(await w.tool("list_busy_sources", { slug: "intro-call" }));
    expect(listed.data.sources[0]).toMatchObject({ id: sourceId, syncing: true });
    expect(listed.text).toContain("syncing now");

    release();
    await waitFor(
      async () => success(await w.tool("list_busy_sources", { slug: "intro-call" })).data.sources[0].syncing === false,
      5_000,
      "the source to show its sync ended",
    );
    expect(success(await w.tool("list_busy_sources", { slug: "intro-call" })).data.sources[0]).toMatchObject({ status: "ok", objects: 1, busyIntervals: 1 });
    expect(await w.freeTimes("2026-11-24")).not.toContain("10:00");

    gate = new Promise<void>((resolve) => (release = resolve));
    const synced = await answered("sync_busy_source", { sourceId });
    expect(synced, "sync_busy_source answered while the feed was still silent").not.toBeNull();
    expect(success(synced!).data).toMatchObject({ state: "syncing", sync: null, source: { id: sourceId, syncing: true, status: "ok" } });
    release();
    await waitFor(
      async () => success(await w.tool("list_busy_sources", { slug: "intro-call" })).data.sources[0].syncing === false,
      5_000,
      "the source to show its sync ended",
    );
    expect(served).toBe(2);
    // A sync that ends within the window answers its outcome. The window is 200 ms here, which a loaded
    // machine can miss now and then: a sync that still ran past it is waited out and asked again.
    let fast = success(await w.tool("sync_busy_source", { sourceId }));
    for (let tries = 1; fast.data.state !== "done" && tries < 5; tries++) {
      await waitFor(
        async () => success(await w.tool("list_busy_sources", { slug: "intro-call" })).data.sources[0].syncing === false,
        5_000,
        "the source to show its sync ended",
      );
      fast = success(await w.tool("sync_busy_source", { sourceId }));
    }
    expect(fast.data).toMatchObject({ state: "done", sync: { ok: true, changed: false }, source: { syncing: false } });
  });
});

describe("bookings written into a calendar", () => {
  it("sets the calendar of a CalDAV source to write bookings into, shows it in the source's view, and stops", async () => {
    const w = await world();
    const radicale = await startRadicale();
    cleanups.push(() => radicale.stop());
    const cal = await radicale.makeCalendar("mcp-bookings");
    const added = success(
      await w.tool("add_busy_source", { slug: "intro-call", kind: "caldav", url: cal, username: radicale.user, password: radicale.password }),
    );
    const sourceId = added.data.source.id as number;
    expect(added.data.source).toMatchObject({ writeBookings: false, writeCalendar: null });
    expect(failure(await w.tool("write_bookings_to_calendar", { sourceId, calendar: `${radicale.base}/${radicale.user}/elsewhere/` }))).toMatch(
      /calendar: .*no such calendar.*\(validation_failed\)/,
    );
    const set = success(await w.tool("write_bookings_to_calendar", { sourceId }));
    expect(set.data.source).toMatchObject({ id: sourceId, writeBookings: true, writeCalendar: cal });
    expect(set.text).toContain(`written into ${cal}`);
    expect(JSON.stringify(set)).not.toContain(radicale.password);
    const listed = success(await w.tool("list_busy_sources", { slug: "intro-call" }));
    expect(listed.data.sources[0]).toMatchObject({ writeBookings: true, writeCalendar: cal });
    expect(listed.text).toContain(`bookings written into ${cal}`);
    const stopped = success(await w.tool("stop_writing_bookings", { sourceId }));
    expect(stopped.data.source).toMatchObject({ writeBookings: false, writeCalendar: null });
    expect(failure(await w.tool("stop_writing_bookings", { sourceId: 999 }))).toMatch(/No busy source with id 999\. \(not_found\)/);
  });
});

describe("hosts, schedules and teams", () => {
  it("creates and changes hosts and schedules, makes a round-robin team, lists a host's bookings across event types and gives a host a calendar", async () => {
    const w = await world();
    const listed = success(await w.tool("list_hosts"));
    const defaultHost = listed.data.hosts.find((h: { isDefault: boolean }) => h.isDefault);
    expect(defaultHost.eventTypeIds).toEqual([w.intro.id, w.consulting.id]);
    expect(listed.text).toContain("the default host");

    const bea = success(await w.tool("create_host", { name: "Bea Team", email: "bea@example.com", timezone: "Europe/Prague" })).data.host;
    expect(bea).toMatchObject({ name: "Bea Team", email: "bea@example.com", timezone: "Europe/Prague", avatarUrl: null, isDefault: false, eventTypeIds: [] });
    expect(success(await w.tool("update_host", { hostId: bea.id, avatarUrl: "https://example.com/bea.png" })).data.host).toMatchObject({
      name: "Bea Team",
      avatarUrl: "https://example.com/bea.png",
    });
    expect(failure(await w.tool("update_host", { hostId: bea.id, timezone: "Mars/Olympus" }))).toMatch(
      /timezone: Unknown IANA timezone\. \(validation_failed\)/,
    );
    expect(failure(await w.tool("create_host", { name: "X", email: "" }))).toMatch(/email: .*\(validation_failed\)/);
    expect(failure(await w.tool("get_host", { hostId: 99999 }))).toMatch(/No host with id 99999\. \(not_found\)/);

    const mornings = [{ start: "10:00", end: "12:00" }];
    const schedule = success(
      await w.tool("create_schedule", {
        hostId: bea.id,
        name: "Mornings",
        weekly: { monday: mornings, tuesday: mornings, wednesday: mornings, thursday: mornings, friday: mornings },
      }),
    ).data.schedule;
    expect(schedule).toMatchObject({
      hostId: bea.id,
      name: "Mornings",
      timezone: "Europe/Prague",
      availability: { weekly: { wednesday: mornings, saturday: [] } },
      eventTypeIds: [],
    });
    const changed = success(await w.tool("update_schedule", { scheduleId: schedule.id, weekly: { friday: [] } })).data.schedule;
    expect(changed.availability.weekly).toMatchObject({ thursday: mornings, friday: [] });
    expect(failure(await w.tool("update_schedule", { scheduleId: schedule.id, weekly: { monday: [{ start: "12:00", end: "10:00" }] } }))).toMatch(
      /availability\.weekly\.monday: .*\(validation_failed\)/,
    );

    // The consulting call becomes a round-robin team: Bea first (priority 10) in her mornings, then the default host.
    const team = success(
      await w.tool("set_event_type_hosts", {
        slug: "consulting",
        assignment: "round-robin",
        hosts: [{ hostId: bea.id, priority: 10, scheduleId: schedule.id }, { hostId: defaultHost.id }],
      }),
    );
    expect(team.data).toMatchObject({
      eventType: { id: w.consulting.id },
      assignment: "round-robin",
      hosts: [
        { hostId: bea.id, name: "Bea Team", priority: 10, scheduleId: schedule.id },
        { hostId: defaultHost.id, priority: 0, scheduleId: null },
      ],
    });
    expect(team.text).toMatch(/round robin/);
    const listedTeam = success(await w.tool("list_event_types"));
    expect(listedTeam.data.eventTypes.find((et: { id: number }) => et.id === w.consulting.id)).toMatchObject({
      assignment: "round-robin",
      hosts: [{ hostId: bea.id, name: "Bea Team" }, { hostId: defaultHost.id }],
    });
    expect(listedTeam.text).toContain("round robin of Bea Team, ");
    expect(failure(await w.tool("set_event_type_hosts", { slug: "consulting", hosts: [{ hostId: defaultHost.id, scheduleId: schedule.id }] }))).toMatch(
      /hosts\.0\.scheduleId: .*\(validation_failed\)/,
    );

    const booked = await w.call("POST", "/reservations", {
      token: w.consulting.token,
      body: { ...slot("2026-11-25", "10:00"), email: "carl@example.com", firstname: "Carl", lastname: "Gauss" },
    });
    expect(booked.body.success, JSON.stringify(booked.body)).toBe(true);
    expect(booked.body.data.userId).toBe(bea.id);
    const beas = success(await w.tool("list_host_bookings", { hostId: bea.id, from: "2026-11-23", until: "2026-11-29" }));
    expect(beas.data.bookings).toEqual([
      expect.objectContaining({
        uuid: booked.body.data.uuid,
        eventType: { id: w.consulting.id, title: "Consulting", slug: "consulting" },
        hostIds: [bea.id],
        status: "confirmed",
        start: "2026-11-25T10:00:00+01:00",
        name: "Carl Gauss",
      }),
    ]);
    expect(beas.text).toContain("Carl Gauss");
    const defaults = success(
      await w.tool("list_host_bookings", { hostId: defaultHost.id, from: "2026-11-23", until: "2026-11-29", timezone: "Europe/London" }),
    );
    expect(defaults.data.timezone).toBe("Europe/London");
    expect(defaults.data.bookings.map((b: { uuid: string }) => b.uuid)).toEqual([w.ada]);
    expect(defaults.data.bookings[0].start).toBe("2026-11-24T14:00:00+00:00");
    expect(success(await w.tool("list_host_bookings", { hostId: bea.id, from: "2026-11-23", until: "2026-11-29", status: "cancelled" })).data.bookings).toEqual(
      [],
    );

    // A calendar of Bea's: listed with her and with the team, not with the intro call.
    const feed = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//tests//EN",
      "BEGIN:VEVENT",
      "UID:b",
      "DTSTAMP:20261101T000000Z",
      "DTSTART:20261126T090000Z",
      "DTEND:20261126T100000Z",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(feed, { headers: { "content-type": "text/calendar" } }) });
    cleanups.push(() => server.stop(true));
    const url = `http://127.0.0.1:${server.port}/bea.ics`;
    const added = success(await w.tool("add_busy_source", { hostId: bea.id, kind: "ical", url }));
    expect(added.data.source).toMatchObject({ hostId: bea.id, url, status: "ok", busyIntervals: 1 });
    expect(added.text).toContain("host Bea Team");
    expect(success(await w.tool("list_busy_sources", { hostId: bea.id })).data).toMatchObject({
      eventType: null,
      host: { id: bea.id, name: "Bea Team" },
      sources: [{ id: added.data.source.id }],
    });
    expect(success(await w.tool("list_busy_sources", { slug: "consulting" })).data.sources.map((s: { id: number }) => s.id)).toContain(added.data.source.id);
    expect(success(await w.tool("list_busy_sources", { slug: "intro-call" })).data.sources).toEqual([]);
    expect(failure(await w.tool("list_busy_sources", { hostId: bea.id, slug: "consulting" }))).toMatch(
      /hostId: Name a host or an event type, not both.*\(validation_failed\)/,
    );

    const shown = success(await w.tool("get_host", { hostId: bea.id }));
    expect(shown.data).toMatchObject({
      host: { id: bea.id, eventTypeIds: [w.consulting.id] },
      schedules: [{ id: schedule.id, eventTypeIds: [w.consulting.id] }],
      calendars: [{ id: added.data.source.id }],
      eventTypes: [{ id: w.consulting.id, slug: "consulting" }],
    });

    // What is in use is not deleted; a host nobody uses is.
    expect(failure(await w.tool("delete_schedule", { scheduleId: schedule.id }))).toMatch(/scheduleId: An event type uses the schedule.*\(validation_failed\)/);
    expect(failure(await w.tool("delete_host", { hostId: bea.id }))).toMatch(/hostId: The host has event types or bookings.*\(validation_failed\)/);
    expect(failure(await w.tool("delete_host", { hostId: defaultHost.id }))).toMatch(/default host cannot be deleted.*\(validation_failed\)/);
    const spare = success(await w.tool("create_host", { name: "Spare", email: "spare@example.com" })).data.host;
    expect(spare.timezone).toBe("UTC");
    expect(success(await w.tool("delete_host", { hostId: spare.id })).data).toEqual({ hostId: spare.id, deleted: true });
    expect(success(await w.tool("list_hosts")).data.hosts.map((h: { id: number }) => h.id)).not.toContain(spare.id);
  });
});

describe("time off through the assistant server", () => {
  it("marks a host away with a colleague who takes the bookings, lists it and removes it", async () => {
    const w = await world();
    const host = success(await w.tool("list_hosts")).data.hosts.find((h: { isDefault: boolean }) => h.isDefault);
    const sam = success(await w.tool("create_host", { name: "Sam Cover", email: "sam@example.com", timezone: "Europe/Prague" })).data.host;
    // Tuesday: the default host's Ada at 15:00 takes one of the sixteen times.
    expect(await w.freeTimes("2026-11-24")).toHaveLength(15);
    const added = success(
      await w.tool("add_time_off", { hostId: host.id, startDate: "2026-11-24", endDate: "2026-11-24", note: "Conference", colleagueHostId: sam.id }),
    );
    expect(added.data.timeOff).toMatchObject({
      hostId: host.id,
      startDate: "2026-11-24",
      endDate: "2026-11-24",
      colleagueHostId: sam.id,
      colleagueName: "Sam Cover",
    });
    expect(added.text).toContain("Sam Cover takes the bookings");
    // Sam stands in with the intro call's hours, and Ada's booking is not his.
    expect(await w.freeTimes("2026-11-24")).toHaveLength(16);
    const listed = success(await w.tool("list_time_off", { hostId: host.id }));
    expect(listed.data.timeOff.map((t: { id: number }) => t.id)).toEqual([added.data.timeOff.id]);
    expect(listed.text).toContain("2026-11-24 to 2026-11-24 (whole days)");
    expect(failure(await w.tool("add_time_off", { hostId: host.id, startDate: "2026-11-25", endDate: "2026-11-25", colleagueHostId: host.id }))).toMatch(
      /colleagueHostId: .*\(validation_failed\)/,
    );
    expect(failure(await w.tool("add_time_off", { hostId: host.id, start: "2026-11-25T12:00:00+01:00", end: "2026-11-25T10:00:00+01:00" }))).toMatch(
      /end: Must be after start\. \(validation_failed\)/,
    );
    expect(success(await w.tool("remove_time_off", { hostId: host.id, timeOffId: added.data.timeOff.id })).data).toEqual({
      timeOffId: added.data.timeOff.id,
      removed: true,
    });
    expect(await w.freeTimes("2026-11-24")).toHaveLength(15);
    expect(failure(await w.tool("remove_time_off", { hostId: host.id, timeOffId: added.data.timeOff.id }))).toMatch(/\(not_found\)/);
  });
});
