import { describe, expect, it } from "vitest";
import { hashToken } from "../src/lib/tokens.ts";
import { ADMIN_KEY, reservation, setup, type Answer } from "./utils.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Asserts the spec's JSON error body with the given status and code. */
function expectError(r: Answer, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  expect(r.body).toMatchObject({ success: false, status, code });
  expect(typeof r.body.message).toBe("string");
  expect(typeof r.body.hint).toBe("string");
  expect(r.body.docs).toMatch(new RegExp(`/docs#error-${code}$`));
}

async function created(t: Awaited<ReturnType<typeof setup>>, body: Record<string, unknown> = { title: "Intro call", timezone: "Europe/Prague" }) {
  const r = await t.admin("POST", "/admin/event-types", body);
  expect(r.status).toBe(200);
  return r.body.data as { id: number; token: string; overrideToken: string } & Record<string, any>;
}

describe("creating an event type", () => {
  it("answers the new id with the API token and the override token", async () => {
    const t = await setup();
    const r = await t.admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", durationMinutes: 45 });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toMatchObject({ id: expect.any(Number), title: "Intro call", timezone: "Europe/Prague", durationMinutes: 45, disabled: false });
    expect(r.body.data.token).toMatch(/^bk_[A-Za-z0-9_-]{40,}$/);
    expect(r.body.data.overrideToken).toMatch(/^bko_[A-Za-z0-9_-]{40,}$/);
    expect(r.body.data.token).not.toBe(r.body.data.overrideToken);
  });

  it("fills every setting left out with its default", async () => {
    const t = await setup();
    const et = await created(t, { title: "Bare" });
    expect(et).toMatchObject({
      timezone: "UTC",
      durationMinutes: 30,
      seats: 1,
      holdMinutes: 10,
      payment: null,
      webhookUrl: null,
      locations: [{ type: "video-meet", value: null }],
    });
    expect(et.availability.weekly.monday).toEqual([{ start: "09:00", end: "17:00" }]);
    expect(et.availability.weekly.sunday).toEqual([]);
  });

  it("stores only hashes of the tokens", async () => {
    const t = await setup();
    const et = await created(t);
    const record = await t.store.eventTypes.byId(et.id);
    expect(record!.tokenHash).toBe(hashToken(et.token));
    expect(record!.overrideTokenHash).toBe(hashToken(et.overrideToken));
    expect(JSON.stringify(record)).not.toContain(et.token);
    expect(JSON.stringify(record)).not.toContain(et.overrideToken);
  });

  it("gives custom fields uuids and init shows them with their merge tags", async () => {
    const t = await setup();
    const given = "6F1C0C1E-8E3B-4B5A-9C51-2D7A0F7E9B10";
    const et = await created(t, {
      title: "Intro call",
      customFields: [
        { label: "Company size", name: "company_size", type: "select", options: ["1-10", "11+"], required: true },
        { label: "Notes", name: "notes", type: "textarea", uuid: given },
      ],
    });
    expect(et.customFields[0].uuid).toMatch(UUID);
    expect(et.customFields[1].uuid).toBe(given.toLowerCase());

    const init = await t.call("POST", "/event-types/init", { token: et.token });
    expect(init.status).toBe(200);
    expect(init.body.data.customFields).toEqual([
      {
        uuid: et.customFields[0].uuid,
        label: "Company size",
        name: "company_size",
        mergeTag: "COMPANY_SIZE",
        type: "select",
        order: 0,
        required: true,
        options: ["1-10", "11+"],
      },
      { uuid: given.toLowerCase(), label: "Notes", name: "notes", mergeTag: "NOTES", type: "textarea", order: 1, required: false },
    ]);
  });

  it("lowers the payment currency", async () => {
    const t = await setup();
    const et = await created(t, { title: "Paid", payment: { amount: 5000, currency: "EUR", providerAccountId: "acct_123" } });
    expect(et.payment).toEqual({ amount: 5000, currency: "eur", providerAccountId: "acct_123" });
  });

  it("creates a disabled event type when asked to", async () => {
    const t = await setup();
    const et = await created(t, { title: "Later", disabled: true });
    expect(et.disabled).toBe(true);
    expectError(await t.call("GET", "/configuration", { token: et.token }), 403, "event_type_disabled");
  });
});

describe("reading event types", () => {
  it("answers one event type as created, without its tokens and webhook signing secret", async () => {
    const t = await setup();
    const { token, overrideToken, webhookSecret, ...view } = await created(t);
    const r = await t.admin("GET", `/admin/event-types/${view.id}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(view);
    expect(r.text).not.toContain(token);
    expect(r.text).not.toContain(overrideToken);
    expect(r.text).not.toContain(webhookSecret);
    expect(r.text).not.toMatch(/tokenHash/i);
  });

  it("lists every event type in id order", async () => {
    const t = await setup();
    const a = await created(t, { title: "First" });
    const b = await created(t, { title: "Second", disabled: true });
    const r = await t.admin("GET", "/admin/event-types");
    expect(r.status).toBe(200);
    expect(r.body.data.map((et: any) => [et.id, et.title, et.disabled])).toEqual([
      [a.id, "First", false],
      [b.id, "Second", true],
    ]);
    expect(r.text).not.toContain(a.token);
  });

  it("answers an empty list before anything is created", async () => {
    const t = await setup();
    const r = await t.admin("GET", "/admin/event-types");
    expect(r.body).toEqual({ success: true, data: [] });
  });

  it("answers 404 not_found for an unknown or malformed id", async () => {
    const t = await setup();
    expectError(await t.admin("GET", "/admin/event-types/999"), 404, "not_found");
    expectError(await t.admin("GET", "/admin/event-types/abc"), 404, "not_found");
    expectError(await t.admin("PATCH", "/admin/event-types/999", { title: "x" }), 404, "not_found");
    expectError(await t.admin("POST", "/admin/event-types/999/disable"), 404, "not_found");
    expectError(await t.admin("POST", "/admin/event-types/999/token"), 404, "not_found");
  });
});

describe("updating an event type", () => {
  it("changes only the keys sent and stamps the time of the change", async () => {
    const t = await setup();
    const et = await created(t, { title: "Intro call", durationMinutes: 30, seats: 2 });
    t.clock.advance(60);
    const r = await t.admin("PATCH", `/admin/event-types/${et.id}`, { durationMinutes: 45 });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      title: "Intro call",
      durationMinutes: 45,
      seats: 2,
      createdAt: "2026-11-23T07:00:00.000Z",
      updatedAt: "2026-11-23T08:00:00.000Z",
    });
    expect((await t.admin("GET", `/admin/event-types/${et.id}`)).body.data).toEqual(r.body.data);
  });

  it("shows the change to visitors at once", async () => {
    const t = await setup();
    const et = await created(t);
    expect((await t.call("GET", "/configuration", { token: et.token })).body.data.configuration.title).toBe("Intro call");
    await t.admin("PATCH", `/admin/event-types/${et.id}`, { title: "Discovery call" });
    expect((await t.call("GET", "/configuration", { token: et.token })).body.data.configuration.title).toBe("Discovery call");
  });

  it("shows the host's name to visitors, trimmed, and clears it with null", async () => {
    const t = await setup();
    const et = await created(t);
    const configured = async () => (await t.call("GET", "/configuration", { token: et.token })).body.data.configuration;
    expect((await configured()).hostName).toBeNull();
    expect((await t.admin("PATCH", `/admin/event-types/${et.id}`, { hostName: "  Jana Nováková " })).status).toBe(200);
    expect((await configured()).hostName).toBe("Jana Nováková");
    expect((await t.admin("GET", `/admin/event-types/${et.id}`)).body.data.hostName).toBe("Jana Nováková");
    expect((await t.admin("PATCH", `/admin/event-types/${et.id}`, { hostName: null })).status).toBe(200);
    expect((await configured()).hostName).toBeNull();
  });

  it("answers 422 hostName for a blank, multi-line or over-long name and keeps the one before", async () => {
    const t = await setup();
    const et = await created(t, { title: "Intro call", timezone: "Europe/Prague", hostName: "Jana" });
    for (const hostName of ["   ", "", "Jana\nNováková", "x".repeat(201), 42]) {
      const r = await t.admin("PATCH", `/admin/event-types/${et.id}`, { hostName });
      expectError(r, 422, "validation_failed");
      expect(Object.keys(r.body.errors)).toEqual(["hostName"]);
    }
    expect((await t.call("GET", "/configuration", { token: et.token })).body.data.configuration.hostName).toBe("Jana");
  });

  it("merges theme and locale one level deep, keeping what was not sent", async () => {
    const t = await setup();
    const et = await created(t, {
      title: "Intro call",
      theme: { mode: "light", borderRadius: "8px", colors: { primary: "#2563eb" } },
      locale: { preset: "cs", startDayOfWeek: "monday", texts: { book: "Rezervovat" } },
    });
    const r = await t.admin("PATCH", `/admin/event-types/${et.id}`, { theme: { mode: "dark" }, locale: { startDayOfWeek: "sunday" } });
    expect(r.status).toBe(200);
    expect(r.body.data.theme).toEqual({ mode: "dark", borderRadius: "8px", colors: { primary: "#2563eb" } });
    expect(r.body.data.locale).toEqual({ preset: "cs", startDayOfWeek: "sunday", texts: { book: "Rezervovat" } });
  });

  it("takes an empty locale preset, which leaves the language to the visitor's browser, and still refuses a malformed one", async () => {
    const t = await setup();
    const et = await created(t, { title: "Intro call", locale: { preset: "de-AT" } });
    const r = await t.admin("PATCH", `/admin/event-types/${et.id}`, { locale: { preset: "" } });
    expect(r.status).toBe(200);
    expect(r.body.data.locale.preset).toBe("");
    expect((await t.call("GET", "/configuration", { token: et.token })).body.data.configuration.locale.preset).toBe("");
    const bad = await t.admin("PATCH", `/admin/event-types/${et.id}`, { locale: { preset: "de_AT" } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(["locale.preset"]);
  });

  it("replaces the colours as a whole when colours are sent", async () => {
    const t = await setup();
    const et = await created(t, { title: "Intro call", theme: { colors: { primary: "#2563eb", text: "#111" } } });
    const r = await t.admin("PATCH", `/admin/event-types/${et.id}`, { theme: { colors: { background: "rgb(255 255 255)" } } });
    expect(r.body.data.theme).toEqual({ mode: "light", borderRadius: "8px", colors: { background: "rgb(255 255 255)" } });
  });

  it("replaces the availability as a whole", async () => {
    const t = await setup();
    const et = await created(t, {
      title: "Intro call",
      availability: {
        weekly: { monday: [{ start: "09:00", end: "17:00" }], tuesday: [{ start: "09:00", end: "12:00" }] },
        overrides: [{ date: "2026-12-24", ranges: [] }],
      },
    });
    const r = await t.admin("PATCH", `/admin/event-types/${et.id}`, { availability: { weekly: { friday: [{ start: "10:00", end: "24:00" }] } } });
    expect(r.status).toBe(200);
    expect(r.body.data.availability).toEqual({ weekly: { friday: [{ start: "10:00", end: "24:00" }] }, overrides: [] });
  });

  it("replaces custom fields and clears the payment with null", async () => {
    const t = await setup();
    const et = await created(t, {
      title: "Paid",
      payment: { amount: 5000, currency: "eur", providerAccountId: "acct_123" },
      customFields: [{ label: "Company", name: "company", type: "text" }],
    });
    const r = await t.admin("PATCH", `/admin/event-types/${et.id}`, {
      payment: null,
      customFields: [{ label: "Phone", name: "phone", type: "phone", required: true }],
    });
    expect(r.body.data.payment).toBeNull();
    expect(r.body.data.customFields).toEqual([{ uuid: expect.stringMatching(UUID), label: "Phone", name: "phone", type: "phone", required: true, order: 0 }]);
  });
});

describe("disabling and enabling", () => {
  it("disables an event type: configuration answers 403 while init still answers disabled", async () => {
    const t = await setup();
    const et = await created(t);
    expect((await t.call("GET", "/configuration", { token: et.token })).status).toBe(200);

    const off = await t.admin("POST", `/admin/event-types/${et.id}/disable`);
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ id: et.id, disabled: true });
    expectError(await t.call("GET", "/configuration", { token: et.token }), 403, "event_type_disabled");
    const init = await t.call("POST", "/event-types/init", { token: et.token });
    expect(init.status).toBe(200);
    expect(init.body.data.disabled).toBe(true);
    expect(init.body.data.configuration.closestBookableDay).toBe(-1);
  });

  it("enables a disabled event type again", async () => {
    const t = await setup();
    const et = await created(t, { title: "Intro call", disabled: true });
    const on = await t.admin("POST", `/admin/event-types/${et.id}/enable`);
    expect(on.body.data.disabled).toBe(false);
    expect((await t.call("GET", "/configuration", { token: et.token })).status).toBe(200);
    expect((await t.call("POST", "/event-types/init", { token: et.token })).body.data.disabled).toBe(false);
  });

  it("keeps the settings untouched while disabling", async () => {
    const t = await setup();
    const { token, overrideToken, webhookSecret, ...view } = await created(t, { title: "Intro call", seats: 3 });
    const off = await t.admin("POST", `/admin/event-types/${view.id}/disable`);
    expect(off.body.data).toEqual({ ...view, disabled: true });
  });
});

describe("deleting an event type", () => {
  it("deletes it with its reservations: then 404, and its token stops working", async () => {
    const t = await setup();
    const et = await created(t);
    const kept = await created(t, { title: "Other" });
    const booked = reservation(et.id, "2026-12-01T09:00:00Z", 30);
    await t.store.reservations.insertMany([booked]);

    const r = await t.admin("DELETE", `/admin/event-types/${et.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: expect.any(String) });
    expectError(await t.admin("GET", `/admin/event-types/${et.id}`), 404, "not_found");
    expectError(await t.call("GET", "/configuration", { token: et.token }), 401, "unauthenticated");
    expect(await t.store.reservations.byUuid(et.id, booked.uuid)).toBeNull();
    expect((await t.admin("GET", "/admin/event-types")).body.data.map((e: any) => e.id)).toEqual([kept.id]);
    expect((await t.call("GET", "/configuration", { token: kept.token })).status).toBe(200);
  });

  it("answers 404 when deleting twice", async () => {
    const t = await setup();
    const et = await created(t);
    expect((await t.admin("DELETE", `/admin/event-types/${et.id}`)).status).toBe(200);
    expectError(await t.admin("DELETE", `/admin/event-types/${et.id}`), 404, "not_found");
  });
});

describe("regenerating tokens", () => {
  it("issues a new API token and the old one stops working at once", async () => {
    const t = await setup();
    const et = await created(t);
    expect((await t.call("GET", "/configuration", { token: et.token })).status).toBe(200);

    const r = await t.call("POST", `/admin/event-types/${et.id}/token`, { token: ADMIN_KEY });
    expect(r.status).toBe(200);
    // A new API token comes with a new link token for the booking page.
    expect(r.body.data).toEqual({ id: et.id, token: expect.stringMatching(/^bk_/), linkToken: expect.stringMatching(/^bcl_/) });
    expect(r.body.data.token).not.toBe(et.token);
    expectError(await t.call("GET", "/configuration", { token: et.token }), 401, "unauthenticated");
    expect((await t.call("GET", "/configuration", { token: r.body.data.token })).status).toBe(200);
  });

  it("issues a new override token when asked for kind override, leaving the API token alone", async () => {
    const t = await setup();
    const et = await created(t);
    const r = await t.admin("POST", `/admin/event-types/${et.id}/token`, { kind: "override" });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ id: et.id, overrideToken: expect.stringMatching(/^bko_/) });
    const record = await t.store.eventTypes.byId(et.id);
    expect(record!.overrideTokenHash).toBe(hashToken(r.body.data.overrideToken));
    expect(record!.overrideTokenHash).not.toBe(hashToken(et.overrideToken));
    expect((await t.call("GET", "/configuration", { token: et.token })).status).toBe(200);
  });

  it("refuses an unknown token kind with 422", async () => {
    const t = await setup();
    const et = await created(t);
    const r = await t.admin("POST", `/admin/event-types/${et.id}/token`, { kind: "master" });
    expectError(r, 422, "validation_failed");
    expect(r.body.errors).toHaveProperty("kind");
    expect((await t.call("GET", "/configuration", { token: et.token })).status).toBe(200);
  });
});

describe("listing reservations", () => {
  // The clock stands at 2026-11-23T07:00Z; the event type's days are Prague days (UTC+1 in winter).
  async function booked() {
    const t = await setup();
    const et = await created(t, { title: "Intro call", timezone: "Europe/Prague" });
    const other = await created(t, { title: "Other", timezone: "Europe/Prague" });
    const now = t.clock.now();
    const r = {
      confirmed: reservation(et.id, "2026-12-01T08:00:00Z", 30),
      cancelled: reservation(et.id, "2026-12-01T09:00:00Z", 30, { status: "cancelled" }),
      held: reservation(et.id, "2026-12-02T10:00:00Z", 30, { status: "held", heldUntilMs: now + 5 * 60_000 }),
      lapsed: reservation(et.id, "2026-12-02T11:00:00Z", 30, { status: "held", heldUntilMs: now - 60_000 }),
      lateEvening: reservation(et.id, "2026-12-02T22:30:00Z", 30),
      nextDay: reservation(et.id, "2026-12-02T23:30:00Z", 30),
      dayBefore: reservation(et.id, "2026-11-30T22:30:00Z", 30),
      otherEventType: reservation(other.id, "2026-12-01T08:00:00Z", 30),
    };
    await t.store.reservations.insertMany(Object.values(r));
    const list = async (query: string) => {
      const answer = await t.admin("GET", `/admin/event-types/${et.id}/reservations?${query}`);
      expect(answer.status).toBe(200);
      return answer.body.data as any[];
    };
    return { t, et, r, list };
  }

  it("lists the reservations of the days in the event type's zone, in start order", async () => {
    const { r, list } = await booked();
    const rows = await list("from=2026-12-01&until=2026-12-02");
    expect(rows.map((x) => x.uuid)).toEqual([r.confirmed.uuid, r.cancelled.uuid, r.held.uuid, r.lapsed.uuid, r.lateEvening.uuid]);
    expect(rows.map((x) => x.status)).toEqual(["confirmed", "cancelled", "held", "expired", "confirmed"]);
    expect(rows[0]).toMatchObject({ start: "2026-12-01T09:00:00+01:00", end: "2026-12-01T09:30:00+01:00", email: r.confirmed.email, firstname: "Ada" });
  });

  it("lists a held reservation whose hold has passed as expired", async () => {
    const { r, list } = await booked();
    expect((await list("from=2026-12-02&until=2026-12-02&status=expired")).map((x) => x.uuid)).toEqual([r.lapsed.uuid]);
    expect((await list("from=2026-12-02&until=2026-12-02&status=held")).map((x) => x.uuid)).toEqual([r.held.uuid]);
  });

  it("filters by stored status", async () => {
    const { r, list } = await booked();
    expect((await list("from=2026-12-01&until=2026-12-02&status=confirmed")).map((x) => x.uuid)).toEqual([r.confirmed.uuid, r.lateEvening.uuid]);
    expect((await list("from=2026-12-01&until=2026-12-02&status=cancelled")).map((x) => x.uuid)).toEqual([r.cancelled.uuid]);
  });

  it("reads the days in the zone given as timezone", async () => {
    const { r, list } = await booked();
    expect((await list("from=2026-12-02&until=2026-12-02&timezone=UTC")).map((x) => x.uuid)).toEqual([
      r.held.uuid,
      r.lapsed.uuid,
      r.lateEvening.uuid,
      r.nextDay.uuid,
    ]);
  });

  it("refuses a range that ends before it starts, an unknown status and missing days with 422", async () => {
    const { t, et } = await booked();
    const backwards = await t.admin("GET", `/admin/event-types/${et.id}/reservations?from=2026-12-02&until=2026-12-01`);
    expectError(backwards, 422, "validation_failed");
    expect(backwards.body.errors).toHaveProperty("until");
    const status = await t.admin("GET", `/admin/event-types/${et.id}/reservations?from=2026-12-01&until=2026-12-02&status=pending`);
    expectError(status, 422, "validation_failed");
    expect(status.body.errors).toHaveProperty("status");
    const missing = await t.admin("GET", `/admin/event-types/${et.id}/reservations`);
    expectError(missing, 422, "validation_failed");
    expect(Object.keys(missing.body.errors).sort()).toEqual(["from", "until"]);
    const zone = await t.admin("GET", `/admin/event-types/${et.id}/reservations?from=2026-12-01&until=2026-12-02&timezone=Mars/Olympus`);
    expect(zone.body.errors).toHaveProperty("timezone");
  });

  it("answers 404 for the reservations of an unknown event type", async () => {
    const t = await setup();
    expectError(await t.admin("GET", "/admin/event-types/42/reservations?from=2026-12-01&until=2026-12-02"), 404, "not_found");
  });
});

describe("admin authentication", () => {
  it("answers 401 unauthenticated without a key and creates nothing", async () => {
    const t = await setup();
    expectError(await t.call("GET", "/admin/event-types"), 401, "unauthenticated");
    expectError(await t.call("POST", "/admin/event-types", { body: { title: "Sneaky" } }), 401, "unauthenticated");
    expect(await t.store.eventTypes.count()).toBe(0);
  });

  it("answers 401 unauthenticated for a wrong key or another scheme", async () => {
    const t = await setup();
    expectError(await t.call("GET", "/admin/event-types", { token: `${ADMIN_KEY}x` }), 401, "unauthenticated");
    expectError(await t.call("GET", "/admin/event-types", { headers: { authorization: `Basic ${ADMIN_KEY}` } }), 401, "unauthenticated");
  });

  it("answers 401 before looking at the body", async () => {
    const t = await setup();
    expectError(await t.call("POST", "/admin/event-types", { body: { title: 5 } }), 401, "unauthenticated");
  });

  it("answers 403 forbidden to an event type's API token", async () => {
    const t = await setup();
    const et = await created(t);
    expectError(await t.call("GET", "/admin/event-types", { token: et.token }), 403, "forbidden");
    expectError(await t.call("POST", `/admin/event-types/${et.id}/token`, { token: et.token }), 403, "forbidden");
    expect((await t.call("GET", "/configuration", { token: et.token })).status).toBe(200);
  });

  it("answers 404 not_found on /admin when no admin key is configured", async () => {
    const t = await setup({ config: { adminKey: null } });
    expectError(await t.call("GET", "/admin/event-types"), 404, "not_found");
    expectError(await t.call("POST", "/admin/event-types", { token: ADMIN_KEY, body: { title: "x" } }), 404, "not_found");
    expectError(await t.call("GET", "/admin/event-types/1", { token: "" }), 404, "not_found");
    expect(await t.store.eventTypes.count()).toBe(0);
  });
});

interface BadInput {
  what: string;
  body?: unknown;
  raw?: string;
  status: number;
  code: string;
  field?: string;
  createOnly?: boolean;
}

const monday = (ranges: unknown[]) => ({ availability: { weekly: { monday: ranges } } });

const BAD_INPUT: BadInput[] = [
  { what: "an unknown key", body: { colour: "red" }, status: 422, code: "validation_failed", field: "colour" },
  { what: "a title of the wrong type", body: { title: 5 }, status: 422, code: "validation_failed", field: "title" },
  { what: "a duration sent as a string", body: { durationMinutes: "30" }, status: 422, code: "validation_failed", field: "durationMinutes" },
  { what: "a fractional seat count", body: { seats: 1.5 }, status: 422, code: "validation_failed", field: "seats" },
  { what: "no title", body: {}, status: 422, code: "validation_failed", field: "title", createOnly: true },
  { what: "an unknown timezone", body: { timezone: "Mars/Olympus_Mons" }, status: 422, code: "validation_failed", field: "timezone" },
  {
    what: "an hour without its leading zero",
    body: monday([{ start: "9:00", end: "17:00" }]),
    status: 422,
    code: "validation_failed",
    field: "availability.weekly.monday.0.start",
  },
  {
    what: "an hour past 24:00",
    body: monday([{ start: "09:00", end: "25:00" }]),
    status: 422,
    code: "validation_failed",
    field: "availability.weekly.monday.0.end",
  },
  {
    what: "a range ending before it starts",
    body: monday([{ start: "17:00", end: "09:00" }]),
    status: 422,
    code: "validation_failed",
    field: "availability.weekly.monday",
  },
  {
    what: "a range starting at 24:00",
    body: monday([{ start: "24:00", end: "24:00" }]),
    status: 422,
    code: "validation_failed",
    field: "availability.weekly.monday",
  },
  {
    what: "an unknown weekday",
    body: { availability: { weekly: { funday: [] } } },
    status: 422,
    code: "validation_failed",
    field: "availability.weekly.funday",
  },
  {
    what: "an override of a nonexistent date",
    body: { availability: { weekly: {}, overrides: [{ date: "2026-02-30", ranges: [] }] } },
    status: 422,
    code: "validation_failed",
    field: "availability.overrides.0.date",
  },
  {
    what: "two overrides of one date",
    body: {
      availability: {
        weekly: {},
        overrides: [
          { date: "2026-12-24", ranges: [] },
          { date: "2026-12-24", ranges: [] },
        ],
      },
    },
    status: 422,
    code: "validation_failed",
    field: "availability.overrides.1.date",
  },
  {
    what: "duplicate custom field names",
    body: {
      customFields: [
        { label: "A", name: "company", type: "text" },
        { label: "B", name: "company", type: "text" },
      ],
    },
    status: 422,
    code: "validation_failed",
    field: "customFields.1.name",
  },
  {
    what: "a select field without options",
    body: { customFields: [{ label: "Size", name: "size", type: "select" }] },
    status: 422,
    code: "validation_failed",
    field: "customFields.0.options",
  },
  {
    what: "an unknown custom field type",
    body: { customFields: [{ label: "X", name: "x", type: "colour" }] },
    status: 422,
    code: "validation_failed",
    field: "customFields.0.type",
  },
  { what: "no location", body: { locations: [] }, status: 422, code: "validation_failed", field: "locations" },
  {
    what: "a colour that breaks out of its CSS rule",
    body: { theme: { colors: { primary: "red;}body{" } } },
    status: 422,
    code: "validation_failed",
    field: "theme.colors.primary",
  },
  { what: "an unknown colour key", body: { theme: { colors: { accent: "#fff" } } }, status: 422, code: "validation_failed", field: "theme.colors.accent" },
  {
    what: "a border radius that is not a length",
    body: { theme: { borderRadius: "8px;color:red" } },
    status: 422,
    code: "validation_failed",
    field: "theme.borderRadius",
  },
  { what: "a javascript: webhook URL", body: { webhookUrl: "javascript:alert(1)" }, status: 422, code: "validation_failed", field: "webhookUrl" },
  { what: "an ftp webhook URL", body: { webhookUrl: "ftp://example.com/hook" }, status: 422, code: "validation_failed", field: "webhookUrl" },
  {
    what: "a payment in cents given as a fraction",
    body: { payment: { amount: 50.5, currency: "eur", providerAccountId: "acct_1" } },
    status: 422,
    code: "validation_failed",
    field: "payment",
  },
  { what: "a title over 500 characters", body: { title: "x".repeat(501) }, status: 422, code: "validation_failed", field: "title" },
  { what: "a description over 5000 characters", body: { description: "x".repeat(5001) }, status: 422, code: "validation_failed", field: "description" },
  { what: "a body over 64 KiB", body: { description: "x".repeat(70_000) }, status: 413, code: "payload_too_large" },
  { what: "a body that is not JSON", raw: '{"title": "Intro call",', status: 400, code: "bad_request" },
  { what: "a JSON array", body: [{ title: "Intro call" }], status: 422, code: "validation_failed" },
];

describe("refusing bad input", () => {
  it.each(BAD_INPUT)("refuses to create an event type with $what, answering $status $code and storing nothing", async (c) => {
    const t = await setup();
    await created(t, { title: "Existing" });
    const before = (await t.admin("GET", "/admin/event-types")).body;
    const body = c.createOnly || c.raw !== undefined || Array.isArray(c.body) ? c.body : { title: "Intro call", ...(c.body as object) };
    const r = await t.call("POST", "/admin/event-types", { token: ADMIN_KEY, body, rawBody: c.raw, headers: { "content-type": "application/json" } });
    expectError(r, c.status, c.code);
    if (c.field) expect(Object.keys(r.body.errors)).toContain(c.field);
    expect((await t.admin("GET", "/admin/event-types")).body).toEqual(before);
  });

  it.each(BAD_INPUT.filter((c) => !c.createOnly))("refuses to update an event type with $what, answering $status $code and changing nothing", async (c) => {
    const t = await setup();
    const et = await created(t, { title: "Existing", customFields: [{ label: "Company", name: "company", type: "text" }] });
    t.clock.advance(5);
    const before = (await t.admin("GET", `/admin/event-types/${et.id}`)).body;
    const revision = (await t.store.eventTypes.byId(et.id))!.revision;
    const r = await t.call("PATCH", `/admin/event-types/${et.id}`, {
      token: ADMIN_KEY,
      body: c.body,
      rawBody: c.raw,
      headers: { "content-type": "application/json" },
    });
    expectError(r, c.status, c.code);
    if (c.field) expect(Object.keys(r.body.errors)).toContain(c.field);
    expect((await t.admin("GET", `/admin/event-types/${et.id}`)).body).toEqual(before);
    expect((await t.store.eventTypes.byId(et.id))!.revision).toBe(revision);
  });

  it("reports every problem of a body at once", async () => {
    const t = await setup();
    const r = await t.admin("POST", "/admin/event-types", {
      title: "Intro call",
      timezone: "Mars/Olympus_Mons",
      webhookUrl: "mailto:me@example.com",
      theme: { colors: { primary: "url(x)" } },
    });
    expectError(r, 422, "validation_failed");
    expect(Object.keys(r.body.errors).sort()).toEqual(["theme.colors.primary", "timezone", "webhookUrl"]);
  });
});
