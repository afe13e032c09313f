import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../src/domain/event-type.ts";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import { seatLocks, type SeatLock } from "../src/store/postgres/claim.ts";
import { POSTGRES_MIGRATIONS } from "../src/store/postgres/migrations.ts";
import { openSqliteStore } from "../src/store/sqlite/index.ts";
import { StoreBusyError } from "../src/store/errors.ts";
import type { EventTypeRecord } from "../src/store/event-types.ts";
import type { OutboxEvent } from "../src/store/outbox.ts";
import type { ReservationRecord, SeatDecision } from "../src/store/reservations.ts";
import type { Store } from "../src/store/store.ts";
import { reservation } from "./utils.ts";

/**
 * The PostgreSQL engine against a real server (BOOKING_TEST_DATABASE_URL, else the local test database).
 * Every run works in its own schemas (`t_<random>...`), dropped afterwards. Without a reachable
 * server the suite is skipped, except in CI (CI=true), where it fails.
 */
const PG_URL = process.env.BOOKING_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const RUN = `t_${Math.random().toString(36).slice(2, 10)}`;
const HOUR = 3_600_000;
const T = Date.parse("2026-11-23T07:00:00Z");

async function unreachableReason(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return null;
  } catch (error) {
    return `PostgreSQL at ${url.replace(/:[^:@/]*@/, ":***@")} is unreachable (${error instanceof Error ? error.message || error.name : String(error)})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unreachable = await unreachableReason(PG_URL);
const skip = unreachable !== null && process.env.CI !== "true";
if (unreachable !== null) console.warn(`${skip ? "Skipping" : "Failing (CI)"} the PostgreSQL store tests: ${unreachable}`);

const schemas: string[] = [];
const opened: Store[] = [];

/** A schema of this run, dropped in afterAll. */
function schemaFor(suffix: string): string {
  const name = suffix === "" ? RUN : `${RUN}_${suffix}`;
  schemas.push(name);
  return name;
}

async function open(schema: string, options: Parameters<typeof openPostgresStore>[1] = {}): Promise<Store> {
  const store = await openPostgresStore(PG_URL, { schema, ...options });
  opened.push(store);
  return store;
}

/** A plain connection beside the stores, to look at and interfere with what they do. */
async function adminOn(schema: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`SET search_path TO ${schema}`);
  return client;
}

let tokenCounter = 0;
async function eventType(store: Store, seats = 1): Promise<EventTypeRecord> {
  tokenCounter++;
  return store.eventTypes.create(
    {
      disabled: false,
      tokenHash: `${RUN}-token-${tokenCounter}`,
      overrideTokenHash: `${RUN}-override-${tokenCounter}`,
      slug: null,
      linkToken: `bcl_${RUN}-link-${tokenCounter}`,
      settings: { ...DEFAULT_SETTINGS, title: `Event ${tokenCounter}`, seats },
      webhookSecret: `whsec_${tokenCounter}`,
    },
    new Date(T).toISOString(),
  );
}

function outboxEvent(r: ReservationRecord, kind: OutboxEvent["kind"] = "reservation.created"): OutboxEvent {
  return {
    eventTypeId: r.eventTypeId,
    reservationUuid: r.uuid,
    kind,
    msgId: `msg_${crypto.randomUUID()}`,
    url: "https://receiver.example/hook",
    payload: JSON.stringify({ type: kind, data: { uuid: r.uuid }, z: 1, a: 2 }),
    createdAtMs: T,
  };
}

/** Claims a seat of [start, start + 1 h) for a new reservation if fewer than `seats` hold it. */
function book(store: Store, et: EventTypeRecord, startIso: string, seats: number, extra: Partial<ReservationRecord> = {}, events = false) {
  const record = reservation(et.id, startIso, 60, { createdAtMs: T, updatedAtMs: T, ...extra });
  return store.reservations.claim(
    { eventTypeId: et.id, fromMs: record.startMs, untilMs: record.endMs, nowMs: T },
    (holders): SeatDecision => (holders.length < seats ? { write: record, events: events ? [outboxEvent(record)] : [] } : { refuse: "slot_unavailable" }),
  );
}

describe("the advisory locks of a seat claim", () => {
  const M = 60_000;
  const at = (iso: string) => Date.parse(iso);
  const meet = (x: SeatLock[], y: SeatLock[]) => x.some((l) => y.some((m) => m.bucket === l.bucket && (m.exclusive || l.exclusive)));

  it("keep claims whose buffered spans only touch apart, and make overlapping ones meet on an exclusive lock", () => {
    // 30-minute meetings with a 15-minute buffer after, every 45 minutes: windows overlap in the buffers.
    const claimAt = (startMs: number) => seatLocks({ fromMs: startMs - 15 * M, untilMs: startMs + 45 * M }, { startMs, endMs: startMs + 30 * M });
    const nine = claimAt(at("2026-12-01T09:00:00Z"));
    expect(meet(nine, claimAt(at("2026-12-01T09:45:00Z")))).toBe(false);
    expect(meet(nine, claimAt(at("2026-12-01T08:15:00Z")))).toBe(false);
    expect(meet(nine, claimAt(at("2026-12-01T09:40:00Z")))).toBe(true);
    expect(meet(nine, claimAt(at("2026-12-01T09:00:00Z")))).toBe(true);
    // In ascending order, each bucket once.
    const buckets = nine.map((l) => l.bucket);
    expect(buckets).toEqual([...new Set(buckets)].sort((x, y) => x - y));
  });

  it("lock a long meeting in coarse buckets, which every overlapping short claim meets, with few locks either way", () => {
    const day = at("2026-12-01T00:00:00Z");
    const long = seatLocks({ fromMs: day - 1440 * M, untilMs: day + 2 * 1440 * M }, { startMs: day, endMs: day + 1440 * M });
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long.every((l) => l.exclusive && l.bucket < 0)).toBe(true);
    const short = (startMs: number) => seatLocks({ fromMs: startMs, untilMs: startMs + 30 * M }, { startMs, endMs: startMs + 30 * M });
    expect(meet(long, short(day + 600 * M))).toBe(true);
    expect(meet(long, short(day - 1440 * M - 30 * M))).toBe(false);
    expect(short(day).length).toBeLessThanOrEqual(8);
  });
});

describe.skipIf(skip)(skip ? `PostgreSQL store (skipped: ${unreachable})` : "PostgreSQL store", () => {
  const schema = schemaFor("");
  let a: Store;
  let b: Store;

  beforeAll(async () => {
    a = await open(schema);
    b = await open(schema);
  }, 30_000);

  afterAll(async () => {
    for (const store of opened) await store.close().catch(() => undefined);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      for (const name of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    } finally {
      await admin.end();
    }
  }, 30_000);

  describe("opening", () => {
    it("applies each migration once when five instances open one fresh schema at the same time", async () => {
      const fresh = schemaFor("migrate");
      const stores = await Promise.all(Array.from({ length: 5 }, () => open(fresh)));
      const admin = await adminOn(fresh);
      try {
        const first = await admin.query("SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version");
        expect(first.rows).toEqual(POSTGRES_MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));
        await open(fresh);
        const again = await admin.query("SELECT count(*)::int AS n FROM schema_migrations");
        expect(again.rows[0].n).toBe(POSTGRES_MIGRATIONS.length);
        expect(await stores[4]!.eventTypes.count()).toBe(0);
      } finally {
        await admin.end();
      }
    });

    it("fails fast naming host and database, never the password, when nothing listens", async () => {
      const started = Date.now();
      const error = await openPostgresStore("postgres://booking:s3cret-pw@127.0.0.1:1/nowhere").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain("127.0.0.1:1/nowhere");
      expect((error as Error).message).not.toContain("s3cret-pw");
      expect(Date.now() - started).toBeLessThan(6_000);
    });

    it("fails with the server's reason when the database does not exist", async () => {
      const url = PG_URL.replace(/\/[^/?]*(\?|$)/, "/no_such_database_here$1");
      const error = (await openPostgresStore(url).catch((e: unknown) => e)) as Error;
      expect(error.message).toMatch(/no_such_database_here/);
      expect(error.message).toMatch(/does not exist/);
    });

    it("refuses a URL that is not a PostgreSQL URL", async () => {
      await expect(openPostgresStore("mysql://root:pw@localhost/db")).rejects.toThrow(/postgres:\/\//);
      await expect(openPostgresStore(PG_URL, { schema: "Bad-Name" })).rejects.toThrow(/schema/);
    });
  });

  describe("records", () => {
    it("reads back event types and reservations exactly as the SQLite engine does", async () => {
      const sqlite = openSqliteStore(":memory:");
      try {
        const input = {
          disabled: true,
          tokenHash: `${RUN}-parity`,
          overrideTokenHash: `${RUN}-parity-o`,
          slug: "parity-check",
          linkToken: `bcl_${RUN}-parity`,
          settings: {
            ...DEFAULT_SETTINGS,
            title: "Parity",
            customFields: [],
            theme: { mode: "dark" as const, borderRadius: "4px", colors: { primary: "#123" } },
          },
          webhookSecret: "whsec_parity",
          feedToken: `bcf_${RUN}-parity`,
        };
        const fromPg = await a.eventTypes.create(input, "2026-11-23T07:00:00.000Z");
        const fromSqlite = await sqlite.eventTypes.create(input, "2026-11-23T07:00:00.000Z");
        expect(JSON.stringify({ ...fromPg, id: 0 })).toBe(JSON.stringify({ ...fromSqlite, id: 0 }));

        const records = [
          reservation(fromPg.id, "2026-12-01T08:00:00Z", 45, { location: null, guests: ["a@example.com", "b@example.com"] }),
          reservation(fromPg.id, "2026-12-01T09:00:00Z", 30, {
            status: "held",
            heldUntilMs: T + 600_000,
            timezone: "Europe/Prague",
            customFields: [{ uuid: "f1", value: "ACME" }],
            payment: {
              intentId: `pi_${RUN}`,
              account: "acct_1",
              amount: 1500,
              currency: "eur",
              status: "pending",
              billing: { city: "Brno" },
              succeededAtMs: null,
            },
          }),
          reservation(fromPg.id, "2026-12-02T08:00:00Z", 60, { status: "cancelled", cancelledAtMs: T, meetLink: "https://meet.example/x" }),
        ];
        await a.reservations.insertMany(records);
        await sqlite.reservations.insertMany(records.map((r) => ({ ...r, eventTypeId: fromSqlite.id })));
        const same = (x: unknown, y: unknown) =>
          expect(JSON.stringify(x, (k, v) => (k === "eventTypeId" ? 0 : v))).toBe(JSON.stringify(y, (k, v) => (k === "eventTypeId" ? 0 : v)));

        for (const r of records) {
          same(await a.reservations.byUuid(fromPg.id, r.uuid), await sqlite.reservations.byUuid(fromSqlite.id, r.uuid));
          expect(await a.reservations.byUuid(fromPg.id, r.uuid)).toEqual(r);
        }
        same(await a.reservations.byPaymentIntent(`pi_${RUN}`), await sqlite.reservations.byPaymentIntent(`pi_${RUN}`));
        const window = { fromMs: Date.parse("2026-12-01T00:00:00Z"), untilMs: Date.parse("2026-12-03T00:00:00Z"), limit: 10 };
        for (const statuses of [undefined, ["held", "confirmed"] as const, [] as const]) {
          const q = statuses ? { ...window, statuses: [...statuses] } : window;
          same(await a.reservations.list(fromPg.id, q), await sqlite.reservations.list(fromSqlite.id, q));
        }
        expect((await a.reservations.list(fromPg.id, { ...window, statuses: ["cancelled"] })).map((r) => r.uuid)).toEqual([records[2]!.uuid]);
        same(
          await a.reservations.seatHolders(fromPg.id, window.fromMs, window.untilMs, T),
          await sqlite.reservations.seatHolders(fromSqlite.id, window.fromMs, window.untilMs, T),
        );
        expect(await a.reservations.seatHolders(fromPg.id, window.fromMs, window.untilMs, T + HOUR)).toHaveLength(1);
      } finally {
        await sqlite.close();
      }
    });

    it("creates, finds, lists, updates and deletes event types, with revisions every instance sees", async () => {
      const et = await eventType(a);
      // An event type's revision counts its host's: the default host, shared with earlier tests, may have moved already.
      const first = et.revision;
      expect(first).toBeGreaterThanOrEqual(1);
      expect(et.webhookDisabledAtMs).toBeNull();
      expect(await b.eventTypes.byId(et.id)).toEqual(et);
      expect(await a.eventTypes.byTokenHash(et.tokenHash)).toBe(et);
      expect((await b.eventTypes.list()).map((e) => e.id)).toContain(et.id);
      expect(await a.eventTypes.count()).toBe((await b.eventTypes.list()).length);

      const updated = await b.eventTypes.update(et.id, { disabled: true, webhookDisabledAtMs: T }, "2026-11-24T00:00:00.000Z");
      expect(updated).toMatchObject({
        id: et.id,
        revision: first + 1,
        disabled: true,
        webhookDisabledAtMs: T,
        updatedAt: "2026-11-24T00:00:00.000Z",
        createdAt: et.createdAt,
      });
      // A booking through one instance is seen by the other's cache through the revision.
      expect(await book(b, et, "2026-12-01T10:00:00Z", 1)).toHaveProperty("record");
      const seen = await a.eventTypes.byTokenHash(et.tokenHash);
      expect(seen!.revision).toBe(first + 2);
      expect(seen!.disabled).toBe(true);

      expect(await a.eventTypes.update(999_999_999, { disabled: true }, "x")).toBeNull();
      expect(await a.eventTypes.delete(et.id)).toBe(true);
      expect(await a.eventTypes.delete(et.id)).toBe(false);
      expect(await b.eventTypes.byId(et.id)).toBeNull();
      expect(await b.reservations.list(et.id, { fromMs: 0, untilMs: Number.MAX_SAFE_INTEGER, limit: 10 })).toEqual([]);
    });
  });

  describe("seat claims", () => {
    it("judges holds by the database's clock with databaseTime, whatever the calling host's clock says", async () => {
      const timed = await open(schema, { databaseTime: true });
      const et = await eventType(timed, 1);
      const realNow = Date.now();
      // A hold that the database sees running for ten more minutes.
      const hold = reservation(et.id, "2026-12-09T10:00:00Z", 60, {
        status: "held",
        heldUntilMs: realNow + 10 * 60_000,
        createdAtMs: realNow,
        updatedAtMs: realNow,
      });
      await timed.reservations.insertMany([hold]);
      // A host whose clock runs an hour ahead thinks the hold expired; the database says it holds.
      const ahead = realNow + HOUR;
      const claimFrom = (store: Store) =>
        store.reservations.claim({ eventTypeId: et.id, fromMs: hold.startMs, untilMs: hold.endMs, nowMs: ahead }, (holders, _current, at): SeatDecision => {
          expect(Math.abs(at - (store === timed ? realNow : ahead))).toBeLessThan(60_000);
          return holders.length < 1
            ? { write: reservation(et.id, "2026-12-09T10:00:00Z", 60, { createdAtMs: at, updatedAtMs: at }) }
            : { refuse: "slot_unavailable" };
        });
      expect(await claimFrom(timed)).toEqual({ refused: "slot_unavailable" });
      // Without it the caller's clock decides, which is what a single host (and a test's clock) wants.
      expect("record" in (await claimFrom(a))).toBe(true);
    });

    it("lets exactly one of 100 concurrent claims from two instances take a one-seat slot", async () => {
      const et = await eventType(a, 1);
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          book(i % 2 ? a : b, et, "2026-12-03T10:00:00Z", 1, { email: `v${i}@example.com` }).then(
            (o) => ("record" in o ? "written" : "refused"),
            (e: unknown) => (e instanceof StoreBusyError ? "busy" : e),
          ),
        ),
      );
      expect(outcomes.filter((o) => o === "written")).toHaveLength(1);
      expect(outcomes.every((o) => o === "written" || o === "refused" || o === "busy")).toBe(true);
      const start = Date.parse("2026-12-03T10:00:00Z");
      expect(await a.reservations.seatHolders(et.id, start, start + HOUR, T)).toHaveLength(1);
    });

    it("fills a three-seat slot with exactly three of 100 claims that retry while the slot is locked", async () => {
      const et = await eventType(a, 3);
      const claimUntilAnswered = async (store: Store, i: number) => {
        for (;;) {
          try {
            return "record" in (await book(store, et, "2026-12-03T11:00:00Z", 3, { email: `v${i}@example.com` })) ? "written" : "refused";
          } catch (error) {
            if (!(error instanceof StoreBusyError)) throw error;
            await Bun.sleep(1 + Math.random() * 10);
          }
        }
      };
      const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => claimUntilAnswered(i % 2 ? a : b, i)));
      expect(outcomes.filter((o) => o === "written")).toHaveLength(3);
      expect(outcomes.filter((o) => o === "refused")).toHaveLength(97);
      const start = Date.parse("2026-12-03T11:00:00Z");
      expect(await b.reservations.seatHolders(et.id, start, start + HOUR, T)).toHaveLength(3);
    });

    it("never lets overlapping claims of different lengths both write, long ones (coarse locks) against short ones (fine locks)", async () => {
      const et = await eventType(a, 1);
      const day = Date.parse("2026-12-10T00:00:00Z");
      const claims = Array.from({ length: 90 }, (_, i) => {
        // Six-hour meetings span more fine buckets than a claim takes; the others are 20 to 65 minutes long.
        const startMs = day + (i % 3 === 0 ? (i % 5) * HOUR : (i % 11) * 35 * 60_000);
        const endMs = startMs + (i % 3 === 0 ? 6 * HOUR : (20 + (i % 4) * 15) * 60_000);
        return { startMs, endMs, store: i % 2 ? a : b };
      });
      const claimUntilAnswered = async ({ startMs, endMs, store }: (typeof claims)[number], i: number) => {
        for (;;) {
          try {
            const record = {
              ...reservation(et.id, new Date(startMs).toISOString(), (endMs - startMs) / 60_000, { createdAtMs: T, updatedAtMs: T }),
              email: `v${i}@example.com`,
            };
            return await store.reservations.claim(
              { eventTypeId: et.id, fromMs: startMs, untilMs: endMs, nowMs: T },
              (holders): SeatDecision => (holders.length === 0 ? { write: record } : { refuse: "slot_unavailable" }),
            );
          } catch (error) {
            if (!(error instanceof StoreBusyError)) throw error;
            await Bun.sleep(1 + Math.random() * 10);
          }
        }
      };
      await Promise.all(claims.map(claimUntilAnswered));
      const written = (await a.reservations.seatHolders(et.id, day - HOUR, day + 24 * HOUR, T)).sort((x, y) => x.startMs - y.startMs);
      expect(written.length).toBeGreaterThan(0);
      for (let i = 1; i < written.length; i++) expect(written[i]!.startMs).toBeGreaterThanOrEqual(written[i - 1]!.endMs);
    });

    it("writes the reservation, its events, the key link, the longest length and a new revision in one transaction", async () => {
      const et = await eventType(a, 2);
      expect(await a.idempotency.begin(et.id, "key-1", "hash", T)).toEqual({ state: "new" });
      const first = et.revision;
      const record = reservation(et.id, "2026-12-04T08:00:00Z", 90, { createdAtMs: T, updatedAtMs: T });
      const event = outboxEvent(record);
      const outcome = await a.reservations.claim(
        { eventTypeId: et.id, fromMs: record.startMs, untilMs: record.endMs, nowMs: T, idempotencyKey: "key-1" },
        () => ({
          write: record,
          events: [event],
        }),
      );
      expect(outcome).toEqual({ record });
      expect(await b.reservations.byUuid(et.id, record.uuid)).toEqual(record);
      expect((await b.eventTypes.byId(et.id))!.revision).toBe(first + 1);
      expect((await b.webhooks.recent(et.id, 10)).map((d) => [d.msgId, d.payload, d.status, d.attempts])).toEqual([[event.msgId, event.payload, "pending", 0]]);
      expect(await b.idempotency.begin(et.id, "key-1", "hash", T + 60_000)).toEqual({ state: "saved", reservationUuid: record.uuid });
      // The longest reservation (90 min) now bounds the seat-holder scan: one that starts 80 min earlier still counts.
      const later = Date.parse("2026-12-04T09:20:00Z");
      expect((await a.reservations.seatHolders(et.id, later, later + HOUR, T)).map((h) => h.uuid)).toEqual([record.uuid]);
    });

    it("leaves the claimed reservation's own seat out and updates it by compare-and-set", async () => {
      const et = await eventType(a, 1);
      const held = reservation(et.id, "2026-12-05T08:00:00Z", 60, { status: "held", heldUntilMs: T + 600_000, createdAtMs: T, updatedAtMs: T });
      await a.reservations.insertMany([held]);
      let seen: { holders: number; current: ReservationRecord | null } | null = null;
      const confirmed = { ...held, status: "confirmed" as const, heldUntilMs: null, confirmedAtMs: T + 1, updatedAtMs: T + 1 };
      const outcome = await b.reservations.claim(
        { eventTypeId: et.id, fromMs: held.startMs, untilMs: held.endMs, nowMs: T + 1, uuid: held.uuid },
        (holders, current) => {
          seen = { holders: holders.length, current };
          return { write: confirmed };
        },
      );
      expect(seen).toEqual({ holders: 0, current: held });
      expect(outcome).toEqual({ record: confirmed });
      expect(await a.reservations.byUuid(et.id, held.uuid)).toEqual(confirmed);
    });

    it("writes nothing when the decision refuses, throws, or breaks a constraint", async () => {
      const et = await eventType(a, 1);
      const first = et.revision;
      const record = reservation(et.id, "2026-12-06T08:00:00Z", 60, { createdAtMs: T, updatedAtMs: T });
      const claim = { eventTypeId: et.id, fromMs: record.startMs, untilMs: record.endMs, nowMs: T };
      expect(await a.reservations.claim(claim, () => ({ refuse: "slot_unavailable" }))).toEqual({ refused: "slot_unavailable" });
      await expect(
        a.reservations.claim(claim, () => {
          throw new Error("decision failed");
        }),
      ).rejects.toThrow("decision failed");
      await expect(a.reservations.claim(claim, () => ({ write: { ...record, endMs: record.startMs }, events: [outboxEvent(record)] }))).rejects.toThrow(
        /reservations_end_after_start/,
      );
      const event = outboxEvent(record);
      await a.reservations.claim(claim, () => ({ write: record, events: [event] }));
      const other = reservation(et.id, "2026-12-06T10:00:00Z", 60);
      // A message id is written once: the UNIQUE constraint refuses a second event with it, and the reservation with it.
      await expect(
        a.reservations.claim({ ...claim, fromMs: other.startMs, untilMs: other.endMs }, () => ({
          write: other,
          events: [{ ...event, reservationUuid: other.uuid }],
        })),
      ).rejects.toThrow(/msg_id/);
      expect(await a.reservations.byUuid(et.id, other.uuid)).toBeNull();
      expect((await a.webhooks.recent(et.id, 10)).length).toBe(1);
      expect((await a.eventTypes.byId(et.id))!.revision).toBe(first + 1);
    });

    it("answers StoreBusyError after its short lock wait while an overlapping claim is under way, yet books a slot that cannot overlap meanwhile", async () => {
      const et = await eventType(a, 1);
      const admin = await adminOn(schema);
      try {
        // The claim of slow@ stalls inside its transaction, after taking its locks.
        await admin.query(`
          CREATE FUNCTION ${schema}.stall_insert() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.email = 'slow@example.com' THEN PERFORM pg_sleep(2); END IF; RETURN NEW; END $$;
          CREATE TRIGGER stall_insert BEFORE INSERT ON reservations FOR EACH ROW EXECUTE FUNCTION ${schema}.stall_insert();
        `);
        const slow = book(a, et, "2026-12-07T10:00:00Z", 1, { email: "slow@example.com" });
        // Under way once its exclusive advisory lock (its host's key, a bucket of its seat) is held.
        let held = false;
        for (let i = 0; i < 400 && !held; i++) {
          const locks = await admin.query(
            `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND mode = 'ExclusiveLock' AND classid = hashtext($1)::oid LIMIT 1`,
            [`${schema}:h${et.hosts[0]!.hostId}`],
          );
          held = locks.rowCount === 1;
          if (!held) await Bun.sleep(10);
        }
        expect(held).toBe(true);
        let slowDone = false;
        void slow.then(() => (slowDone = true));
        // Overlapping (half an hour in, from the other instance): waits a tenth of a second, then busy.
        const started = Date.now();
        const overlapping = a.reservations
          .claim({ eventTypeId: et.id, fromMs: Date.parse("2026-12-07T10:30:00Z"), untilMs: Date.parse("2026-12-07T11:30:00Z"), nowMs: T }, () => ({
            write: reservation(et.id, "2026-12-07T10:30:00Z", 60, { createdAtMs: T, updatedAtMs: T }),
          }))
          .then(
            () => null,
            (error: unknown) => error,
          );
        // Caught at once: it may give up before the other instance's claim does.
        await expect(
          b.reservations.claim(
            { eventTypeId: et.id, fromMs: Date.parse("2026-12-07T10:30:00Z"), untilMs: Date.parse("2026-12-07T11:30:00Z"), nowMs: T },
            () => ({ refuse: "x" }),
          ),
        ).rejects.toBeInstanceOf(StoreBusyError);
        expect(await overlapping).toBeInstanceOf(StoreBusyError);
        expect(Date.now() - started).toBeLessThan(1500);
        // The next hour and the hour before touch it but cannot overlap it: booked while it is still under way.
        expect(await book(b, et, "2026-12-07T11:00:00Z", 1)).toHaveProperty("record");
        expect(await book(a, et, "2026-12-07T09:00:00Z", 1)).toHaveProperty("record");
        expect(slowDone).toBe(false);
        expect(await slow).toHaveProperty("record");
        const start = Date.parse("2026-12-07T09:00:00Z");
        expect((await a.reservations.seatHolders(et.id, start, start + 3 * HOUR, T)).map((h) => new Date(h.startMs).toISOString())).toEqual([
          "2026-12-07T09:00:00.000Z",
          "2026-12-07T10:00:00.000Z",
          "2026-12-07T11:00:00.000Z",
        ]);
      } finally {
        await admin.query("DROP TRIGGER IF EXISTS stall_insert ON reservations");
        await admin.end();
      }
    });

    it("lets a write that frees a seat wait only for its own reservation's row, then answer StoreBusyError", async () => {
      const et = await eventType(a, 1);
      const r = reservation(et.id, "2026-12-07T14:00:00Z", 60, { createdAtMs: T, updatedAtMs: T });
      const other = reservation(et.id, "2026-12-07T15:00:00Z", 60, { createdAtMs: T, updatedAtMs: T });
      await a.reservations.insertMany([r, other]);
      const admin = await adminOn(schema);
      try {
        await admin.query("BEGIN");
        await admin.query("SELECT uuid FROM reservations WHERE uuid = $1 FOR UPDATE", [r.uuid]);
        await expect(a.reservations.save({ ...r, status: "cancelled", cancelledAtMs: T, updatedAtMs: T + 1 }, T)).rejects.toBeInstanceOf(StoreBusyError);
        expect(await b.reservations.save({ ...other, status: "cancelled", cancelledAtMs: T, updatedAtMs: T + 1 }, T)).toBe(true);
        await admin.query("ROLLBACK");
      } finally {
        await admin.end();
      }
      expect(await a.reservations.save({ ...r, status: "cancelled", cancelledAtMs: T, updatedAtMs: T + 1 }, T)).toBe(true);
    });

    it("retries serialization failures and deadlocks, then reports StoreBusyError instead of the raw error", async () => {
      const et = await eventType(a, 5);
      const admin = await adminOn(schema);
      try {
        // Inserts of marked visitors fail as a conflicting transaction would: a sequence counts the tries (it is not rolled back).
        await admin.query(`
          CREATE SEQUENCE tries_twice; CREATE SEQUENCE tries_always; CREATE SEQUENCE tries_deadlock;
          CREATE FUNCTION ${schema}.simulate_conflicts() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF NEW.email = 'twice@example.com' AND nextval('${schema}.tries_twice') <= 2 THEN RAISE EXCEPTION 'simulated' USING ERRCODE = '40001'; END IF;
            IF NEW.email = 'always@example.com' AND nextval('${schema}.tries_always') > 0 THEN RAISE EXCEPTION 'simulated' USING ERRCODE = '40001'; END IF;
            IF NEW.email = 'deadlock@example.com' AND nextval('${schema}.tries_deadlock') > 0 THEN RAISE EXCEPTION 'simulated' USING ERRCODE = '40P01'; END IF;
            RETURN NEW;
          END $$;
          CREATE TRIGGER simulate_conflicts BEFORE INSERT ON reservations FOR EACH ROW EXECUTE FUNCTION ${schema}.simulate_conflicts();
        `);
        expect(await book(a, et, "2026-12-08T08:00:00Z", 5, { email: "twice@example.com" })).toHaveProperty("record");
        await expect(book(a, et, "2026-12-08T08:00:00Z", 5, { email: "always@example.com" })).rejects.toBeInstanceOf(StoreBusyError);
        await expect(book(a, et, "2026-12-08T08:00:00Z", 5, { email: "deadlock@example.com" })).rejects.toBeInstanceOf(StoreBusyError);
        const tries = await admin.query(
          "SELECT (SELECT last_value FROM tries_twice) AS twice, (SELECT last_value FROM tries_always) AS always, (SELECT last_value FROM tries_deadlock) AS deadlock",
        );
        expect(tries.rows[0]).toEqual({ twice: "3", always: "4", deadlock: "4" });
        const start = Date.parse("2026-12-08T08:00:00Z");
        expect(await a.reservations.seatHolders(et.id, start, start + HOUR, T)).toHaveLength(1);
      } finally {
        await admin.query("DROP TRIGGER IF EXISTS simulate_conflicts ON reservations");
        await admin.end();
      }
    });
  });

  describe("changes without a new seat", () => {
    it("saves by compare-and-set, writes events only with the change and bumps the revision only when seats move", async () => {
      const et = await eventType(a, 1);
      const held = reservation(et.id, "2026-12-09T08:00:00Z", 60, { status: "held", heldUntilMs: T + 600_000, createdAtMs: T, updatedAtMs: T });
      await a.reservations.insertMany([held]);
      const revision = (await a.eventTypes.byId(et.id))!.revision;

      // A pending payment is a note: it changes no seat (a succeeded one would keep the hold's seat past its time).
      const paid = {
        ...held,
        payment: { intentId: `pi_save_${RUN}`, account: "acct", amount: 100, currency: "eur", status: "pending" as const, billing: {}, succeededAtMs: null },
        updatedAtMs: T + 1,
      };
      expect(await b.reservations.save(paid, T)).toBe(true);
      expect((await a.eventTypes.byId(et.id))!.revision).toBe(revision);
      expect(await a.reservations.byPaymentIntent(`pi_save_${RUN}`)).toEqual(paid);

      const stale = { ...held, status: "cancelled" as const, cancelledAtMs: T, updatedAtMs: T + 2 };
      expect(await a.reservations.save(stale, T, [outboxEvent(held, "reservation.cancelled")])).toBe(false);
      expect(await a.webhooks.recent(et.id, 10)).toEqual([]);

      const confirmed = { ...paid, status: "confirmed" as const, heldUntilMs: null, confirmedAtMs: T + 2, updatedAtMs: T + 2 };
      expect(await a.reservations.save(confirmed, T + 1, [outboxEvent(confirmed)])).toBe(true);
      expect((await b.eventTypes.byId(et.id))!.revision).toBe(revision + 1);
      expect((await b.webhooks.recent(et.id, 10)).map((d) => d.kind)).toEqual(["reservation.created"]);
      expect(await b.reservations.byUuid(et.id, held.uuid)).toEqual(confirmed);
    });

    it("sweeps like the SQLite engine: holds past their time expire, stale ones are cancelled, old keys and windows go", async () => {
      const own = schemaFor("sweep");
      const store = await open(own, { rateLimit: { limit: 5, windowSeconds: 60 } });
      const sqlite = openSqliteStore(":memory:");
      try {
        const et = await eventType(store, 1);
        const etSqlite = await eventType(sqlite, 1);
        const day = 24 * HOUR;
        const base = { createdAtMs: T - 2 * day, updatedAtMs: T - 2 * day };
        const records = [
          reservation(et.id, "2026-11-24T08:00:00Z", 60, { ...base, status: "held", heldUntilMs: T - 1 }),
          reservation(et.id, "2026-11-24T09:00:00Z", 60, { ...base, status: "held", heldUntilMs: T + 600_000 }),
          reservation(et.id, "2026-11-24T10:00:00Z", 60, { ...base, status: "expired", heldUntilMs: T - day - 1 }),
          reservation(et.id, "2026-11-23T06:00:00Z", 60, { ...base, status: "expired", heldUntilMs: T - HOUR }),
          reservation(et.id, "2026-11-25T08:00:00Z", 60, { ...base, status: "held", heldUntilMs: T - 2 * day }),
          reservation(et.id, "2026-11-26T08:00:00Z", 60, { ...base, updatedAtMs: T + 5 }),
        ];
        await store.reservations.insertMany(records);
        await sqlite.reservations.insertMany(records.map((r) => ({ ...r, eventTypeId: etSqlite.id })));
        await store.idempotency.begin(et.id, "old", "h", T - day - 1);
        await store.idempotency.begin(et.id, "fresh", "h", T - HOUR);
        await store.rateLimiter!.hit("caller", T - 10 * 60_000);
        await store.rateLimiter!.hit("caller", T);
        const revision = (await store.eventTypes.byId(et.id))!.revision;

        const outcome = await store.reservations.sweep(T);
        expect(outcome).toEqual(await sqlite.reservations.sweep(T));
        expect(outcome).toEqual({ expired: 2, cancelled: 3 });
        for (const r of records) {
          const pgRecord = await store.reservations.byUuid(et.id, r.uuid);
          expect({ ...pgRecord, eventTypeId: 0 }).toEqual({ ...(await sqlite.reservations.byUuid(etSqlite.id, r.uuid)), eventTypeId: 0 });
        }
        const first = (await store.reservations.byUuid(et.id, records[0]!.uuid))!;
        expect(first).toMatchObject({ status: "expired", updatedAtMs: T });
        // The stamp moved forward, so a compare-and-set read before the sweep fails after it.
        expect(await store.reservations.save({ ...records[0]!, status: "cancelled", updatedAtMs: T + 1 }, records[0]!.updatedAtMs)).toBe(false);
        expect((await store.eventTypes.byId(et.id))!.revision).toBe(revision + 1);
        expect(await store.idempotency.begin(et.id, "old", "other", T)).toEqual({ state: "new" });
        expect(await store.idempotency.begin(et.id, "fresh", "other", T)).toEqual({ state: "mismatch" });
        const admin = await adminOn(own);
        try {
          expect((await admin.query("SELECT window_start FROM rate_limits ORDER BY window_start")).rows.map((r) => Number(r.window_start))).toEqual([
            Math.floor(T / 60_000) * 60_000,
          ]);
        } finally {
          await admin.end();
        }
        expect(await store.reservations.sweep(T)).toEqual({ expired: 0, cancelled: 0 });
      } finally {
        await sqlite.close();
      }
    });
  });

  describe("idempotency keys", () => {
    it("moves through new, pending, done, mismatch and released, shared by both instances", async () => {
      const et = await eventType(a);
      expect(await a.idempotency.begin(et.id, "k", "h1", T)).toEqual({ state: "new" });
      expect(await b.idempotency.begin(et.id, "k", "h1", T + 1)).toEqual({ state: "pending" });
      expect(await b.idempotency.begin(et.id, "k", "h2", T + 1)).toEqual({ state: "mismatch" });
      await a.idempotency.finish(et.id, "k", 200, '{"success":true}');
      expect(await b.idempotency.begin(et.id, "k", "h1", T + 2)).toEqual({ state: "done", status: 200, response: '{"success":true}' });
      await b.idempotency.release(et.id, "k");
      expect(await a.idempotency.begin(et.id, "k", "h2", T + 3)).toEqual({ state: "new" });
    });

    it("lets a retry take over a key whose request vanished for 30 s, but never one tied to a booking", async () => {
      const et = await eventType(a);
      expect(await a.idempotency.begin(et.id, "lost", "h", T)).toEqual({ state: "new" });
      expect(await b.idempotency.begin(et.id, "lost", "h", T + 29_999)).toEqual({ state: "pending" });
      expect(await b.idempotency.begin(et.id, "lost", "h", T + 30_000)).toEqual({ state: "new" });
      expect(await a.idempotency.begin(et.id, "lost", "h", T + 40_000)).toEqual({ state: "pending" });

      expect(await a.idempotency.begin(et.id, "booked", "h", T)).toEqual({ state: "new" });
      const record = reservation(et.id, "2026-12-10T08:00:00Z", 60);
      await a.reservations.claim({ eventTypeId: et.id, fromMs: record.startMs, untilMs: record.endMs, nowMs: T, idempotencyKey: "booked" }, () => ({
        write: record,
      }));
      expect(await b.idempotency.begin(et.id, "booked", "h", T + 60_000)).toEqual({ state: "saved", reservationUuid: record.uuid });
    });

    it("registers a key once when two instances begin it at the same time", async () => {
      const et = await eventType(a);
      const states = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).idempotency.begin(et.id, "race", "h", T)));
      expect(states.filter((s) => s.state === "new")).toHaveLength(1);
      expect(states.filter((s) => s.state === "pending")).toHaveLength(19);
    });
  });

  describe("webhook outbox", () => {
    it("leases each due event to one of two instances, one event per reservation at a time", async () => {
      const own = schemaFor("outbox");
      const [x, y] = [await open(own), await open(own)];
      const et = await eventType(x, 100);
      const uuids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const outcome = await book(i % 2 ? x : y, et, "2026-12-11T08:00:00Z", 100, {}, true);
        if (!("record" in outcome)) throw new Error("not booked");
        uuids.push(outcome.record.uuid);
      }
      // Two events of one reservation: the second waits for the first.
      const first = reservation(et.id, "2026-12-11T10:00:00Z", 60);
      const [created, cancelled] = [outboxEvent(first), outboxEvent(first, "reservation.cancelled")];
      await x.reservations.claim({ eventTypeId: et.id, fromMs: first.startMs, untilMs: first.endMs, nowMs: T }, () => ({
        write: first,
        events: [created, cancelled],
      }));
      expect(await x.webhooks.claimDue(T - 1, 60_000, 10)).toEqual([]);

      const leased: number[] = [];
      const drain = async (store: Store) => {
        for (;;) {
          const batch = await store.webhooks.claimDue(T, 60_000, 4);
          if (batch.length === 0) return;
          leased.push(...batch.map((d) => d.id));
          expect(batch.every((d) => d.attempts === 1)).toBe(true);
        }
      };
      await Promise.all([drain(x), drain(y), drain(x), drain(y)]);
      expect(leased).toHaveLength(31);
      expect(new Set(leased).size).toBe(31);
      const recent = await x.webhooks.recent(et.id, 100);
      const secondOfFirst = recent.find((d) => d.msgId === cancelled.msgId)!;
      const firstOfFirst = recent.find((d) => d.msgId === created.msgId)!;
      expect(leased).not.toContain(secondOfFirst.id);

      await y.webhooks.recordAttempt(firstOfFirst.id, { attempt: 1, atMs: T + 10, statusCode: 204, error: null, durationMs: 15 }, { status: "delivered" });
      const next = await x.webhooks.claimDue(T + 20, 60_000, 10);
      expect(next.map((d) => [d.id, d.kind, d.payload])).toEqual([[secondOfFirst.id, "reservation.cancelled", cancelled.payload]]);

      // A lease that runs out frees its event for another attempt.
      const again = await y.webhooks.claimDue(T + 60_001, 60_000, 100);
      expect(again).toHaveLength(30);
      expect(again.every((d) => d.attempts === 2)).toBe(true);
      expect(again.map((d) => d.nextAttemptAtMs)).toEqual([...again.map((d) => d.nextAttemptAtMs)].sort((p, q) => p - q));

      const log = (await x.webhooks.recent(et.id, 100)).find((d) => d.id === firstOfFirst.id)!;
      expect(log).toMatchObject({
        status: "delivered",
        deliveredAtMs: T + 25,
        lastStatusCode: 204,
        attemptLog: [{ attempt: 1, atMs: T + 10, statusCode: 204, error: null, durationMs: 15 }],
      });
      await x.webhooks.recordAttempt(
        again[0]!.id,
        { attempt: 2, atMs: T + 60_002, statusCode: 500, error: "HTTP 500", durationMs: 3 },
        { status: "pending", nextAttemptAtMs: T + HOUR },
      );
      expect((await y.webhooks.recent(et.id, 100)).find((d) => d.id === again[0]!.id)).toMatchObject({
        status: "pending",
        nextAttemptAtMs: T + HOUR,
        lastError: "HTTP 500",
        attempts: 2,
      });
    });
  });

  describe("shared rate limits", () => {
    it("counts one key across two instances in windows aligned to the epoch", async () => {
      const own = schemaFor("rate");
      const options = { rateLimit: { limit: 3, windowSeconds: 10 } };
      const [x, y] = [await open(own, options), await open(own, options)];
      const start = Math.floor(T / 10_000) * 10_000;
      expect(await x.rateLimiter!.hit("ip:1", start + 2_500)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 8 });
      expect(await y.rateLimiter!.hit("ip:1", start + 3_000)).toMatchObject({ allowed: true, remaining: 1 });
      expect(await x.rateLimiter!.hit("ip:1", start + 9_000)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 1 });
      expect(await y.rateLimiter!.hit("ip:1", start + 9_999)).toMatchObject({ allowed: false, remaining: 0 });
      expect(await y.rateLimiter!.hit("ip:2", start + 9_999)).toMatchObject({ allowed: true, remaining: 2 });
      expect(await x.rateLimiter!.hit("ip:1", start + 10_000)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 10 });

      const counted = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? x : y).rateLimiter!.hit("ip:3", start)));
      expect(counted.filter((d) => d.allowed)).toHaveLength(3);
    });
  });

  describe("lost connections", () => {
    it("serves again after its pooled connections are killed", async () => {
      const own = schemaFor("kill");
      const poolErrors: Error[] = [];
      const store = await open(own, { poolSize: 4, onConnectionError: (e) => poolErrors.push(e) });
      const et = await eventType(store, 10);
      await Promise.all(Array.from({ length: 8 }, () => store.eventTypes.count()));
      const admin = await adminOn(own);
      try {
        const killed = await admin.query("SELECT pg_terminate_backend(pid, 5000) AS done FROM pg_stat_activity WHERE application_name = $1", [
          `booking-calendar/${own}`,
        ]);
        expect(killed.rowCount).toBeGreaterThan(0);
        expect(await store.eventTypes.count()).toBe(1);
        expect(await book(store, et, "2026-12-12T08:00:00Z", 10)).toHaveProperty("record");
        expect(await store.webhooks.claimDue(T, 1000, 10)).toEqual([]);
        expect(poolErrors.length).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
    });

    it("fails a claim whose connection dies mid-transaction with an Error and no half-written reservation", async () => {
      const own = schemaFor("midway");
      const store = await open(own, { poolSize: 2 });
      const et = await eventType(store, 10);
      const admin = await adminOn(own);
      try {
        // A marked visitor's insert takes its time, so the connection can be killed inside the transaction.
        await admin.query(`
          CREATE FUNCTION ${own}.slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN IF NEW.email = 'slow@example.com' THEN PERFORM pg_sleep(10); END IF; RETURN NEW; END $$;
          CREATE TRIGGER slow_insert BEFORE INSERT ON reservations FOR EACH ROW EXECUTE FUNCTION ${own}.slow_insert();
        `);
        const revision = (await store.eventTypes.byId(et.id))!.revision;
        const record = reservation(et.id, "2026-12-13T08:00:00Z", 60, { email: "slow@example.com" });
        const claiming = store.reservations
          .claim({ eventTypeId: et.id, fromMs: record.startMs, untilMs: record.endMs, nowMs: T }, () => ({ write: record, events: [outboxEvent(record)] }))
          .catch((e: unknown) => e);
        let pid: number | undefined;
        for (let i = 0; i < 200 && pid === undefined; i++) {
          const busy = await admin.query(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'INSERT INTO reservations%' AND state = 'active'",
            [`booking-calendar/${own}`],
          );
          pid = busy.rows[0]?.pid;
          if (pid === undefined) await Bun.sleep(25);
        }
        expect(pid).toBeDefined();
        await admin.query("SELECT pg_terminate_backend($1, 5000)", [pid]);
        const error = await claiming;
        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(StoreBusyError);
        expect((error as Error).message).toMatch(/connection to PostgreSQL/);

        expect(await store.reservations.byUuid(et.id, record.uuid)).toBeNull();
        expect(await store.webhooks.recent(et.id, 10)).toEqual([]);
        expect((await store.eventTypes.byId(et.id))!.revision).toBe(revision);
        expect(await book(store, et, "2026-12-13T08:00:00Z", 10)).toHaveProperty("record");
      } finally {
        await admin.end();
      }
    });
  });
});
