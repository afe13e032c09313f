import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventTypeAdmin } from "../src/modules/event-types/organizer.ts";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import type { Store } from "../src/store/store.ts";
import { SIGN_IN_ATTEMPTS } from "../src/modules/console/service.ts";
import { signInBurst, startServerProcess, type ServerProcess } from "./server-process.ts";
import { POSTGRES_URL, postgresSkipReason, newFeedToken } from "./utils.ts";

/**
 * Two real server processes (`src/main.ts`) on one PostgreSQL schema, as two hosts behind a load
 * balancer would run: seats, rate limits and crashes must hold across them.
 */
const problem = await postgresSkipReason();
const skip = problem !== null;

const schema = `inst_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const allDay = [{ start: "00:00", end: "24:00" }];
const weekly = { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay };
const HOUR_MS = 3_600_000;
let store: Store;

beforeAll(async () => {
  if (skip) return;
  store = await openPostgresStore(POSTGRES_URL, { schema });
});

afterAll(async () => {
  if (skip) return;
  await store.close();
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

/** A host of its own for each event type: bookings of one host block that host's time in every event type, so tests sharing the schema would meet. */
async function ownHost() {
  const host = await store.hosts.create(
    { name: `Host ${crypto.randomUUID().slice(0, 8)}`, email: null, timezone: "UTC", avatarUrl: null, feedToken: newFeedToken() },
    Date.now(),
  );
  return [{ hostId: host.id }];
}

async function eventType(seats: number) {
  return new EventTypeAdmin(store, Date.now).create({
    hosts: await ownHost(),
    title: `${seats} seats`,
    timezone: "UTC",
    seats,
    minNoticeMinutes: 0,
    durationMinutes: 60,
    slotIntervalMinutes: 60,
    availability: { weekly, overrides: [] },
  });
}

async function instances(count: number, env: Record<string, string>): Promise<ServerProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () => startServerProcess({ DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, STRIPE_STANDIN: "0", ...env })),
  );
}

/** A slot `daysAhead` days ahead at `hour`:00 UTC, as the API takes it. */
function slotAt(daysAhead: number, hour: number) {
  const start = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + daysAhead, hour));
  return { start: start.toISOString(), end: new Date(start.getTime() + 3_600_000).toISOString() };
}

function book(base: string, token: string, slot: { start: string; end: string }, i: number, email = `visitor${i}@example.com`) {
  return fetch(`${base}/reservations`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ ...slot, email }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { success: boolean; code?: string; data?: { uuid: string } } }));
}

async function seatsTaken(eventTypeId: number, slot: { start: string }): Promise<number> {
  const startMs = Date.parse(slot.start);
  return (await store.reservations.seatHolders(eventTypeId, startMs, startMs + 1, Date.now())).filter((h) => h.startMs === startMs).length;
}

describe.skipIf(skip)(skip ? `several instances on PostgreSQL (skipped: ${problem})` : "several instances on PostgreSQL", () => {
  it.each([1, 3])(
    "lets exactly %i of 200 simultaneous requests, spread over two instances, take a slot",
    async (seats) => {
      const et = await eventType(seats);
      const servers = await instances(2, { RATE_LIMIT_PER_MINUTE: "100000" });
      try {
        const slot = slotAt(2, 9 + seats);
        const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => book(servers[i % 2]!.base, et.token, slot, i)));
        expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
        const won = answers.filter((a) => a.body.success);
        expect(won).toHaveLength(seats);
        for (const lost of answers.filter((a) => !a.body.success)) expect(["slot_locked", "slot_unavailable"]).toContain(lost.body.code);
        expect(await seatsTaken(et.id, slot)).toBe(seats);
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    },
    60_000,
  );

  it("books 200 simultaneous requests for 200 distinct free slots through two instances without refusing one, even while one booking is slow", async () => {
    // Slots whose buffered spans touch: neighbours read each other's buffers, yet never conflict.
    const et = await new EventTypeAdmin(store, Date.now).create({
      hosts: await ownHost(),
      title: "distinct slots",
      timezone: "UTC",
      seats: 1,
      minNoticeMinutes: 0,
      durationMinutes: 30,
      slotIntervalMinutes: 45,
      bufferAfterMinutes: 15,
      availability: { weekly, overrides: [] },
    });
    const servers = await instances(2, { RATE_LIMIT_PER_MINUTE: "100000" });
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      // One booking's transaction stalls for 0.4 s (a busy host, a slow disk): a lock on the whole
      // event type would keep every other booking waiting past its lock wait.
      await admin.query(`
        CREATE FUNCTION "${schema}".stall_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.email = 'slow@example.com' THEN PERFORM pg_sleep(0.4); END IF; RETURN NEW; END $$;
        CREATE TRIGGER stall_insert BEFORE INSERT ON "${schema}".reservations FOR EACH ROW EXECUTE FUNCTION "${schema}".stall_insert();
      `);
      const first = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 2);
      const slots = Array.from({ length: 200 }, (_, i) => {
        const start = first + i * 45 * 60_000;
        return { start: new Date(start).toISOString(), end: new Date(start + 30 * 60_000).toISOString() };
      });
      const revision = (await store.eventTypes.byId(et.id))!.revision;
      const slow = book(servers[0]!.base, et.token, slots[100]!, 100, "slow@example.com");
      await Bun.sleep(100);
      const answers = await Promise.all([
        slow,
        ...slots.map((slot, i) => (i === 100 ? null : book(servers[i % 2]!.base, et.token, slot, i))).filter((a) => a !== null),
      ]);
      expect(answers.filter((a) => !a.body.success).map((a) => a.body.code)).toEqual([]);
      expect(answers).toHaveLength(200);
      expect(await store.reservations.seatHolders(et.id, first, first + 200 * 45 * 60_000, Date.now())).toHaveLength(200);
      // Every booking moved the revision the slot caches go by, however many committed at once.
      expect((await store.eventTypes.byId(et.id))!.revision).toBe(revision + 200);
    } finally {
      await admin.query(`DROP TRIGGER IF EXISTS stall_insert ON "${schema}".reservations`);
      await admin.end();
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 60_000);

  it("lets exactly 3 of 40 simultaneous bookings of distinct slots of one day through two instances when the day allows 3", async () => {
    const et = await new EventTypeAdmin(store, Date.now).create({
      hosts: await ownHost(),
      title: "three a day",
      timezone: "UTC",
      seats: 1,
      minNoticeMinutes: 0,
      durationMinutes: 30,
      slotIntervalMinutes: 30,
      availability: { weekly, overrides: [] },
      limits: { bookingsPerDay: 3 },
    });
    const servers = await instances(2, { RATE_LIMIT_PER_MINUTE: "100000" });
    try {
      const first = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 4);
      // A booking that met another's lock (slot_locked) is sent again, as its hint says, until its answer is final.
      const settle = async (i: number) => {
        const start = first + i * 30 * 60_000;
        for (;;) {
          const answer = await book(
            servers[i % 2]!.base,
            et.token,
            { start: new Date(start).toISOString(), end: new Date(start + 30 * 60_000).toISOString() },
            i,
          );
          if (answer.body.code !== "slot_locked") return answer;
        }
      };
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => settle(i)));
      expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
      expect(answers.filter((a) => a.body.success)).toHaveLength(3);
      expect(answers.filter((a) => !a.body.success).map((a) => a.body.code)).toEqual(Array(37).fill("limit_reached"));
      expect(await store.reservations.seatHolders(et.id, first, first + 24 * HOUR_MS, Date.now())).toHaveLength(3);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 60_000);

  it("never double-books overlapping slots of different starts, 200 at once through two instances", async () => {
    // One-hour meetings every 15 minutes with a 10-minute buffer: each request overlaps its neighbours.
    const et = await new EventTypeAdmin(store, Date.now).create({
      hosts: await ownHost(),
      title: "overlapping slots",
      timezone: "UTC",
      seats: 1,
      minNoticeMinutes: 0,
      durationMinutes: 60,
      slotIntervalMinutes: 15,
      bufferBeforeMinutes: 10,
      availability: { weekly, overrides: [] },
    });
    const servers = await instances(2, { RATE_LIMIT_PER_MINUTE: "100000" });
    try {
      const first = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 3);
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => {
          const start = first + (i % 40) * 15 * 60_000;
          return book(servers[i % 2]!.base, et.token, { start: new Date(start).toISOString(), end: new Date(start + HOUR_MS).toISOString() }, i);
        }),
      );
      for (const lost of answers.filter((a) => !a.body.success)) expect(["slot_locked", "slot_unavailable"]).toContain(lost.body.code);
      const booked = (await store.reservations.seatHolders(et.id, first - HOUR_MS, first + 12 * HOUR_MS, Date.now())).sort((x, y) => x.startMs - y.startMs);
      expect(booked.length).toBe(answers.filter((a) => a.body.success).length);
      expect(booked.length).toBeGreaterThan(0);
      // Buffered spans never overlap: each booking starts at least an hour and ten minutes after the previous one.
      for (let i = 1; i < booked.length; i++) expect(booked[i]!.startMs - booked[i - 1]!.startMs).toBeGreaterThanOrEqual(HOUR_MS + 10 * 60_000);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 60_000);

  it(`judges exactly ${SIGN_IN_ATTEMPTS} of 100 wrong console keys sent at once from one address to two instances, and refuses the rest with 429`, async () => {
    const servers = await instances(2, { RATE_LIMIT_PER_MINUTE: "100000", BOOKING_ADMIN_KEY: "pg-instances-admin-key-0123456789" });
    try {
      const statuses = await signInBurst(servers, 100);
      expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_ATTEMPTS);
      expect(statuses.filter((s) => s === 429)).toHaveLength(100 - SIGN_IN_ATTEMPTS);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  });

  it("holds the rate limit across instances: 60 a minute for a token from one address, whichever instance answers", async () => {
    const et = await eventType(1);
    const servers = await instances(2, { RATE_LIMIT_PER_MINUTE: "60" });
    try {
      // Near a window's edge the count would restart midway; start early in a minute.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 40_000) await Bun.sleep(60_000 - intoMinute + 100);
      const statuses: number[] = [];
      for (let i = 0; i < 80; i++)
        statuses.push((await fetch(`${servers[i % 2]!.base}/configuration`, { headers: { authorization: `Bearer ${et.token}` } })).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 90_000);

  it.each(["API token", "link token"] as const)(
    "never lets 120 browser requests from one address with the %s, spread over two instances, make another address get 429",
    async (kind) => {
      const et = await eventType(1);
      const token = kind === "API token" ? et.token : et.linkToken;
      const servers = await instances(2, { RATE_LIMIT_PER_MINUTE: "60", BOOKING_TRUST_PROXY: "1" });
      try {
        const intoMinute = Date.now() % 60_000;
        if (intoMinute > 40_000) await Bun.sleep(60_000 - intoMinute + 100);
        const from = (i: number, address: string) =>
          fetch(`${servers[i % 2]!.base}/configuration`, {
            headers: { authorization: `Bearer ${token}`, origin: "https://shop.example.com", "x-forwarded-for": address },
          });
        const statuses: number[] = [];
        for (let i = 0; i < 120; i++) statuses.push((await from(i, "203.0.113.5")).status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(60);
        expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
        for (const [i, address] of ["198.51.100.7", "192.0.2.1"].entries()) {
          const other = await from(i, address);
          expect(other.status, address).toBe(200);
          expect(other.headers.get("x-ratelimit-remaining"), address).toBe("59");
        }
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    },
    90_000,
  );

  it("keeps every booking a client saw succeed when an instance is killed with SIGKILL mid-burst, and none beyond the seats", async () => {
    const et = await eventType(1);
    const [victim, survivor] = await instances(2, { RATE_LIMIT_PER_MINUTE: "100000" });
    try {
      const slots = Array.from({ length: 30 }, (_, i) => slotAt(3 + Math.floor(i / 20), i % 20));
      // Each slot is asked for three times, through both instances, while one of them dies.
      const burst = slots.flatMap((slot, i) =>
        [0, 1, 2].map((k) => book([victim!, survivor!][(i + k) % 2]!.base, et.token, slot, i * 3 + k).catch(() => null)),
      );
      await Bun.sleep(30);
      victim!.kill("SIGKILL");
      const answers = await Promise.all(burst);
      const succeeded = answers.filter((a) => a?.body.success).map((a) => a!.body.data!.uuid);
      expect(succeeded.length).toBeGreaterThan(0);
      for (const uuid of succeeded) expect(await store.reservations.byUuid(et.id, uuid)).not.toBeNull();
      for (const slot of slots) expect(await seatsTaken(et.id, slot)).toBeLessThanOrEqual(1);
      // The survivor still books.
      const after = await book(survivor!.base, et.token, slotAt(5, 12), 999);
      expect(after.body.success).toBe(true);
    } finally {
      await Promise.all([victim, survivor].map((s) => s!.stop().catch(() => undefined)));
    }
  }, 60_000);
});
