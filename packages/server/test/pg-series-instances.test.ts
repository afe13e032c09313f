import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventTypeAdmin } from "../src/modules/event-types/organizer.ts";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import type { Store } from "../src/store/store.ts";
import { startServerProcess } from "./server-process.ts";
import { POSTGRES_URL, newFeedToken, postgresSkipReason } from "./utils.ts";

/**
 * Two real server processes (`src/main.ts`) on one PostgreSQL schema, as pg-instances.test.ts runs
 * them, booking overlapping series at once: each series is claimed in one transaction, so it is
 * booked whole or not at all, and no time of the host is ever taken twice.
 */
const problem = await postgresSkipReason();
const skip = problem !== null;

const schema = `series_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const allDay = [{ start: "00:00", end: "24:00" }];
const weekly = { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay };
const DAY_MS = 86_400_000;
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

describe.skipIf(skip)(skip ? `series through several instances on PostgreSQL (skipped: ${problem})` : "series through several instances on PostgreSQL", () => {
  it("books 40 overlapping series sent at once to two instances whole or not at all, never one time twice", async () => {
    const host = await store.hosts.create({ name: "Series host", email: null, timezone: "UTC", avatarUrl: null, feedToken: newFeedToken() }, Date.now());
    const et = await new EventTypeAdmin(store, Date.now).create({
      hosts: [{ hostId: host.id }],
      title: "Weekly coaching",
      timezone: "UTC",
      minNoticeMinutes: 0,
      durationMinutes: 60,
      slotIntervalMinutes: 60,
      horizonDays: 120,
      availability: { weekly, overrides: [] },
      recurrence: { maxOccurrences: 8, intervals: ["weekly"] },
    });
    const servers = await Promise.all(
      [0, 1].map(() => startServerProcess({ DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, STRIPE_STANDIN: "0", RATE_LIMIT_PER_MINUTE: "100000" })),
    );
    try {
      const today = new Date();
      const base = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 2, 10);
      const book = (i: number) => {
        // Series of 4 starting 0 to 3 weeks apart, at 10:00 or 11:00 UTC: neighbours share weeks.
        const startMs = base + (i % 4) * 7 * DAY_MS + (i % 8 < 4 ? 0 : 3_600_000);
        const body = {
          start: new Date(startMs).toISOString(),
          end: new Date(startMs + 3_600_000).toISOString(),
          email: `visitor${i}@example.com`,
          recurrence: { interval: "weekly", count: 4 },
        };
        return fetch(`${servers[i % 2]!.base}/reservations`, {
          method: "POST",
          headers: { authorization: `Bearer ${et.token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { success: boolean; code?: string; data?: { seriesId: string } } }));
      };
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => book(i)));
      const won = answers.filter((a) => a.status === 200 && a.body.success);
      expect(won.length).toBeGreaterThanOrEqual(2);
      for (const lost of answers.filter((a) => !(a.status === 200 && a.body.success))) {
        expect(["409 series_unavailable", "200 slot_locked"]).toContain(`${lost.status} ${lost.body.code}`);
      }
      const all = await store.reservations.list(et.id, { fromMs: 0, untilMs: base + 365 * DAY_MS, limit: 1000 });
      expect(all).toHaveLength(won.length * 4);
      for (const a of won) expect(all.filter((r) => r.seriesId === a.body.data!.seriesId)).toHaveLength(4);
      expect(new Set(all.map((r) => r.startMs)).size).toBe(all.length);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 90_000);
});
