import { describe, expect, it } from "vitest";
import { reservation, setup } from "./utils.ts";

const weekdays = (ranges: { start: string; end: string }[]) => ({
  monday: ranges,
  tuesday: ranges,
  wednesday: ranges,
  thursday: ranges,
  friday: ranges,
  saturday: [],
  sunday: [],
});

describe("GET /configuration", () => {
  it("answers every field of EventTypeConfiguration and the additional keys", async () => {
    // Monday 2026-11-23, 08:00 in Prague.
    const { call, eventType } = await setup({ now: "2026-11-23T07:00:00Z" });
    const { token } = await eventType({
      title: "Intro call",
      description: "Let's talk",
      durationMinutes: 45,
      slotIntervalMinutes: 15,
      seats: 3,
      holdMinutes: 12,
      horizonDays: 30,
      locations: [{ type: "video-meet" }, { type: "address", value: "Main St 1" }],
      locale: { preset: "de", startDayOfWeek: "sunday", texts: { confirm: "Buchen" } },
      theme: { mode: "dark", borderRadius: "4px", colors: { primary: "#ff0000" } },
      profileImage: "https://example.com/me.png",
      calendarTitle: "Book me",
      hostName: "Jana Nováková",
      compact: true,
      rescheduleNoticeMinutes: 720,
      cancelNoticeMinutes: 2880,
      contact: "https://example.com/contact",
    });
    const r = await call("GET", "/configuration", { token });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data.configuration).toEqual({
      min: 0,
      max: 30,
      closestBookableDay: 0,
      locale: { preset: "de", startDayOfWeek: "sunday", texts: { confirm: "Buchen" } },
      // Pure red reads too dark on the dark palette (3.9:1): its dark variant is a lighter red.
      theme: { mode: "dark", borderRadius: "4px", colors: { primary: "#ff0000", primaryDark: "#ff5252" } },
      profileImage: "https://example.com/me.png",
      externalBooking: false,
      compact: true,
      calendarTitle: "Book me",
      hostName: "Jana Nováková",
      rescheduleNoticeMinutes: 720,
      cancelNoticeMinutes: 2880,
      contact: "https://example.com/contact",
      title: "Intro call",
      description: "Let's talk",
      durationMinutes: 45,
      timezone: "Europe/Prague",
      seats: 3,
      holdMinutes: 12,
      recurrence: null,
      locations: [
        { type: "video-meet", value: null },
        { type: "address", value: "Main St 1" },
      ],
      payment: null,
      // No slug, so no booking page.
      bookingUrl: null,
      // No SMTP_URL in the tests: nobody is emailed, and the configuration says so.
      emailConfirmation: false,
    });
  });

  it("tells the organizer's contact: the configured one, else the organizer email, else the first host's email, else null", async () => {
    const { call, eventType, admin } = await setup();
    // Hosts without an organizer email: the first host that has an address is whom to ask.
    const ana = (await admin("POST", "/admin/hosts", { name: "Ana", email: "ana@example.com", timezone: "Europe/Prague" })).body.data.id;
    const bo = (await admin("POST", "/admin/hosts", { name: "Bo", email: "bo@example.com", timezone: "Europe/Prague" })).body.data.id;
    const hosted = await eventType({ hosts: [{ hostId: bo }, { hostId: ana }] });
    expect((await call("GET", "/configuration", { token: hosted.token })).body.data.configuration.contact).toBe("bo@example.com");
    const hostedMailed = await eventType({ organizerEmail: "desk@example.com", hosts: [{ hostId: ana }] });
    expect((await call("GET", "/configuration", { token: hostedMailed.token })).body.data.configuration.contact).toBe("desk@example.com");
    const none = await eventType({});
    expect((await call("GET", "/configuration", { token: none.token })).body.data.configuration).toMatchObject({
      contact: null,
      rescheduleNoticeMinutes: 1440,
      cancelNoticeMinutes: 1440,
    });
    const mailed = await eventType({ organizerEmail: "host@example.com" });
    expect((await call("GET", "/configuration", { token: mailed.token })).body.data.configuration.contact).toBe("host@example.com");
    const both = await eventType({ organizerEmail: "host@example.com", contact: "  Call +420 123 456 789  " });
    expect((await call("GET", "/configuration", { token: both.token })).body.data.configuration.contact).toBe("Call +420 123 456 789");
    // Blank or multi-line contacts are refused with the field named.
    for (const contact of ["   ", "line one\nline two"]) {
      const r = await admin("POST", "/admin/event-types", { title: "X", contact });
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.errors)).toEqual(["contact"]);
    }
  });

  it("adds the brand colour lightened for the dark palette where it reads too dark there", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType({ theme: { mode: "dark", colors: { primary: "#1e3a8a" } } });
    const colors = (await call("GET", "/configuration", { token })).body.data.configuration.theme.colors;
    expect(colors.primary).toBe("#1e3a8a");
    expect(colors.primaryDark).toMatch(/^#[0-9a-f]{6}$/);
    expect(colors.primaryDark).not.toBe("#1e3a8a");
    const plain = await eventType({});
    expect((await call("GET", "/configuration", { token: plain.token })).body.data.configuration.theme.colors).toEqual({});
  });

  it("describes card payment with the platform's publishable key", async () => {
    const { call, eventType } = await setup({ config: { stripe: { secretKey: null, publishableKey: "pk_test_123", webhookSecret: null, apiBase: null } } });
    const { token } = await eventType({ payment: { amount: 5000, currency: "EUR", providerAccountId: "acct_1" } });
    const r = await call("GET", "/configuration", { token });
    expect(r.body.data.configuration.payment).toEqual({
      amount: 5000,
      currency: "eur",
      provider: "stripe",
      publishableKey: "pk_test_123",
      providerAccountId: "acct_1",
    });
  });

  it("counts min from the minimum notice in the organizer's zone", async () => {
    // 22:30 in Prague on Monday; two hours of notice push the first bookable day to Tuesday.
    const { call, eventType } = await setup({ now: "2026-11-23T21:30:00Z" });
    const { token } = await eventType({ minNoticeMinutes: 120 });
    expect((await call("GET", "/configuration", { token })).body.data.configuration.min).toBe(1);
    const other = await eventType({ minNoticeMinutes: 3 * 24 * 60 });
    expect((await call("GET", "/configuration", { token: other.token })).body.data.configuration.min).toBe(3);
  });

  it("opens the calendar at the first day with a free slot, skipping full and closed days", async () => {
    // Friday 2026-11-27 09:00 UTC; the weekend is closed, Monday is fully booked, Tuesday is free.
    const { call, eventType, store } = await setup({ now: "2026-11-27T17:00:00Z" });
    const { id, token } = await eventType({
      timezone: "UTC",
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      minNoticeMinutes: 0,
      availability: { weekly: weekdays([{ start: "09:00", end: "11:00" }]), overrides: [] },
    });
    expect((await call("GET", "/configuration", { token })).body.data.configuration.closestBookableDay).toBe(3);
    await store.reservations.insertMany([reservation(id, "2026-11-30T09:00:00Z", 60), reservation(id, "2026-11-30T10:00:00Z", 60)]);
    expect((await call("GET", "/configuration", { token })).body.data.configuration.closestBookableDay).toBe(4);
  });

  it("answers closestBookableDay -1 when nothing is free within the horizon", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType({ availability: { weekly: {}, overrides: [] } });
    expect((await call("GET", "/configuration", { token })).body.data.configuration.closestBookableDay).toBe(-1);
  });

  it("finds a free day several weeks out", async () => {
    const { call, eventType } = await setup({ now: "2026-11-23T07:00:00Z" });
    const { token } = await eventType({
      timezone: "UTC",
      availability: { weekly: {}, overrides: [{ date: "2027-01-05", ranges: [{ start: "10:00", end: "11:00" }] }] },
    });
    expect((await call("GET", "/configuration", { token })).body.data.configuration.closestBookableDay).toBe(43);
  });
});

describe("POST /event-types/init", () => {
  it("answers configuration and custom fields in their order, with merge tags", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType({
      customFields: [
        { label: "Team size", name: "team_size", type: "select", options: ["1-10", "11+"], order: 2 },
        { label: "Company", name: "company", type: "text", required: true, order: 1 },
      ],
    });
    const r = await call("POST", "/event-types/init", { token });
    expect(r.status).toBe(200);
    expect(r.body.data.disabled).toBe(false);
    expect(r.body.data.configuration.title).toBe("Intro call");
    expect(r.body.data).not.toHaveProperty("reservation");
    const fields = r.body.data.customFields;
    expect(fields.map((f: { name: string }) => f.name)).toEqual(["company", "team_size"]);
    expect(fields[0]).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      label: "Company",
      name: "company",
      mergeTag: "COMPANY",
      type: "text",
      order: 1,
      required: true,
    });
    expect(fields[1]).toMatchObject({ mergeTag: "TEAM_SIZE", required: false, options: ["1-10", "11+"] });
  });

  it("accepts an empty JSON object, an empty body and null alike", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    for (const init of [{ body: {} }, {}, { rawBody: "null", headers: { "content-type": "application/json" } }]) {
      const r = await call("POST", "/event-types/init", { token, ...init });
      expect(r.status).toBe(200);
    }
  });

  it("answers the reservation to reschedule when reservationUuid is passed", async () => {
    const { call, eventType, store } = await setup();
    const { id, token } = await eventType();
    const booked = reservation(id, "2026-11-25T09:00:00Z", 30, {
      firstname: "Ada",
      lastname: "Lovelace",
      email: "ada@example.com",
      timezone: "America/New_York",
      location: { type: "phone", value: "+1 555 0100" },
    });
    await store.reservations.insertMany([booked]);
    const r = await call("POST", "/event-types/init", { token, body: { reservationUuid: booked.uuid.toUpperCase() } });
    expect(r.status).toBe(200);
    expect(r.body.data.reservation).toEqual({
      uuid: booked.uuid,
      email: "ada@example.com",
      firstname: "Ada",
      lastname: "Lovelace",
      status: "confirmed",
      start: "2026-11-25T04:00:00-05:00",
      end: "2026-11-25T04:30:00-05:00",
      location: { type: "phone", value: "+1 555 0100" },
    });
  });

  it("shows a hold whose time has passed as expired", async () => {
    const { call, eventType, store, clock } = await setup();
    const { id, token } = await eventType();
    const held = reservation(id, "2026-11-25T09:00:00Z", 30, { status: "held", heldUntilMs: clock.now() - 1000 });
    await store.reservations.insertMany([held]);
    const r = await call("POST", "/event-types/init", { token, body: { reservationUuid: held.uuid } });
    expect(r.body.data.reservation.status).toBe("expired");
  });

  it("answers 404 not_found for a reservation of another event type", async () => {
    const { call, eventType, store } = await setup();
    const mine = await eventType({ title: "Mine" });
    const theirs = await eventType({ title: "Theirs" });
    const foreign = reservation(theirs.id, "2026-11-25T09:00:00Z", 30);
    await store.reservations.insertMany([foreign]);
    const r = await call("POST", "/event-types/init", { token: mine.token, body: { reservationUuid: foreign.uuid } });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
    const own = await call("POST", "/event-types/init", { token: theirs.token, body: { reservationUuid: foreign.uuid } });
    expect(own.status).toBe(200);
  });

  it("answers a disabled event type with disabled true and nothing bookable", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType({ disabled: true });
    const r = await call("POST", "/event-types/init", { token });
    expect(r.status).toBe(200);
    expect(r.body.data.disabled).toBe(true);
    expect(r.body.data.configuration.closestBookableDay).toBe(-1);
  });

  it("refuses a reservationUuid that is not a uuid, also one that looks like SQL", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    for (const reservationUuid of ["' OR 1=1 --", "🙂", ""]) {
      const r = await call("POST", "/event-types/init", { token, body: { reservationUuid } });
      expect(r.status).toBe(422);
      expect(r.body.errors).toHaveProperty("reservationUuid");
    }
  });
});

describe("GET /timezones", () => {
  it("lists IANA zones without a token, sorted, UTC included", async () => {
    const { call } = await setup();
    const r = await call("GET", "/timezones");
    expect(r.status).toBe(200);
    const zones: string[] = r.body.data;
    expect(zones).toContain("Europe/Prague");
    expect(zones).toContain("America/New_York");
    expect(zones).toContain("Australia/Sydney");
    expect(zones).toContain("UTC");
    expect(zones).toEqual([...zones].sort());
    expect(zones.length).toBeGreaterThan(300);
    expect(new Set(zones).size).toBe(zones.length);
  });

  it("lists only zones that the slot query accepts", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const zones: string[] = (await call("GET", "/timezones")).body.data;
    for (const zone of [zones[0]!, zones[Math.floor(zones.length / 2)]!, zones[zones.length - 1]!]) {
      const r = await call("GET", `/time-slots?from=2026-11-24&until=2026-11-24&timezone=${encodeURIComponent(zone)}`, { token });
      expect(r.status).toBe(200);
    }
  });
});
