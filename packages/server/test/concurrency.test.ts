import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventTypeAdmin } from "../src/modules/event-types/organizer.ts";
import { SIGN_IN_ATTEMPTS } from "../src/modules/console/service.ts";
import { openSqliteStore } from "../src/store/sqlite/index.ts";
import { signInBurst, startServerProcess, type ServerProcess } from "./server-process.ts";
import { ADMIN_KEY } from "./utils.ts";

/**
 * Several real server processes (`src/main.ts`, the `npm start` code path) on one SQLite file,
 * hit at once: the seat count must hold across processes, not only within one.
 */
const PROCESSES = 3;
const REQUESTS = 120;

const dir = mkdtempSync(join(tmpdir(), "booking-concurrency-"));
const dbPath = join(dir, "shared.sqlite");
const servers: ServerProcess[] = [];
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
let oneSeatSlot: { start: string; end: string } | null = null;

beforeAll(async () => {
  const store = openSqliteStore(dbPath);
  const admin = new EventTypeAdmin(store, Date.now);
  const everyDay = [{ start: "00:00", end: "24:00" }];
  const weekly = { monday: everyDay, tuesday: everyDay, wednesday: everyDay, thursday: everyDay, friday: everyDay, saturday: everyDay, sunday: everyDay };
  for (const [name, seats] of [
    ["one", 1],
    ["three", 3],
  ] as const) {
    const et = await admin.create({
      title: `${seats} seats`,
      timezone: "UTC",
      seats,
      minNoticeMinutes: 0,
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      availability: { weekly, overrides: [] },
    });
    tokens[name] = et.token;
    ids[name] = et.id;
  }
  await store.close();
  for (let i = 0; i < PROCESSES; i++) {
    servers.push(await startServerProcess({ BOOKING_DB: dbPath, BOOKING_ADMIN_KEY: ADMIN_KEY, RATE_LIMIT_PER_MINUTE: "100000", STRIPE_STANDIN: "0" }));
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/** A slot two days ahead, as the first server offers it. */
async function someSlot(token: string, hourOffset: number): Promise<{ start: string; end: string }> {
  const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const r = await fetch(`${servers[0]!.base}/time-slots?from=${day}&until=${day}`, { headers: { authorization: `Bearer ${token}` } });
  const slots = ((await r.json()) as { data: { start: string; end: string }[] }).data;
  return slots[hourOffset]!;
}

async function race(token: string, slot: { start: string; end: string }) {
  const answers = await Promise.all(
    Array.from({ length: REQUESTS }, (_, i) =>
      fetch(`${servers[i % PROCESSES]!.base}/reservations`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ start: slot.start, end: slot.end, email: `visitor${i}@example.com` }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { success: boolean; code?: string; data?: { uuid: string } } })),
    ),
  );
  return answers;
}

async function seatsTaken(eventTypeId: number, slot: { start: string }): Promise<number> {
  const store = openSqliteStore(dbPath);
  try {
    const startMs = Date.parse(slot.start);
    const holders = await store.reservations.seatHolders(eventTypeId, startMs, startMs + 1, Date.now());
    return holders.filter((h) => h.startMs === startMs).length;
  } finally {
    await store.close();
  }
}

describe("simultaneous console sign-ins from one address to several server processes on one SQLite file", () => {
  it(`judges exactly ${SIGN_IN_ATTEMPTS} of 100 wrong keys and refuses the rest with 429`, async () => {
    const statuses = await signInBurst(servers, 100);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_ATTEMPTS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - SIGN_IN_ATTEMPTS);
  });
});

describe("simultaneous bookings from several server processes on one SQLite file", () => {
  it(`lets exactly one of ${REQUESTS} requests book a one-seat slot`, async () => {
    const slot = await someSlot(tokens.one!, 3);
    oneSeatSlot = slot;
    const answers = await race(tokens.one!, slot);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const won = answers.filter((a) => a.body.success);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((a) => !a.body.success)) expect(["slot_locked", "slot_unavailable"]).toContain(lost.body.code);
    expect(await seatsTaken(ids.one!, slot)).toBe(1);
  }, 60_000);

  it(`lets exactly three of ${REQUESTS} requests book a three-seat slot`, async () => {
    const slot = await someSlot(tokens.three!, 5);
    const answers = await race(tokens.three!, slot);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.success)).toHaveLength(3);
    expect(new Set(answers.filter((a) => a.body.success).map((a) => a.body.data!.uuid)).size).toBe(3);
    for (const lost of answers.filter((a) => !a.body.success)) expect(["slot_locked", "slot_unavailable"]).toContain(lost.body.code);
    expect(await seatsTaken(ids.three!, slot)).toBe(3);
  }, 60_000);

  it("offers the slot to nobody afterwards, on any process", async () => {
    const slot = oneSeatSlot!;
    const day = slot.start.slice(0, 10);
    for (const s of servers) {
      const r = await fetch(`${s.base}/time-slots?from=${day}&until=${day}`, { headers: { authorization: `Bearer ${tokens.one}` } });
      const starts = ((await r.json()) as { data: { start: string }[] }).data.map((x) => x.start);
      expect(starts).not.toContain(slot.start);
    }
  });
});
