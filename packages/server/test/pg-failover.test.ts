import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventTypeAdmin } from "../src/modules/event-types/organizer.ts";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import type { Store } from "../src/store/store.ts";
import { startServerProcess } from "./server-process.ts";
import { POSTGRES_URL, postgresSkipReason } from "./utils.ts";

/**
 * A real server process (`src/main.ts`) on PostgreSQL while the database ends its sessions, as a
 * restart or a failover does: the process must stay up, answer each request with the spec's JSON,
 * and book again once the database is back.
 */
const problem = await postgresSkipReason();
const skip = problem !== null;

const schema = `fail_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const allDay = [{ start: "00:00", end: "24:00" }];
const weekly = { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay };
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

/** A slot `daysAhead` days ahead at `minute` minutes past midnight UTC, as the API takes it. */
function slotAt(daysAhead: number, minute: number) {
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + daysAhead) + minute * 60_000);
  return { start: start.toISOString(), end: new Date(start.getTime() + 15 * 60_000).toISOString() };
}

/** One request's answer as the client saw it: status, the Retry-After header and the JSON body (or what broke instead). */
interface Seen {
  status: number;
  retryAfter: string | null;
  body: { success?: boolean; code?: string } | string;
}

async function ask(url: string, init: RequestInit): Promise<Seen> {
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    let body: Seen["body"];
    try {
      body = JSON.parse(text) as Seen["body"];
    } catch {
      body = `not JSON: ${text.slice(0, 200)}`;
    }
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body };
  } catch (error) {
    return { status: 0, retryAfter: null, body: `no answer: ${error instanceof Error ? error.message : String(error)}` };
  }
}

describe.skipIf(skip)(
  skip ? `a server process while PostgreSQL ends its sessions (skipped: ${problem})` : "a server process while PostgreSQL ends its sessions",
  () => {
    it("stays up while its backends are terminated every 30 ms for 4 s under load, answers 503 or slot_locked with Retry-After meanwhile, and books again after", async () => {
      const et = await new EventTypeAdmin(store, Date.now).create({
        title: "failover",
        timezone: "UTC",
        seats: 1,
        minNoticeMinutes: 0,
        durationMinutes: 15,
        slotIntervalMinutes: 15,
        availability: { weekly, overrides: [] },
      });
      const server = await startServerProcess({ DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, STRIPE_STANDIN: "0", RATE_LIMIT_PER_MINUTE: "1000000" });
      const killer = new pg.Client({ connectionString: POSTGRES_URL });
      await killer.connect();
      const seen: Seen[] = [];
      let terminated = 0;
      try {
        const headers = { authorization: `Bearer ${et.token}`, "content-type": "application/json" };
        let stop = false;
        let booking = 0;
        // Four clients booking distinct slots and reading slots, without pause, while the sessions die.
        const load = Array.from({ length: 4 }, async (_, worker) => {
          while (!stop) {
            const i = booking++;
            const slot = slotAt(2 + Math.floor(i / 96), (i % 96) * 15);
            seen.push(
              await ask(`${server.base}/reservations`, { method: "POST", headers, body: JSON.stringify({ ...slot, email: `visitor${i}@example.com` }) }),
            );
            const day = slotAt(2, 0).start.slice(0, 10);
            seen.push(await ask(`${server.base}/time-slots?from=${day}&until=${day}`, { headers }));
            if (worker === 0) seen.push(await ask(`${server.base}/configuration`, { headers }));
          }
        });
        // Only this server's sessions (its pools name themselves after the schema), never another test's.
        const until = Date.now() + 4_000;
        while (Date.now() < until) {
          const { rowCount } = await killer.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE $1 AND pid <> pg_backend_pid()",
            [`booking-calendar/${schema}%`],
          );
          terminated += rowCount ?? 0;
          await Bun.sleep(30);
        }
        stop = true;
        await Promise.all(load);

        expect(terminated).toBeGreaterThan(0);
        expect(server.exited(), server.output().slice(-3000)).toBe(false);
        const failed = seen.filter((s) => s.status !== 200 || (typeof s.body === "object" && s.body.success !== true));
        // Every answer was the spec's JSON: a success, or a refusal that says to come back.
        for (const answer of failed) {
          expect(answer, JSON.stringify(answer)).toMatchObject({ body: { success: false } });
          const code = (answer.body as { code: string }).code;
          if (answer.status === 200) expect(["slot_locked", "slot_unavailable"]).toContain(code);
          else expect(answer).toMatchObject({ status: 503, body: { code: "service_unavailable" } });
          if (code !== "slot_unavailable") expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        }
        expect(failed.length).toBeGreaterThan(0);

        const after = await ask(`${server.base}/reservations`, {
          method: "POST",
          headers,
          body: JSON.stringify({ ...slotAt(9, 0), email: "after@example.com" }),
        });
        expect(after).toMatchObject({ status: 200, body: { success: true } });
        expect(server.exited()).toBe(false);
      } finally {
        await killer.end();
        await server.stop().catch(() => undefined);
      }
    }, 60_000);
  },
);
