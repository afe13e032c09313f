import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqliteStore } from "../src/store/sqlite/index.ts";
import { SERVER_DIR, startServerProcess, type ServerProcess } from "./server-process.ts";
import { startRadicale } from "./radicale.ts";
import { reservation } from "./utils.ts";

// The real server and the real CLI, each its own process, talking HTTP on a free local port.
const REPO_ROOT = resolve(SERVER_DIR, "../..");
const KEY = "cli-test-admin-key-0123456789";

let server: ServerProcess;
let dir: string;
let base: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runProcess(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...options.env } });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** Runs `bun src/cli/admin.ts ...args` against the test server. */
function cli(...args: string[]): Promise<Run> {
  return runProcess(process.execPath, ["src/cli/admin.ts", ...args], { cwd: SERVER_DIR, env: { BOOKING_URL: base, BOOKING_ADMIN_KEY: KEY } });
}

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** A second connection to the server's own SQLite file (the server has this process's secret key). */
function serverStore() {
  return openSqliteStore(join(dir, "booking.sqlite"));
}

async function publicCall(path: string, token: string): Promise<number> {
  return (await fetch(base + path, { headers: { authorization: `Bearer ${token}` } })).status;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "booking-cli-"));
  server = await startServerProcess({ BOOKING_DB: join(dir, "booking.sqlite"), BOOKING_ADMIN_KEY: KEY, RATE_LIMIT_PER_MINUTE: "10000", STRIPE_STANDIN: "0" });
  base = server.base;
}, 20_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the admin CLI against a running server", () => {
  let id = "";
  let apiToken = "";

  it("creates an event type and prints its tokens once, clearly", async () => {
    const r = await cli(
      "create",
      "--title",
      "Team sync",
      "--timezone",
      "Europe/Berlin",
      "--duration",
      "45",
      "--price",
      "50.00",
      "--currency",
      "eur",
      "--account",
      "acct_cli",
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const created = /Created event type #(\d+) "Team sync"/.exec(r.stdout);
    expect(created).not.toBeNull();
    id = created![1]!;
    apiToken = /API token:\s+(bk_\S+)/.exec(r.stdout)![1]!;
    expect(r.stdout).toMatch(/Override token:\s+bko_\S+/);
    expect(r.stdout).toMatch(/Webhook signing secret:\s+whsec_\S+/);
    expect(r.stdout).toMatch(/shown only once/);
    expect(await publicCall("/configuration", apiToken)).toBe(200);
  });

  it("prints the HTML that embeds the calendar with the public link token, never the API token, on create, show and a new API token", async () => {
    const created = await cli("create", "--title", "Embedded");
    expect(created.code).toBe(0);
    const newId = /Created event type #(\d+)/.exec(created.stdout)![1]!;
    const secret = /API token:\s+(bk_\S+)/.exec(created.stdout)![1]!;
    const snippetOf = (stdout: string) => stdout.slice(stdout.indexOf("Embed on a site"));
    const embedded = (stdout: string) => {
      const snippet = snippetOf(stdout);
      const element = /<booking-calendar token="(bcl_[\w-]+)" api-base="([^"]+)"><\/booking-calendar>/.exec(snippet);
      expect(element, stdout).not.toBeNull();
      expect(snippet).toContain(`<script src="${base}/embed/booking-calendar.js" defer></script>`);
      expect(element![2]).toBe(base);
      expect(snippet).not.toContain("bk_");
      expect(snippet).not.toContain("bko_");
      return element![1]!;
    };
    const linkToken = embedded(created.stdout);
    expect(snippetOf(created.stdout)).not.toContain(secret);
    // The token in the snippet is the one the server keeps for pages, and it works.
    expect(((await (await fetch(`${base}/admin/event-types/${newId}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as any).data.linkToken).toBe(
      linkToken,
    );
    expect(await publicCall("/configuration", linkToken)).toBe(200);
    const shown = await cli("show", newId);
    expect(embedded(shown.stdout)).toBe(linkToken);
    // A new API token replaces the link token too: the snippet printed with it carries the new one.
    const renewed = await cli("token", newId);
    const fresh = embedded(renewed.stdout);
    expect(fresh).not.toBe(linkToken);
    expect(snippetOf(renewed.stdout)).not.toContain(/API token:\s+(bk_\S+)/.exec(renewed.stdout)![1]!);
    expect(await publicCall("/configuration", fresh)).toBe(200);
    expect((await cli("delete", newId)).code).toBe(0);
  });

  it("prints the created event type as JSON with --json", async () => {
    const r = await cli("create", "--title", "Scripted", "--json");
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data).toMatchObject({
      title: "Scripted",
      token: expect.stringMatching(/^bk_/),
      overrideToken: expect.stringMatching(/^bko_/),
      webhookSecret: expect.stringMatching(/^whsec_/),
    });
    expect((await cli("delete", String(data.id))).code).toBe(0);
  });

  it("creates from a settings file, flags winning over its keys", async () => {
    const file = join(dir, "settings.json");
    writeFileSync(file, JSON.stringify({ title: "From file", seats: 4, locations: [{ type: "phone", value: "+420 123 456 789" }] }));
    const r = await cli("create", "--file", file, "--seats", "6", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ title: "From file", seats: 6, locations: [{ type: "phone", value: "+420 123 456 789" }] });
    expect((await cli("delete", String(JSON.parse(r.stdout).id))).code).toBe(0);
  });

  it("creates conditional questions from a settings file, shows their conditions, and passes the API's refusal on", async () => {
    const file = join(dir, "conditional.json");
    const customFields = [
      { label: "Plan", name: "plan", type: "select", options: ["Personal", "Business", "Team"] },
      { label: "Company size", name: "companySize", type: "text", showIf: { field: "plan", equals: ["Business", "Team"] } },
      { label: "Has order", name: "hasOrder", type: "checkbox" },
      { label: "Order number", name: "orderNo", type: "text", showIf: { field: "hasOrder", checked: true } },
    ];
    writeFileSync(file, JSON.stringify({ title: "Conditional", customFields }));
    const r = await cli("create", "--file", file, "--json");
    expect(r.code, r.stderr).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created.customFields.map((f: { showIf?: unknown }) => f.showIf ?? null)).toEqual([
      null,
      { field: "plan", equals: ["Business", "Team"] },
      null,
      { field: "hasOrder", checked: true },
    ]);
    const shown = await cli("show", String(created.id));
    expect(shown.stdout).toContain("companySize (text, when plan is Business or Team)");
    expect(shown.stdout).toContain("orderNo (text, when hasOrder is checked)");
    // A condition on a later field is the server's validation error, exit 1.
    writeFileSync(file, JSON.stringify({ title: "Bad", customFields: [{ ...customFields[1], showIf: { field: "plan", notEmpty: true } }, customFields[0]] }));
    const bad = await cli("create", "--file", file);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("customFields.0.showIf.field");
    expect((await cli("delete", String(created.id))).code).toBe(0);
  });

  it("creates with the organizer's translations from a settings file and shows their languages", async () => {
    const file = join(dir, "translated.json");
    const translations = { de: { title: "Kennenlernen", description: "Ein erstes Gespräch." }, "pt-BR": { title: "Conversa inicial" } };
    writeFileSync(file, JSON.stringify({ title: "Intro", locale: { preset: "de" }, translations }));
    const r = await cli("create", "--file", file, "--json");
    expect(r.code, r.stderr).toBe(0);
    const created = JSON.parse(r.stdout);
    expect(created.translations).toEqual(translations);
    const shown = await cli("show", String(created.id));
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^Language:\s+de; organizer texts also in de, pt-BR$/m);
    // Without translations the line says only the language.
    const plain = await cli("create", "--title", "Plain", "--json");
    const plainId = String(JSON.parse(plain.stdout).id);
    expect((await cli("show", plainId)).stdout).toMatch(/^Language:\s+the visitor's browser$/m);
    // A translation the API refuses (an unknown key) is the server's validation error, exit 1.
    writeFileSync(file, JSON.stringify({ title: "Bad", translations: { de: { heading: "X" } } }));
    const bad = await cli("create", "--file", file);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("translations");
    for (const made of [String(created.id), plainId]) expect((await cli("delete", made)).code).toBe(0);
  });

  it("lists the event types as a table", async () => {
    const r = await cli("list");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ID\s+TITLE\s+TIMEZONE/);
    expect(r.stdout).toMatch(new RegExp(`^${id}\\s+Team sync\\s+Europe/Berlin\\s+45 min\\s+50\\.00 EUR\\s+enabled$`, "m"));
    expect(r.stdout).not.toContain("bk_");
  });

  it("shows one event type's settings", async () => {
    const r = await cli("show", id);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`#${id} Team sync [enabled]`);
    expect(r.stdout).toMatch(/Timezone:\s+Europe\/Berlin/);
    expect(r.stdout).toMatch(/Payment:\s+50\.00 EUR to acct_cli/);
    expect(r.stdout).toMatch(/monday\s+09:00-17:00/);
  });

  it("sets the calendar's language with --language and gives it back to the visitor's browser with browser (the default of new event types)", async () => {
    expect((await cli("show", id)).stdout).toMatch(/Language:\s+the visitor's browser/);
    const set = await cli("update", id, "--language", "de-AT");
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/Language:\s+de-AT/);
    const view = (await (await fetch(`${base}/admin/event-types/${id}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as any;
    expect(view.data.locale).toMatchObject({ preset: "de-AT", startDayOfWeek: "monday" });
    const back = await cli("update", id, "--language", "browser");
    expect(back.code).toBe(0);
    expect(back.stdout).toMatch(/Language:\s+the visitor's browser/);
    const bad = await cli("update", id, "--language", "de_AT");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--language takes a language tag/);
  });

  it("gives the event type a booking page with --slug, shows its address and link token, and removes it with none", async () => {
    const set = await cli("update", id, "--slug", "team-sync");
    expect(set.code).toBe(0);
    const linkToken = /Booking page:\s+\S+\/book\/team-sync \(link token (bcl_\S+)\)/.exec(set.stdout)?.[1];
    expect(linkToken).toBeDefined();
    expect((await fetch(`${base}/book/team-sync`)).status).toBe(200);
    expect(await publicCall("/configuration", linkToken!)).toBe(200);
    const taken = await cli("create", "--title", "Clash", "--slug", "team-sync");
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/validation_failed[\s\S]*slug: "team-sync" is the slug of another event type/);
    const removed = await cli("update", id, "--slug", "none");
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(/Booking page:\s+none/);
    expect((await fetch(`${base}/book/team-sync`)).status).toBe(404);
  });

  it("shows the private booking feed's address, and gives it a new one with feed-token", async () => {
    const shown = await cli("show", id);
    expect(shown.code).toBe(0);
    const feedUrl = /Booking feed:\s+(\S+\/feeds\/bcf_\S+\.ics) \(private/.exec(shown.stdout)?.[1];
    expect(feedUrl).toBeDefined();
    const feed = await fetch(feedUrl!);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const rotated = await cli("feed-token", id);
    expect(rotated.code).toBe(0);
    const fresh = /Booking feed:\s+(\S+\.ics)/.exec(rotated.stdout)?.[1];
    expect(fresh).toMatch(/\/feeds\/bcf_\S+\.ics$/);
    expect(fresh).not.toBe(feedUrl);
    expect((await fetch(feedUrl!)).status).toBe(404);
    expect((await fetch(fresh!)).status).toBe(200);
    expect((await cli("feed-token", id, "--json")).stdout).toMatch(/"feedToken": "bcf_/);
  });

  it("changes a price, keeping the currency and account", async () => {
    const r = await cli("update", id, "--price", "75.5", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).payment).toEqual({ amount: 7550, currency: "eur", providerAccountId: "acct_cli" });
  });

  it("sets one weekday's hours, keeping the other days", async () => {
    const r = await cli("hours", id, "--day", "monday", "--ranges", "09:00-12:00,13:00-17:00");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/monday\s+09:00-12:00, 13:00-17:00/);
    const shown = JSON.parse((await cli("show", id, "--json")).stdout);
    expect(shown.availability.weekly.monday).toEqual([
      { start: "09:00", end: "12:00" },
      { start: "13:00", end: "17:00" },
    ]);
    expect(shown.availability.weekly.tuesday).toEqual([{ start: "09:00", end: "17:00" }]);

    expect((await cli("hours", id, "--day", "friday", "--ranges", "none")).code).toBe(0);
    const closed = JSON.parse((await cli("show", id, "--json")).stdout);
    expect(closed.availability.weekly.friday).toEqual([]);
    expect(closed.availability.weekly.monday).toHaveLength(2);
  });

  it("closes a date and opens another with its own hours, keeping the weekly hours", async () => {
    expect((await cli("close", id, "--date", "2026-12-24")).stdout).toContain("2026-12-24 closed");
    expect((await cli("open-day", id, "--date", "2026-12-27", "--ranges", "10:00-12:00")).code).toBe(0);
    const shown = JSON.parse((await cli("show", id, "--json")).stdout);
    expect(shown.availability.overrides).toEqual([
      { date: "2026-12-24", ranges: [] },
      { date: "2026-12-27", ranges: [{ start: "10:00", end: "12:00" }] },
    ]);
    expect(shown.availability.weekly.monday).toHaveLength(2);
    expect((await cli("show", id)).stdout).toMatch(/Date overrides:\n\s+2026-12-24 closed\n\s+2026-12-27 10:00-12:00/);
  });

  it("issues a new API token: the old one stops working and the new one works", async () => {
    const r = await cli("token", id);
    expect(r.code).toBe(0);
    const fresh = /API token:\s+(bk_\S+)/.exec(r.stdout)![1]!;
    expect(r.stdout).toMatch(/shown only once/);
    expect(await publicCall("/configuration", apiToken)).toBe(401);
    expect(await publicCall("/configuration", fresh)).toBe(200);
    apiToken = fresh;
  });

  it("issues a new override token with --override, leaving the API token working", async () => {
    const r = await cli("token", id, "--override");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Override token:\s+bko_\S+/);
    expect(r.stdout).not.toMatch(/API token:/);
    expect(await publicCall("/configuration", apiToken)).toBe(200);
  });

  it("disables the event type so the public API answers 403, and enables it again", async () => {
    const off = await cli("disable", id);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("is disabled");
    expect(await publicCall("/configuration", apiToken)).toBe(403);
    expect((await cli("list")).stdout).toMatch(new RegExp(`^${id}\\s+Team sync.*disabled$`, "m"));
    expect((await cli("enable", id)).stdout).toContain("is enabled");
    expect(await publicCall("/configuration", apiToken)).toBe(200);
  });

  it("lists reservations in a range, filtered by status", async () => {
    // A second connection to the server's own SQLite file, as bookings would arrive through the public API.
    const store = serverStore();
    await store.reservations.insertMany([
      reservation(Number(id), "2026-12-01T08:00:00Z", 45, { email: "kept@example.com" }),
      reservation(Number(id), "2026-12-02T08:00:00Z", 45, { email: "gone@example.com", status: "cancelled" }),
      reservation(Number(id), "2026-12-10T08:00:00Z", 45, { email: "later@example.com" }),
    ]);
    await store.close();

    const all = await cli("reservations", id, "--from", "2026-12-01", "--until", "2026-12-02");
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/^START\s+END\s+STATUS/);
    expect(all.stdout).toMatch(/2026-12-01T09:00:00\+01:00\s+2026-12-01T09:45:00\+01:00\s+confirmed\s+Ada Lovelace\s+kept@example\.com/);
    expect(all.stdout).toContain("gone@example.com");
    expect(all.stdout).not.toContain("later@example.com");

    const cancelled = await cli("reservations", id, "--from", "2026-12-01", "--until", "2026-12-02", "--status", "cancelled");
    expect(cancelled.stdout).toContain("gone@example.com");
    expect(cancelled.stdout).not.toContain("kept@example.com");

    const none = await cli("reservations", id, "--from", "2027-01-01", "--until", "2027-01-31");
    expect(none.stdout.trim()).toBe("No reservations in this range.");
  });

  it("sets the reminder offsets with --reminders, shows them, turns them off with none and refuses anything else", async () => {
    expect((await cli("show", id)).stdout).toMatch(/Reminders:\s+1 day, 1 h before the start\n/);
    const set = await cli("update", id, "--reminders", "30,2880", "--json");
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout).reminderMinutes).toEqual([2880, 30]);
    expect((await cli("show", id)).stdout).toMatch(/Reminders:\s+2 days, 30 min before the start\n/);
    expect((await cli("update", id, "--reminders", "none")).stdout).toMatch(/Reminders:\s+none\n/);
    const bad = await cli("update", id, "--reminders", "1h");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--reminders takes minutes before the start");
    // The server's own checks answer through the CLI: five minutes at the least.
    const short = await cli("update", id, "--reminders", "4");
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain("reminderMinutes");
    await cli("update", id, "--reminders", "1440,60");
  });

  it("shows and sets an event type's booking limits, keeping those not named and removing one with none", async () => {
    expect((await cli("limits", id)).stdout).toMatch(/Limits:\s+none/);
    const set = await cli("limits", id, "--per-day", "4", "--minutes-per-week", "600");
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(/Bookings per day\s+4\n/);
    expect(set.stdout).toMatch(/Minutes per week\s+600/);
    const changed = JSON.parse((await cli("limits", id, "--per-day", "none", "--per-month", "20", "--json")).stdout);
    expect(changed).toEqual({ bookingsPerDay: null, bookingsPerWeek: null, bookingsPerMonth: 20, minutesPerDay: null, minutesPerWeek: 600 });
    const bad = await cli("limits", id, "--per-week", "0");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--per-week is a whole number of at least 1");
    // The server's own bounds answer through the CLI: a day has 1 440 minutes.
    const long = await cli("limits", id, "--minutes-per-day", "2000");
    expect(long.code).toBe(1);
    expect(long.stderr).toContain("limits.minutesPerDay");
    expect((await cli("limits", id, "--per-month", "none", "--minutes-per-week", "none")).stdout).toMatch(/Limits:\s+none/);
  });

  it("sets the webhook URL, saying how receivers verify without showing the signing secret again, and removes it with none", async () => {
    const r = await cli("webhook", id, "https://hooks.example.com/booking");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Event type #${id} sends its webhook events to https://hooks.example.com/booking.`);
    expect(r.stdout).toContain("standardwebhooks");
    expect(r.stdout).toContain(`npm run admin -- webhook-secret ${id}`);
    expect(r.stdout).not.toContain("whsec_");
    const shown = await cli("show", id);
    expect(shown.stdout).toMatch(/Webhook:\s+https:\/\/hooks\.example\.com\/booking\n\s+signed with the secret shown at creation/);
    expect(shown.stdout).not.toContain("whsec_");
    expect(shown.stdout).not.toContain("410 Gone");

    const off = await cli("webhook", id, "none", "--json");
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ webhookUrl: null, webhookDisabledAt: null });
    expect(JSON.parse(off.stdout)).not.toHaveProperty("webhookSecret");
    expect((await cli("webhook", id, "none")).stdout).toContain("no webhook URL now");
    expect((await cli("show", id)).stdout).toMatch(/Webhook:\s+none\n/);

    const bad = await cli("webhook", id, "ftp://example.com/hook");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("webhookUrl: Expected an http(s) URL.");
    expect((await cli("webhook", id)).code).toBe(2);
  });

  it("shows a webhook the receiver stopped with 410, and setting the URL again resumes it", async () => {
    const store = serverStore();
    await store.eventTypes.update(Number(id), { webhookDisabledAtMs: Date.parse("2026-01-02T03:04:05Z") }, new Date().toISOString());
    await store.close();
    expect((await cli("show", id)).stdout).toMatch(/disabled since 2026-01-02T03:04:05(\.000)?Z: the receiver answered 410 Gone/);

    const r = await cli("webhook", id, "https://hooks.example.com/booking");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("answered 410 Gone; events are sent again.");
    expect(JSON.parse((await cli("show", id, "--json")).stdout).webhookDisabledAt).toBeNull();
  });

  it("rotates the webhook secret, printing the new one this once", async () => {
    const r = await cli("webhook-secret", id);
    expect(r.code).toBe(0);
    const fresh = /^\s+(whsec_\S+)$/m.exec(r.stdout)![1]!;
    expect(r.stdout).toContain("Update the receiver");
    expect(JSON.parse((await cli("show", id, "--json")).stdout)).not.toHaveProperty("webhookSecret");
    const store = serverStore();
    expect((await store.eventTypes.byId(Number(id)))!.webhookSecret).toBe(fresh);
    await store.close();
    const json = JSON.parse((await cli("webhook-secret", id, "--json")).stdout);
    expect(json).toEqual({ id: Number(id), webhookSecret: expect.stringMatching(/^whsec_/) });
    expect(json.webhookSecret).not.toBe(fresh);
  });

  it("lists webhook deliveries of a booking made through the public API", async () => {
    const created = JSON.parse((await cli("create", "--title", "Hooked", "--json")).stdout);
    const hookId = String(created.id);
    expect((await cli("deliveries", hookId)).stdout).toContain(`No webhook events for event type #${hookId} yet`);
    // Nothing listens on this port: the server's worker gets no answer, so the event stays pending or fails.
    expect((await cli("webhook", hookId, `http://127.0.0.1:${await freePort()}/hook`)).code).toBe(0);

    const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const until = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
    const auth = { authorization: `Bearer ${created.token}` };
    const slots = (await (await fetch(`${base}/time-slots?from=${from}&until=${until}`, { headers: auth })).json()) as {
      data: { start: string; end: string }[];
    };
    const booked = await fetch(`${base}/reservations`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ start: slots.data[0]!.start, end: slots.data[0]!.end, email: "hooked@example.com" }),
    });
    expect(booked.status).toBe(200);
    const uuid = ((await booked.json()) as { data: { uuid: string } }).data.uuid;

    const r = await cli("deliveries", hookId);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^TIME\s+KIND\s+RESERVATION\s+STATUS\s+ATTEMPTS\s+LAST$/m);
    expect(r.stdout).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\S+\\s+reservation\\.created\\s+${uuid}\\s+(pending|failed)\\b`, "m"));

    const json = JSON.parse((await cli("deliveries", hookId, "--limit", "1", "--json")).stdout);
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ kind: "reservation.created", reservationUuid: uuid, status: expect.stringMatching(/^(pending|failed)$/) });
    expect((await cli("deliveries", hookId, "--limit", "1")).stdout).toContain("The 1 most recent; --limit shows more.");
    expect((await cli("deliveries", hookId, "--limit", "0")).code).toBe(2);
    expect((await cli("delete", hookId)).code).toBe(0);
  });

  it("prints the server's validation errors to stderr and exits 1", async () => {
    const r = await cli("hours", id, "--day", "monday", "--ranges", "17:00-09:00");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("Error 422 validation_failed: The request has invalid fields.");
    expect(r.stderr).toContain("availability.weekly.monday: Range 17:00-09:00 must end after it starts.");
    expect(JSON.parse((await cli("show", id, "--json")).stdout).availability.weekly.monday).toHaveLength(2);
  });

  it("exits 1 with the server's error for a wrong admin key", async () => {
    const r = await runProcess(process.execPath, ["src/cli/admin.ts", "list"], { cwd: SERVER_DIR, env: { BOOKING_URL: base, BOOKING_ADMIN_KEY: "wrong-key" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error 401 unauthenticated");
    expect(r.stderr).toContain("BOOKING_ADMIN_KEY");
  });

  it("exits 1 with a clear message when the server cannot be reached", async () => {
    const closed = await freePort();
    const r = await cli("list", "--url", `http://127.0.0.1:${closed}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Cannot reach the booking server at http://127.0.0.1:${closed}`);
  });

  it("exits 2 on a usage error without calling the server", async () => {
    const unknown = await cli("frobnicate");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
    expect((await cli("hours", id, "--day", "monday", "--ranges", "9-5")).code).toBe(2);
    expect((await cli("show")).code).toBe(2);
    expect((await cli("list", "--bogus")).code).toBe(2);
    expect((await cli("create", "--duration", "45")).code).toBe(2);
    expect((await cli("update", id, "--seats", "many")).code).toBe(2);
    const noKey = await runProcess(process.execPath, ["src/cli/admin.ts", "list"], { cwd: SERVER_DIR, env: { BOOKING_URL: base } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("BOOKING_ADMIN_KEY");
  });

  it("adds a calendar feed (synced at once), shows its status, reports a failing sync with exit 1, and removes it", async () => {
    let failing = false;
    // The server runs on the real clock: a meeting the day after tomorrow lies within the booking horizon.
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
    const feed = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//tests//EN",
      "BEGIN:VEVENT",
      "UID:a",
      "DTSTAMP:20261101T000000Z",
      `DTSTART:${day}T091000Z`,
      `DTEND:${day}T095000Z`,
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    const feedServer = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (failing ? new Response("no", { status: 503 }) : new Response(feed)) });
    try {
      const url = `http://127.0.0.1:${feedServer.port}/me.ics`;
      const added = await cli("calendar-add", id, url, "--kind", "ical", "--token", "cli-feed-token", "--freshness", "30");
      expect(added.stderr).toBe("");
      expect(added.code).toBe(0);
      const sourceId = /Added calendar source #(\d+) to event type #\d+/.exec(added.stdout)![1]!;
      expect(added.stdout).toContain("Synced: 1 calendar object downloaded; busy times changed.");
      expect(added.stdout).not.toContain("cli-feed-token");

      const listed = await cli("calendars", id);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(`#${sourceId} iCalendar feed ${url}`);
      expect(listed.stdout).toContain("credentials: set");
      expect(listed.stdout).toContain("fresh for 30 min");
      expect(listed.stdout).toContain("status: ok");
      expect(listed.stdout).toContain("1 calendar object, 1 busy interval");

      failing = true;
      const synced = await cli("calendar-sync", sourceId);
      expect(synced.code).toBe(1);
      expect(synced.stdout).toContain("Sync failed: the feed answered HTTP 503");
      expect(synced.stdout).toContain("status: FAILING");
      expect(synced.stdout).toContain("error: the feed answered HTTP 503");
      expect(synced.stdout).toContain("1 calendar object, 1 busy interval");

      expect((await cli("calendar-add", id)).code).toBe(2);
      expect((await cli("calendar-sync", "x")).stderr).toContain('A busy source id is a number, got "x"');
      const removed = await cli("calendar-remove", sourceId);
      expect(removed.code).toBe(0);
      expect((await cli("calendars", id)).stdout).toContain(`Event type #${id} reads no calendars`);
    } finally {
      feedServer.stop(true);
    }
  });

  it("writes bookings into a CalDAV calendar of a source, shows it, and stops", async () => {
    const radicale = await startRadicale();
    try {
      const cal = await radicale.makeCalendar("cli-bookings");
      const added = await cli("calendar-add", id, cal, "--user", radicale.user, "--password", radicale.password);
      expect(added.code).toBe(0);
      const sourceId = /Added calendar source #(\d+)/.exec(added.stdout)![1]!;
      const unknown = await cli("calendar-write", sourceId, "--calendar", `${radicale.base}/${radicale.user}/elsewhere/`);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("no such calendar");
      const set = await cli("calendar-write", sourceId);
      expect(set.stderr).toBe("");
      expect(set.code).toBe(0);
      expect(set.stdout).toContain(`are now written into ${cal}`);
      expect((await cli("calendars", id)).stdout).toContain(`writes bookings into: ${cal}`);
      expect((await cli("calendar-write", sourceId, "--calendar", "a", "--calendar", "b")).code).toBe(2);
      const stopped = await cli("calendar-write-stop", sourceId);
      expect(stopped.code).toBe(0);
      expect((await cli("calendars", id)).stdout).not.toContain("writes bookings into");
      expect((await cli("calendar-remove", sourceId)).code).toBe(0);
    } finally {
      await radicale.stop();
    }
  });

  it("deletes the event type, after which show exits 1 with not_found", async () => {
    const r = await cli("delete", id);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Deleted event type #${id}`);
    const gone = await cli("show", id);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("Error 404 not_found");
    expect(await publicCall("/configuration", apiToken)).toBe(401);
  });

  it("prints its usage for help", async () => {
    const r = await cli("help");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run admin -- <command>/);
    for (const command of [
      "list",
      "show <id>",
      "create --title",
      "update <id>",
      "disable <id>",
      "delete <id>",
      "token <id>",
      "hours <id>",
      "close <id>",
      "open-day <id>",
      "reservations <id>",
      "webhook <id>",
      "webhook-secret <id>",
      "deliveries <id>",
      "calendars <id>",
      "calendar-add <id> URL",
      "calendar-sync <source-id>",
      "calendar-remove <source-id>",
      "calendar-write <source-id>",
      "calendar-write-stop <source-id>",
      "hosts",
      "host <host-id>",
      "host-create --name N --email E",
      "host-update <host-id>",
      "host-delete <host-id>",
      "host-bookings <host-id>",
      "schedules <host-id>",
      "schedule-create <host-id>",
      "schedule-update <schedule-id>",
      "schedule-hours <schedule-id>",
      "schedule-delete <schedule-id>",
      "host-calendars <host-id>",
      "host-calendar-add <host-id> URL",
      "why <id> --start T",
      "host-why <host-id> --start T",
      "time-off <host-id>",
      "time-off-add <host-id>",
      "time-off-remove <host-id> <time-off-id>",
      "--host ID[:PRIORITY][@SCHEDULE]",
      "--assignment collective|round-robin",
    ]) {
      expect(r.stdout).toContain(command);
    }
  });

  it("runs as npm run admin from the repository root", async () => {
    const r = await runProcess("npm", ["run", "--silent", "admin", "--", "list", "--json"], {
      cwd: REPO_ROOT,
      env: { BOOKING_URL: base, BOOKING_ADMIN_KEY: KEY },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((et: { title: string }) => et.title)).toContain("Intro call");
  }, 30_000);
});

describe("hosts, schedules and teams through the CLI", () => {
  const json = (r: Run) => {
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  };
  const days = (fromDays: number, toDays: number) =>
    [new Date(Date.now() + fromDays * 86_400_000).toISOString().slice(0, 10), new Date(Date.now() + toDays * 86_400_000).toISOString().slice(0, 10)] as const;

  it("creates, shows, lists and changes hosts, refusing bad input", async () => {
    const created = await cli(
      "host-create",
      "--name",
      "Grace Hopper",
      "--email",
      "grace@example.com",
      "--timezone",
      "America/New_York",
      "--avatar",
      "https://example.com/grace.png",
    );
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const id = /Created host #(\d+) "Grace Hopper"/.exec(created.stdout)![1]!;
    expect(created.stdout).toMatch(/Timezone:\s+America\/New_York/);
    expect(created.stdout).toContain(`update <event-type-id> --host ${id}`);

    const listed = await cli("hosts");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+NAME\s+EMAIL\s+TIMEZONE\s+EVENT TYPES$/m);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+Grace Hopper\\s+grace@example\\.com\\s+America/New_York\\s+none$`, "m"));
    expect(listed.stdout).toMatch(/\(default\)/);

    const updated = json(await cli("host-update", id, "--name", "Grace B. Hopper", "--avatar", "none", "--json"));
    expect(updated).toMatchObject({ id: Number(id), name: "Grace B. Hopper", email: "grace@example.com", avatarUrl: null, isDefault: false });
    const shown = await cli("host", id);
    expect(shown.stdout).toContain(`#${id} Grace B. Hopper`);
    expect(shown.stdout).toMatch(/Schedules:\s+none/);
    expect(shown.stdout).toMatch(/Calendars:\s+none/);

    const badZone = await cli("host-update", id, "--timezone", "Mars/Olympus");
    expect(badZone.code).toBe(1);
    expect(badZone.stderr).toContain("timezone: Unknown IANA timezone.");
    expect((await cli("host-create", "--name", "No mail")).code).toBe(2);
    expect((await cli("host-update", id)).code).toBe(2);
    expect((await cli("host", "x")).stderr).toContain('A host id is a number, got "x"');
    const missing = await cli("host", "999999");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Error 404 not_found: No host with id 999999.");
    expect((await cli("host-delete", id)).code).toBe(0);
    expect((await cli("host", id)).code).toBe(1);
  });

  it("sets a host's booking limits across their event types", async () => {
    const host = json(await cli("host-create", "--name", "Limited Host", "--email", "limited@example.com", "--timezone", "America/New_York", "--json"));
    const shown = await cli("host-limits", String(host.id), "--per-week", "10", "--minutes-per-day", "240");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("Limits (America/New_York, weeks from Monday):");
    expect(shown.stdout).toMatch(/Bookings per week\s+10\n/);
    expect(json(await cli("host", String(host.id), "--json")).limits).toMatchObject({ bookingsPerWeek: 10, minutesPerDay: 240, bookingsPerDay: null });
  });

  it("keeps a host's schedules: create with weekday hours or a file, change a weekday, rename, delete", async () => {
    const host = json(await cli("host-create", "--name", "Sched Host", "--email", "sched@example.com", "--timezone", "Europe/Berlin", "--json"));
    const made = await cli("schedule-create", String(host.id), "--name", "Mornings", "--ranges", "08:00-12:00");
    expect(made.code).toBe(0);
    const scheduleId = /Created schedule #(\d+) "Mornings" of host #(\d+)/.exec(made.stdout)![1]!;
    expect(made.stdout).toMatch(/monday\s+08:00-12:00/);
    expect(made.stdout).toMatch(/sunday\s+closed/);
    expect(made.stdout).toContain(`--host ${host.id}@${scheduleId}`);

    const file = join(dir, "availability.json");
    writeFileSync(file, JSON.stringify({ weekly: { saturday: [{ start: "10:00", end: "14:00" }] }, overrides: [{ date: "2026-12-24", ranges: [] }] }));
    const weekend = json(await cli("schedule-create", String(host.id), "--name", "Weekends", "--file", file, "--timezone", "Europe/Prague", "--json"));
    expect(weekend).toMatchObject({
      hostId: host.id,
      name: "Weekends",
      timezone: "Europe/Prague",
      availability: { weekly: { saturday: [{ start: "10:00", end: "14:00" }] }, overrides: [{ date: "2026-12-24", ranges: [] }] },
    });

    const listed = json(await cli("schedules", String(host.id), "--json"));
    expect(listed.map((s: { name: string }) => s.name)).toEqual(["Mornings", "Weekends"]);
    const hours = await cli("schedule-hours", scheduleId, "--day", "fri", "--ranges", "none");
    expect(hours.code).toBe(0);
    expect(hours.stdout).toMatch(/friday\s+closed/);
    expect(hours.stdout).toMatch(/thursday\s+08:00-12:00/);
    const renamed = json(await cli("schedule-update", scheduleId, "--name", "Early", "--json"));
    expect(renamed).toMatchObject({
      name: "Early",
      timezone: "Europe/Berlin",
      availability: { weekly: { friday: [], monday: [{ start: "08:00", end: "12:00" }] } },
    });

    const backwards = await cli("schedule-hours", scheduleId, "--day", "monday", "--ranges", "12:00-08:00");
    expect(backwards.code).toBe(1);
    expect(backwards.stderr).toContain("availability.weekly.monday: Range 12:00-08:00 must end after it starts.");
    expect((await cli("schedule-create", String(host.id), "--name", "Both", "--ranges", "09:00-10:00", "--file", file)).code).toBe(2);
    expect((await cli("schedule-update", scheduleId)).code).toBe(2);
    expect((await cli("host", String(host.id))).stdout).toMatch(
      new RegExp(`Schedules:\\n\\s+#${scheduleId} Early \\(Europe/Berlin\\)\\n\\s+#${weekend.id} Weekends`),
    );
    expect((await cli("schedule-delete", String(weekend.id))).code).toBe(0);
    expect(json(await cli("schedules", String(host.id), "--json"))).toHaveLength(1);
  });

  it("makes a round-robin team event type, books it, lists the host's bookings across event types and attaches a calendar to a host", async () => {
    const ada = json(await cli("host-create", "--name", "Ada Team", "--email", "ada.team@example.com", "--json"));
    const bob = json(await cli("host-create", "--name", "Bob Team", "--email", "bob.team@example.com", "--json"));
    const schedule = json(await cli("schedule-create", String(ada.id), "--name", "Long days", "--ranges", "08:00-18:00", "--json"));
    const team = json(
      await cli("create", "--title", "Team call", "--host", `${ada.id}:10@${schedule.id}`, "--host", String(bob.id), "--assignment", "round-robin", "--json"),
    );
    expect(team.assignment).toBe("round-robin");
    expect(team.hosts).toEqual([
      { hostId: ada.id, name: "Ada Team", priority: 10, scheduleId: schedule.id },
      { hostId: bob.id, name: "Bob Team", priority: 0, scheduleId: null },
    ]);
    const shown = await cli("show", String(team.id));
    expect(shown.stdout).toMatch(
      new RegExp(`Hosts:\\s+Ada Team \\(#${ada.id}, priority 10, schedule #${schedule.id}\\), Bob Team \\(#${bob.id}, priority 0\\); round robin`),
    );
    expect((await cli("host", String(schedule.hostId))).stdout).toContain(`used by #${team.id}`);
    // A personal event type of Ada beside the team one.
    const solo = json(await cli("create", "--title", "Ada solo", "--host", String(ada.id), "--json"));
    expect((await cli("show", String(solo.id))).stdout).toMatch(new RegExp(`Host:\\s+Ada Team \\(#${ada.id}\\)`));
    expect(json(await cli("hosts", "--json")).find((h: { id: number }) => h.id === ada.id).eventTypeIds).toEqual([team.id, solo.id]);

    // Book each through the public API: Ada, first by priority, takes the team booking; her solo booking is another event type.
    const [from, until] = days(1, 8);
    const book = async (token: string, pick: (slots: { start: string; end: string }[]) => { start: string; end: string }) => {
      const slots = (await (await fetch(`${base}/time-slots?from=${from}&until=${until}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        data: { start: string; end: string }[];
      };
      const { start, end } = pick(slots.data);
      const r = await fetch(`${base}/reservations`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ start, end, email: "visitor@example.com", firstname: "Vi", lastname: "Sitor" }),
      });
      const body = (await r.json()) as { success: boolean; data: { uuid: string; userId: number } };
      expect(body.success, JSON.stringify(body)).toBe(true);
      return body.data;
    };
    const teamBooking = await book(team.token, (s) => s[0]!);
    expect([ada.id, bob.id]).toContain(teamBooking.userId);
    let soloStart = "";
    const soloBooking = await book(solo.token, (s) => {
      soloStart = s[s.length - 1]!.start;
      return s[s.length - 1]!;
    });

    const listFor = async (hostId: number) =>
      json(await cli("host-bookings", String(hostId), "--from", from, "--until", until, "--json")) as { uuid: string; eventTypeId: number }[];
    const teamHost = teamBooking.userId;
    const otherHost = teamHost === ada.id ? bob.id : ada.id;
    expect((await listFor(teamHost)).map((b) => b.uuid)).toContain(teamBooking.uuid);
    expect((await listFor(otherHost)).map((b) => b.uuid)).not.toContain(teamBooking.uuid);
    const adas = await listFor(ada.id);
    expect(adas.find((b) => b.uuid === soloBooking.uuid)?.eventTypeId).toBe(solo.id);
    const table = await cli("host-bookings", String(ada.id), "--from", from, "--until", until);
    expect(table.stdout).toMatch(/^START\s+END\s+STATUS\s+EVENT TYPE\s+NAME\s+EMAIL\s+UUID$/m);
    expect(table.stdout).toMatch(new RegExp(`confirmed\\s+#${solo.id}\\s+Vi Sitor\\s+visitor@example\\.com\\s+${soloBooking.uuid}`));
    expect((await cli("host-bookings", String(ada.id), "--from", from, "--until", until, "--status", "cancelled")).stdout.trim()).toBe(
      "No bookings of this host in this range.",
    );
    expect((await cli("host-bookings", String(ada.id), "--from", from)).code).toBe(2);

    // Why the booked time is offered no more: its one seat is taken.
    const why = await cli("why", String(solo.id), "--start", soloStart);
    expect(why.code, why.stderr).toBe(0);
    expect(why.stdout).toMatch(new RegExp(`^#${solo.id} .*: not bookable$`, "m"));
    expect(why.stdout).toContain("seats_full: All 1 seat is taken.");
    expect(json(await cli("why", String(solo.id), "--start", soloStart, "--json"))).toMatchObject({ bookable: false, reasons: [{ code: "seats_full" }] });
    const hostWhy = json(await cli("host-why", String(ada.id), "--start", soloStart, "--event-type", String(solo.id), "--json")) as { eventTypes: unknown[] };
    expect(hostWhy).toMatchObject({ hostId: ada.id, bookable: false, eventTypes: [{ eventTypeId: solo.id, reasons: [{ code: "seats_full" }] }] });
    expect((await cli("why", String(solo.id))).code).toBe(2);

    // A calendar of Bob's: listed with the host, and with every event type Bob is a host of.
    const feed = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", "END:VCALENDAR", ""].join("\r\n");
    const feedServer = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(feed) });
    try {
      const url = `http://127.0.0.1:${feedServer.port}/bob.ics`;
      const added = await cli("host-calendar-add", String(bob.id), url, "--kind", "ical");
      expect(added.stderr).toBe("");
      expect(added.code).toBe(0);
      const sourceId = new RegExp(`Added calendar source #(\\d+) to host #${bob.id}: its busy times block every event type of the host`).exec(
        added.stdout,
      )![1]!;
      expect((await cli("host-calendars", String(bob.id))).stdout).toContain(`#${sourceId} iCalendar feed ${url} (host #${bob.id})`);
      expect((await cli("calendars", String(team.id))).stdout).toContain(`#${sourceId} iCalendar feed ${url}`);
      expect((await cli("calendars", String(solo.id))).stdout).not.toContain(url);
      expect((await cli("host", String(bob.id))).stdout).toMatch(new RegExp(`Calendars:\\n\\s+#${sourceId} iCalendar feed ${url} \\(ok\\)`));
      expect((await cli("host-calendar-add", String(bob.id))).stderr).toContain("host-calendar-add takes a host id and the calendar's URL.");
    } finally {
      feedServer.stop(true);
    }

    // A host with event types is not deleted; the event type moves to Bob alone and back to collective.
    const refused = await cli("host-delete", String(ada.id));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("hostId: The host has event types or bookings");
    const moved = json(await cli("update", String(team.id), "--host", String(bob.id), "--assignment", "collective", "--json"));
    expect(moved).toMatchObject({ assignment: "collective", hosts: [{ hostId: bob.id }] });
    const unknown = await cli("update", String(team.id), "--host", "999999");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("hosts.0.hostId: No host with id 999999.");
    expect((await cli("update", String(team.id), "--host", "1:x")).code).toBe(2);
    expect((await cli("update", String(team.id), "--assignment", "lottery")).code).toBe(2);
  });
});

describe("time off through the CLI", () => {
  it("marks days and ranges away with a colleague and a note, lists and removes them, and refuses bad input", async () => {
    const make = async (name: string) => {
      const r = await cli("host-create", "--name", name, "--email", `${name.toLowerCase()}@example.com`, "--timezone", "Europe/Prague", "--json");
      expect(r.code, r.stderr).toBe(0);
      return String(JSON.parse(r.stdout).id);
    };
    const alex = await make("Alexcli");
    const sam = await make("Samcli");
    const days = await cli("time-off-add", alex, "--from", "2030-05-04", "--until", "2030-05-11", "--note", "Holiday", "--colleague", sam);
    expect(days.stderr).toBe("");
    expect(days.stdout).toMatch(
      new RegExp(`Host #${alex} is away 2030-05-04 to 2030-05-11 \\(whole days\\); Samcli takes the bookings \\(time off #(\\d+)\\)`),
    );
    const range = JSON.parse((await cli("time-off-add", alex, "--start", "2030-06-01T09:00:00+02:00", "--end", "2030-06-01T12:00:00+02:00", "--json")).stdout);
    expect(range).toMatchObject({ start: "2030-06-01T07:00:00Z", end: "2030-06-01T10:00:00Z", colleagueHostId: null });
    const listed = await cli("time-off", alex);
    expect(listed.stdout).toMatch(/^ID\s+WHEN\s+COLLEAGUE\s+NOTE$/m);
    expect(listed.stdout).toMatch(new RegExp(`2030-05-04 to 2030-05-11 \\(whole days\\)\\s+Samcli \\(#${sam}\\)\\s+Holiday`));
    expect(listed.stdout).toContain("2030-06-01T07:00:00Z to 2030-06-01T10:00:00Z");

    const backwards = await cli("time-off-add", alex, "--from", "2030-05-11", "--until", "2030-05-04");
    expect(backwards.code).toBe(1);
    expect(backwards.stderr).toContain("endDate: Must not be before startDate.");
    const self = await cli("time-off-add", alex, "--from", "2030-05-11", "--until", "2030-05-11", "--colleague", alex);
    expect(self.code).toBe(1);
    expect(self.stderr).toContain("colleagueHostId:");
    expect((await cli("time-off-add", alex)).code).toBe(2);
    expect((await cli("time-off-add", alex, "--from", "2030-05-11", "--until", "2030-05-11", "--start", "2030-06-01T09:00:00+02:00")).code).toBe(2);
    expect((await cli("time-off-remove", alex, "x")).code).toBe(2);

    expect((await cli("time-off-remove", alex, String(range.id))).stdout).toContain(`Time off #${range.id} of host #${alex} removed.`);
    expect(JSON.parse((await cli("time-off", alex, "--json")).stdout)).toHaveLength(1);
    expect((await cli("time-off-remove", sam, String(range.id))).code).toBe(1);
  });
});
