import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { DateTime } from "luxon";
import { afterEach, describe, expect, it } from "vitest";
import { failure, startReceiver, success } from "./mcp-utils.ts";
import { PROCESS_SECRET_KEY, SERVER_DIR } from "./server-process.ts";
import { setup } from "./utils.ts";
import { TOOLS } from "../src/modules/mcp/server.ts";

// The stdio server as a desktop assistant runs it: its own process on the server's SQLite file,
// spoken to by the SDK's own Client. It runs on the real clock, so the event type below is open
// around the clock in UTC with no minimum notice, and the days used are tomorrow and after.

const REPO_ROOT = resolve(SERVER_DIR, "../..");
const KEY = "stdio-admin-key-0123456789";
const ALL_DAY = [{ start: "00:00", end: "24:00" }];
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "booking-mcp-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Only what the assistant's configuration would pass: no settings of the test run leak in. */
const baseEnv = () => ({ PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", BOOKING_SECRET_KEY: PROCESS_SECRET_KEY });

/** Connects the SDK's client to a freshly spawned stdio server; answers the client and its stderr so far. */
async function spawnAssistantServer(command: string, args: string[], cwd: string, env: Record<string, string>) {
  const transport = new StdioClientTransport({ command, args, cwd, env: { ...baseEnv(), ...env }, stderr: "pipe" });
  let stderr = "";
  transport.stderr!.on("data", (chunk) => (stderr += String(chunk)));
  const client = new Client({ name: "desktop-assistant", version: "1.0.0" });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, stderr: () => stderr };
}

describe("the assistant server on stdio (npm run mcp)", () => {
  it("refuses to start without BOOKING_ADMIN_KEY, saying why on stderr and printing nothing on stdout", async () => {
    const dir = tempDir();
    const proc = Bun.spawn([process.execPath, "src/cli/mcp.ts"], {
      cwd: SERVER_DIR,
      env: { ...baseEnv(), BOOKING_DB: join(dir, "b.sqlite") },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stdout).text()).toBe("");
    expect(await new Response(proc.stderr).text()).toContain("set BOOKING_ADMIN_KEY");
  });

  it("works on the server's SQLite file: reschedules and cancels with their webhooks delivered, and a closed day disappears from GET /time-slots", async () => {
    const dir = tempDir();
    const databasePath = join(dir, "booking.sqlite");
    const tomorrow = DateTime.utc().plus({ days: 1 }).toISODate()!;
    const later = DateTime.utc().plus({ days: 2 }).toISODate()!;
    // The HTTP server's app on the same file, as `npm start` would run it.
    const http = await setup({ databasePath, now: new Date().toISOString(), config: { rateLimit: { limit: 100_000, windowSeconds: 60 } } });
    const receiver = startReceiver();
    cleanups.push(() => receiver.stop());
    const created = await http.admin("POST", "/admin/event-types", {
      title: "Open hours",
      slug: "open-hours",
      timezone: "UTC",
      minNoticeMinutes: 0,
      rescheduleNoticeMinutes: 4 * 1440,
      cancelNoticeMinutes: 4 * 1440,
      webhookUrl: receiver.url,
      availability: { weekly: Object.fromEntries(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, ALL_DAY])) },
    });
    expect(created.status).toBe(200);
    const et = created.body.data as { id: number; token: string; webhookSecret: string };
    receiver.secret = et.webhookSecret;
    const booked = await http.call("POST", "/reservations", {
      token: et.token,
      body: { start: `${tomorrow}T10:00:00Z`, end: `${tomorrow}T10:30:00Z`, email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" },
    });
    expect(booked.body.success).toBe(true);
    const freeOn = async (date: string) => (await http.call("GET", `/time-slots?from=${date}&until=${date}`, { token: et.token })).body.data as unknown[];
    expect(await freeOn(later)).toHaveLength(48);

    const { client, stderr } = await spawnAssistantServer(process.execPath, ["src/cli/mcp.ts"], SERVER_DIR, {
      BOOKING_DB: databasePath,
      BOOKING_ADMIN_KEY: KEY,
      BOOKING_PUBLIC_URL: "https://book.example.com",
    });
    expect((await client.listTools()).tools).toHaveLength(Object.keys(TOOLS).length);
    expect(success(await client.callTool({ name: "list_event_types", arguments: {} })).data.eventTypes).toMatchObject([
      { id: et.id, slug: "open-hours", bookingUrl: "https://book.example.com/book/open-hours" },
    ]);

    const found = success(await client.callTool({ name: "search_reservations", arguments: { name: "ada" } }));
    expect(found.data.reservations).toHaveLength(1);
    const uuid = found.data.reservations[0].uuid as string;
    expect(uuid).toBe(booked.body.data.uuid);

    const moved = success(await client.callTool({ name: "reschedule_reservation", arguments: { uuid, start: `${tomorrow}T12:00` } }));
    expect(moved.data.reservation.start).toBe(`${tomorrow}T12:00:00Z`);
    expect(moved.data.webhookQueued).toBe(true);
    // The stdio server's own webhook worker delivers what is queued, the HTTP server's booking included.
    const afterMove = await receiver.waitFor(2);
    expect(afterMove.map((p) => p.type)).toEqual(["reservation.created", "reservation.rescheduled"]);
    expect(afterMove[1].data).toMatchObject({
      uuid,
      start: `${tomorrow}T12:00:00Z`,
      previousStart: `${tomorrow}T10:00:00Z`,
      manageUrl: `https://book.example.com/book/open-hours?reservation=${uuid}`,
    });

    const cancelled = success(await client.callTool({ name: "cancel_reservation", arguments: { uuid } }));
    expect(cancelled.data.reservation.status).toBe("cancelled");
    expect((await receiver.waitFor(3)).map((p) => p.type)).toEqual(["reservation.created", "reservation.rescheduled", "reservation.cancelled"]);
    // The HTTP server sees the change made by the other process.
    expect((await http.call("POST", "/event-types/init", { token: et.token, body: { reservationUuid: uuid } })).body.data.reservation.status).toBe("cancelled");

    const closed = success(await client.callTool({ name: "close_day", arguments: { slug: "open-hours", date: later } }));
    expect(closed.text).toContain(`${later} is closed`);
    expect(await freeOn(later)).toEqual([]);
    success(await client.callTool({ name: "set_date_override", arguments: { slug: "open-hours", date: later, ranges: [{ start: "08:00", end: "09:00" }] } }));
    expect(await freeOn(later)).toEqual([expect.objectContaining({ readable_start: "08:00" }), expect.objectContaining({ readable_start: "08:30" })]);
    expect(success(await client.callTool({ name: "clear_date_override", arguments: { slug: "open-hours", date: later } })).data.removed).toBe(true);
    success(
      await client.callTool({
        name: "set_weekly_hours",
        arguments: { days: [DateTime.fromISO(later).setLocale("en").toFormat("cccc").toLowerCase()], ranges: [{ start: "12:00", end: "13:00" }] },
      }),
    );
    expect(await freeOn(later)).toHaveLength(2);
    expect(success(await client.callTool({ name: "get_availability", arguments: {} })).data.availability.overrides).toEqual([]);

    // The read-only tools, over this transport too.
    expect(
      success(await client.callTool({ name: "resolve_booking_link", arguments: { link: "https://book.example.com/book/open-hours", slotCount: 1 } })).data
        .nextFreeSlots,
    ).toHaveLength(1);
    expect(
      success(await client.callTool({ name: "find_free_slots", arguments: { from: later, until: later } })).data.slots.map((s: { time: string }) => s.time),
    ).toEqual(["12:00", "12:30"]);
    expect(success(await client.callTool({ name: "get_reservation", arguments: { uuid } })).data.reservation.status).toBe("cancelled");
    expect(failure(await client.callTool({ name: "get_reservation", arguments: { uuid: crypto.randomUUID() } }))).toMatch(/\(not_found\)$/);
    expect(stderr()).toContain(`assistant server on stdio (SQLite: ${databasePath})`);
  });

  it("runs as npm run --silent mcp from the repository root", async () => {
    const dir = tempDir();
    const { client } = await spawnAssistantServer("npm", ["run", "--silent", "mcp"], REPO_ROOT, { BOOKING_DB: join(dir, "b.sqlite"), BOOKING_ADMIN_KEY: KEY });
    expect(success(await client.callTool({ name: "list_event_types", arguments: {} })).text).toBe("There are no event types yet.");
  }, 30_000);
});
