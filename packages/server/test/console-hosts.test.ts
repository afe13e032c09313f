import { afterEach, describe, expect, it } from "vitest";
import { createHost, expectError, setup, waitFor, type Answer } from "./utils.ts";
import { startSmtp, type Smtp } from "./smtp.ts";
import { logLine } from "../src/lib/log.ts";

// A host is emailed a one-time sign-in link (over a real SMTP server on loopback) and signs in to
// the console as that host: the admin API then answers only that host's own data.

const ORIGIN = "http://localhost";
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };
const TUESDAY_8 = { start: "2026-11-24T08:00:00Z", end: "2026-11-24T08:30:00Z" };

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
});

type Env = Awaited<ReturnType<typeof setup>>;

async function world() {
  const smtp: Smtp = await startSmtp();
  stops.push(() => smtp.stop());
  const env = await setup({ config: { ...NO_RATE_LIMIT, mail: { smtpUrl: smtp.url, from: "Bookings <bookings@example.test>" } } });
  const host = (name: string) => createHost(env, name);
  const ana = await host("Ana");
  const bea = await host("Bea");
  const eventType = async (title: string, hostId: number) => {
    const r = await env.admin("POST", "/admin/event-types", { title, timezone: "Europe/Prague", hosts: [{ hostId }] });
    expect(r.status, r.text).toBe(200);
    return { id: r.body.data.id as number, token: r.body.data.token as string };
  };
  const anaCall = await eventType("Ana's call", ana);
  const beaCall = await eventType("Bea's call", bea);
  const book = async (et: { token: string }, email: string) => {
    const r = await env.call("POST", "/reservations", { token: et.token, body: { ...TUESDAY_8, email, firstname: "Ada", lastname: "Lovelace" } });
    expect(r.status, r.text).toBe(200);
    return r.body.data.uuid as string;
  };
  const anaBooking = await book(anaCall, "visitor-of-ana@example.com");
  const beaBooking = await book(beaCall, "visitor-of-bea@example.com");
  return { smtp, env, ana, bea, anaCall, beaCall, anaBooking, beaBooking };
}

/** Asks for the host's link, waits for its email and returns the link's secret. */
async function emailedLink(env: Env, smtp: Smtp, hostId: number, email: string): Promise<string> {
  const before = smtp.received.length;
  const r = await env.admin("POST", `/admin/hosts/${hostId}/sign-in-link`);
  expect(r.status, r.text).toBe(200);
  expect(r.body.data).toMatchObject({ hostId, email, sent: true });
  await waitFor(() => smtp.received.slice(before).some((m) => m.to.includes(email)), 5_000, "the sign-in email");
  const mail = smtp.received.slice(before).find((m) => m.to.includes(email))!;
  expect(mail.mail.subject).toMatch(/sign-in link/i);
  const match = /\/console#link=(bcsl_[A-Za-z0-9_-]+)/.exec(mail.mail.text ?? "");
  expect(match, mail.mail.text).not.toBeNull();
  expect(mail.mail.html).toContain(`/console#link=${match![1]}`);
  return match![1]!;
}

async function signIn(env: Env, link: string): Promise<Answer> {
  return env.call("POST", "/console/session", { body: { link }, headers: { origin: ORIGIN } });
}

describe("a host's console session", () => {
  it("is opened once by the emailed link, and sees and manages only its own host's bookings, schedules and calendars", async () => {
    const { smtp, env, ana, bea, anaCall, beaCall, anaBooking, beaBooking } = await world();
    const link = await emailedLink(env, smtp, ana, "ana@example.com");
    const opened = await signIn(env, link);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.data).toMatchObject({ role: "host", hostId: ana, method: "link" });
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0]!;
    const as = (method: string, path: string, body?: unknown) =>
      env.call(method, path, { headers: { cookie, origin: ORIGIN }, ...(body === undefined ? {} : { body }) });

    // The link works once.
    expectError(await signIn(env, link), 401, "unauthenticated");

    // Its own bookings: the list across event types answers only Ana's, whatever it asks for.
    const mine = await as("GET", "/admin/reservations");
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data.items.map((i: { uuid: string }) => i.uuid)).toEqual([anaBooking]);
    expect((await as("GET", `/admin/reservations?eventTypeId=${beaCall.id}`)).body.data.items).toEqual([]);
    expectError(await as("GET", `/admin/reservations?hostId=${bea}`), 403, "forbidden");
    expect((await as("GET", `/admin/hosts/${ana}/reservations?from=2026-11-24&until=2026-11-24`)).status).toBe(200);
    expect((await as("GET", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}`)).status).toBe(200);
    // Another host's bookings are not there for it.
    expectError(await as("GET", `/admin/hosts/${bea}/reservations?from=2026-11-24&until=2026-11-24`), 403, "forbidden");
    expectError(await as("GET", `/admin/event-types/${beaCall.id}/reservations/${beaBooking}`), 404, "not_found");
    expectError(await as("POST", `/admin/event-types/${beaCall.id}/reservations/${beaBooking}/cancel`, {}), 404, "not_found");

    // Only its own host in the list of hosts; no other host, no event types to change, no sessions, no links.
    expect((await as("GET", "/admin/hosts")).body.data.map((h: { id: number }) => h.id)).toEqual([ana]);
    expectError(await as("GET", `/admin/hosts/${bea}`), 403, "forbidden");
    expectError(await as("GET", "/admin/event-types"), 403, "forbidden");
    expectError(await as("PATCH", `/admin/event-types/${anaCall.id}`, { title: "Renamed" }), 403, "forbidden");
    expectError(await as("POST", "/admin/event-types", { title: "Mine now" }), 403, "forbidden");
    expectError(await as("GET", "/admin/sessions"), 403, "forbidden");
    expectError(await as("POST", `/admin/hosts/${ana}/sign-in-link`), 403, "forbidden");
    expect((await env.admin("GET", `/admin/event-types/${anaCall.id}`)).body.data.title).toBe("Ana's call");

    // Its own schedules: made, changed and deleted; another host's schedule is unknown to it.
    const created = await as("POST", `/admin/hosts/${ana}/schedules`, {
      name: "Mornings",
      availability: { weekly: { tuesday: [{ start: "08:00", end: "10:00" }] } },
    });
    expect(created.status, created.text).toBe(200);
    const scheduleId = created.body.data.id as number;
    expect((await as("PATCH", `/admin/schedules/${scheduleId}`, { name: "Early mornings" })).body.data.name).toBe("Early mornings");
    const hers = await env.admin("POST", `/admin/hosts/${bea}/schedules`, { name: "Bea's", availability: { weekly: {} } });
    expectError(await as("GET", `/admin/schedules/${hers.body.data.id}`), 404, "not_found");
    expectError(await as("PATCH", `/admin/schedules/${hers.body.data.id}`, { name: "Taken" }), 404, "not_found");
    expect((await as("GET", `/admin/hosts/${ana}/schedules`)).body.data.map((s: { id: number }) => s.id)).toEqual([scheduleId]);
    expect((await as("DELETE", `/admin/schedules/${scheduleId}`)).status).toBe(200);

    // It cancels its own booking.
    const cancelled = await as("POST", `/admin/event-types/${anaCall.id}/reservations/${anaBooking}/cancel`, { reason: "Ill" });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect((await env.admin("GET", `/admin/event-types/${beaCall.id}/reservations/${beaBooking}`)).body.data.status).toBe("confirmed");
  });

  it("lists the organizer's bookings of one host with ?hostId=", async () => {
    const { env, ana, bea, anaBooking, beaBooking } = await world();
    const uuids = async (q: string) => (await env.admin("GET", `/admin/reservations${q}`)).body.data.items.map((i: { uuid: string }) => i.uuid).sort();
    expect(await uuids(`?hostId=${ana}`)).toEqual([anaBooking]);
    expect(await uuids(`?hostId=${bea}`)).toEqual([beaBooking]);
    expect(await uuids("")).toEqual([anaBooking, beaBooking].sort());
    expectError(await env.admin("GET", "/admin/reservations?hostId=abc"), 422, "validation_failed");
  });

  it("expires: an emailed link unused for a day no longer signs in; a host without email gets none; an unknown host is 404", async () => {
    const { smtp, env, bea } = await world();
    const link = await emailedLink(env, smtp, bea, "bea@example.com");
    env.clock.advance(24 * 60 + 1);
    expectError(await signIn(env, link), 401, "unauthenticated");
    expectError(await env.admin("POST", "/admin/hosts/9999/sign-in-link"), 404, "not_found");
    expectError(await env.call("POST", `/admin/hosts/${bea}/sign-in-link`), 401, "unauthenticated");
  });
});

describe("a host's sign-in link without SMTP_URL", () => {
  it("is written whole to the development log, and the link taken from the log line signs the host in", async () => {
    const env = await setup({ config: NO_RATE_LIMIT });
    const ana = await createHost(env, "Ana");
    const r = await env.admin("POST", `/admin/hosts/${ana}/sign-in-link`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ hostId: ana, sent: false });
    // Read as the operator reads it: the lines the server's log writes, not the entries handed to it.
    const lines = env.logs.map((entry) => logLine(entry, false));
    const match = lines.map((line) => /\/console#link=(bcsl_[A-Za-z0-9_-]+)/.exec(line)).find((m) => m !== null);
    expect(match, lines.join("\n")).toBeDefined();
    const opened = await signIn(env, match![1]!);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.data).toMatchObject({ role: "host", hostId: ana, method: "link" });
  });

  it("is never printed whole by a production log, which redacts it as any other URL", async () => {
    const line = logLine({ level: "info", message: "a link", developmentLink: "http://localhost/console#link=bcsl_secret" }, true);
    expect(line).not.toContain("bcsl_secret");
    expect(JSON.parse(line).link).toBe("http://localhost/console");
  });
});
