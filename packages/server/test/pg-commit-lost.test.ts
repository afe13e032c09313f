import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { ManualClock } from "../src/clock.ts";
import { EventTypeAdmin } from "../src/modules/event-types/organizer.ts";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import type { Store } from "../src/store/store.ts";
import { newFeedToken, POSTGRES_URL, postgresSkipReason } from "./utils.ts";

/**
 * A booking with an Idempotency-Key whose connection to PostgreSQL is lost around its COMMIT: the
 * client cannot know whether the booking was saved, so its answer is a 503, and a retry with the
 * same key must learn the truth from the database, answering the booking that was saved or booking
 * once if nothing was, never twice.
 */
const problem = await postgresSkipReason();
const skip = problem !== null;

const schema = `lost_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const allDay = [{ start: "00:00", end: "24:00" }];
const weekly = { monday: allDay, tuesday: allDay, wednesday: allDay, thursday: allDay, friday: allDay, saturday: allDay, sunday: allDay };
const NOW = "2030-03-04T07:00:00Z";
let store: Store;
let killer: pg.Client;

beforeAll(async () => {
  if (skip) return;
  store = await openPostgresStore(POSTGRES_URL, { schema, poolSize: 4 });
  killer = new pg.Client({ connectionString: POSTGRES_URL });
  await killer.connect();
});

afterAll(async () => {
  if (skip) return;
  await store.close();
  await killer.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await killer.end();
});

/**
 * Where the next claim's COMMIT (the statements that end a seat change, sent with COMMIT) loses its
 * connection: `before` terminates the session's backend before the COMMIT is sent, so nothing is
 * saved; `after` lets the COMMIT run and then terminates the backend before its answer is read, as a
 * network that fails at that moment does, so the booking is saved but the client never hears it.
 */
let armed: "before" | "after" | null = null;
type Query = (this: pg.Client, ...args: unknown[]) => unknown;
const query = pg.Client.prototype.query as Query;
afterEach(() => {
  armed = null;
  pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
});

function loseNextCommit(when: "before" | "after"): void {
  armed = when;
  const patched: Query = function (...args) {
    const text = typeof args[0] === "string" ? args[0] : "";
    const claimCommit = /seat_revisions|host_revisions/.test(text) && /COMMIT\s*$/.test(text);
    if (armed === null || !claimCommit) return query.apply(this, args);
    const moment = armed;
    armed = null;
    return loseAround(this, moment, () => query.apply(this, args) as Promise<unknown>);
  };
  pg.Client.prototype.query = patched as typeof pg.Client.prototype.query;
}

/** Runs `commit` with the session's backend terminated before it, or after it and before its answer is read. */
async function loseAround(client: pg.Client, moment: "before" | "after", commit: () => Promise<unknown>): Promise<unknown> {
  const pid = (client as unknown as { processID: number }).processID;
  // With a timeout, pg_terminate_backend returns once the backend is gone.
  const terminate = () => killer.query("SELECT pg_terminate_backend($1, 5000)", [pid]);
  if (moment === "before") {
    await terminate();
    return commit();
  }
  await commit();
  await terminate();
  throw new Error("Connection terminated unexpectedly");
}

async function world() {
  const host = await store.hosts.create(
    { name: `Host ${crypto.randomUUID().slice(0, 8)}`, email: null, timezone: "UTC", avatarUrl: null, feedToken: newFeedToken() },
    Date.parse(NOW),
  );
  const clock = new ManualClock(NOW);
  const et = await new EventTypeAdmin(store, () => clock.now()).create({
    hosts: [{ hostId: host.id }],
    title: "Lost commits",
    timezone: "UTC",
    seats: 1,
    minNoticeMinutes: 0,
    durationMinutes: 60,
    slotIntervalMinutes: 60,
    availability: { weekly, overrides: [] },
  });
  const app = createApp({ store, clock, config: { rateLimit: { limit: 100_000, windowSeconds: 60 } }, log: () => undefined });
  const book = async (key: string, start: string) => {
    const response = await app.handle(
      new Request("http://localhost/reservations", {
        method: "POST",
        headers: { authorization: `Bearer ${et.token}`, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({
          start,
          end: new Date(Date.parse(start) + 3_600_000).toISOString(),
          email: "ada@example.com",
          firstname: "Ada",
          lastname: "Lovelace",
        }),
      }),
    );
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  const reservations = async () =>
    (await killer.query<{ uuid: string }>(`SELECT uuid FROM "${schema}".reservations WHERE event_type_id = $1`, [et.id])).rows.map((r) => r.uuid);
  return { book, reservations };
}

describe.skipIf(skip)(skip ? `a booking whose COMMIT loses its connection (skipped: ${problem})` : "a booking whose COMMIT loses its connection", () => {
  it("answers 503 with Retry-After, and the retry with the same key answers the booking that was saved, booking nothing twice", async () => {
    const { book, reservations } = await world();
    loseNextCommit("after");
    const lost = await book("key-after", "2030-03-05T09:00:00Z");
    expect(lost.status, JSON.stringify(lost.body)).toBe(503);
    expect(lost.body.code).toBe("service_unavailable");
    expect(Number(lost.headers.get("retry-after"))).toBeGreaterThan(0);
    // Not the 503 of an unreachable database, which promises that nothing was changed.
    expect(lost.body.message).toMatch(/may or may not have been saved/);
    expect(lost.body.hint).toMatch(/same Idempotency-Key/);
    const saved = await reservations();
    expect(saved).toHaveLength(1);

    const retry = await book("key-after", "2030-03-05T09:00:00Z");
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toMatchObject({ success: true, data: { uuid: saved[0] } });
    // The answer the booking would have had: the same fields as one whose COMMIT answered.
    const answered = await book("key-answered", "2030-03-05T11:00:00Z");
    expect(Object.keys(retry.body.data).sort()).toEqual(Object.keys(answered.body.data).sort());
    // The answer is stored now: the next retry replays it as any other.
    const again = await book("key-after", "2030-03-05T09:00:00Z");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(retry.body);
    expect((await reservations()).filter((uuid) => uuid !== answered.body.data.uuid)).toEqual(saved);
  });

  it("answers 503, and the retry with the same key books once when the connection died before the COMMIT saved anything", async () => {
    const { book, reservations } = await world();
    loseNextCommit("before");
    const lost = await book("key-before", "2030-03-05T10:00:00Z");
    expect(lost.status, JSON.stringify(lost.body)).toBe(503);
    // The client cannot tell a COMMIT that never arrived from an answer that never came back.
    expect(lost.body.message).toMatch(/may or may not have been saved/);
    expect(await reservations()).toEqual([]);

    const retry = await book("key-before", "2030-03-05T10:00:00Z");
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body.success).toBe(true);
    expect(await reservations()).toEqual([retry.body.data.uuid]);
  });
});
