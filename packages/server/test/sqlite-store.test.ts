import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EventTypeAdmin } from "../src/modules/event-types/organizer.ts";
import { sqliteAt } from "./old-databases.ts";
import { hashToken } from "../src/lib/tokens.ts";
import { openSqliteStore } from "../src/store/sqlite/index.ts";
import { DEFAULT_HOST_ID, newFeedToken, openTestStore, reservation } from "./utils.ts";

/** Promises of the SQLite store alone: how claims sent together share a transaction. */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("claims sent together on SQLite", () => {
  it("rejects every claim of a small batch with the error that undid its transaction, not a savepoint error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-batch-"));
    dirs.push(dir);
    const path = join(dir, "store.sqlite");
    const store = await openTestStore(path);
    const { id } = await new EventTypeAdmin(store, () => 1_000).create({ title: "Batch", timezone: "UTC", seats: 1 });
    const records = Array.from({ length: 5 }, (_, i) => reservation(id, `2026-12-01T${String(9 + i).padStart(2, "0")}:00:00Z`, 30));
    const side = new Database(path);
    side.exec(
      `CREATE TRIGGER boom BEFORE INSERT ON reservations WHEN NEW.uuid = '${records[2]!.uuid}' BEGIN SELECT RAISE(ROLLBACK, 'the disk is full, say'); END`,
    );
    side.close();
    const claim = (r: (typeof records)[number]) =>
      store.reservations.claim({ eventTypeId: id, fromMs: r.startMs, untilMs: r.endMs, nowMs: 1_000 }, () => ({ write: r }));
    const outcomes = await Promise.allSettled(records.map(claim));
    expect(outcomes.map((o) => (o.status === "rejected" ? (o.reason as Error).message : "fulfilled"))).toEqual(Array(5).fill("the disk is full, say"));
    expect(await store.reservations.list(id, { fromMs: 0, untilMs: Number.MAX_SAFE_INTEGER, limit: 10 })).toEqual([]);
    expect("record" in (await claim(records[0]!))).toBe(true);
    await store.close();
  });

  it("answers every claim of a batch with the real error when one of them aborts the whole transaction, commits at most 64 claims in one, and takes claims again afterwards", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-batch-"));
    dirs.push(dir);
    const path = join(dir, "store.sqlite");
    const store = await openTestStore(path);
    const { id } = await new EventTypeAdmin(store, () => 1_000).create({ title: "Batch", timezone: "UTC", seats: 1 });
    const records = Array.from({ length: 100 }, (_, i) =>
      reservation(id, `2026-12-${String(1 + Math.floor(i / 20)).padStart(2, "0")}T${String(i % 20).padStart(2, "0")}:00:00Z`, 30),
    );
    // A real condition that ends the whole transaction, as SQLITE_FULL or an I/O error would: a
    // trigger raising ROLLBACK when the 71st reservation is written (from another connection).
    const side = new Database(path);
    side.exec(
      `CREATE TRIGGER boom BEFORE INSERT ON reservations WHEN NEW.uuid = '${records[70]!.uuid}' BEGIN SELECT RAISE(ROLLBACK, 'the disk is full, say'); END`,
    );
    side.close();

    const outcomes = await Promise.allSettled(
      records.map((r) => store.reservations.claim({ eventTypeId: id, fromMs: r.startMs, untilMs: r.endMs, nowMs: 1_000 }, () => ({ write: r }))),
    );
    // The first 64 commit in their own transaction; the rest share the one the trigger undid.
    expect(outcomes.slice(0, 64).every((o) => o.status === "fulfilled")).toBe(true);
    expect(outcomes.slice(64).map((o) => (o.status === "rejected" ? (o.reason as Error).message : "fulfilled"))).toEqual(
      Array(36).fill("the disk is full, say"),
    );
    const held = await store.reservations.list(id, { fromMs: 0, untilMs: Number.MAX_SAFE_INTEGER, limit: 1000 });
    expect(held.map((r) => r.uuid).sort()).toEqual(
      records
        .slice(0, 64)
        .map((r) => r.uuid)
        .sort(),
    );

    // Later claims, in a batch of their own, work.
    const later = await Promise.all(
      records.slice(64, 70).map((r) => store.reservations.claim({ eventTypeId: id, fromMs: r.startMs, untilMs: r.endMs, nowMs: 1_000 }, () => ({ write: r }))),
    );
    expect(later.map((o) => ("record" in o ? o.record.uuid : o.refused))).toEqual(records.slice(64, 70).map((r) => r.uuid));
    await store.close();
  });
});

describe("the bookings of each host on SQLite", () => {
  /** The rows of reservation_hosts as another connection reads them. */
  const hostRows = (path: string) => {
    const side = new Database(path, { readonly: true });
    try {
      return side
        .query("SELECT host_id AS hostId, start_ms AS startMs, end_ms AS endMs, reservation_uuid AS uuid FROM reservation_hosts ORDER BY host_id, start_ms")
        .all();
    } finally {
      side.close();
    }
  };

  it("keeps a reservation's rows per host equal to its hosts and times through a move, a change of host and its deletion", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-hosts-"));
    dirs.push(dir);
    const path = join(dir, "store.sqlite");
    const store = await openTestStore(path);
    const { id } = await new EventTypeAdmin(store, () => 1_000).create({ title: "Hosted", timezone: "UTC", seats: 1 });
    const other = await store.hosts.create({ name: "Grace", email: null, timezone: "UTC", avatarUrl: null, feedToken: newFeedToken() }, 1_000);
    const booked = reservation(id, "2026-12-01T09:00:00Z", 30);
    const kept = reservation(id, "2026-12-01T11:00:00Z", 30);
    for (const r of [booked, kept])
      expect(
        "record" in
          (await store.reservations.claim({ eventTypeId: id, fromMs: r.startMs, untilMs: r.endMs, nowMs: 1_000, hostIds: [DEFAULT_HOST_ID] }, () => ({
            write: r,
          }))),
      ).toBe(true);
    expect(hostRows(path)).toEqual([booked, kept].map((r) => ({ hostId: DEFAULT_HOST_ID, startMs: r.startMs, endMs: r.endMs, uuid: r.uuid })));

    // Moved an hour later and to the other host: its row moves with it, the other booking's stays.
    const moved = { ...booked, startMs: booked.startMs + 3_600_000, endMs: booked.endMs + 3_600_000, hostIds: [other.id], updatedAtMs: booked.updatedAtMs + 1 };
    const outcome = await store.reservations.claim(
      { eventTypeId: id, fromMs: moved.startMs, untilMs: moved.endMs, nowMs: 1_000, uuid: booked.uuid, hostIds: [other.id] },
      () => ({ write: moved }),
    );
    expect("record" in outcome).toBe(true);
    expect(hostRows(path)).toEqual([
      { hostId: DEFAULT_HOST_ID, startMs: kept.startMs, endMs: kept.endMs, uuid: kept.uuid },
      { hostId: other.id, startMs: moved.startMs, endMs: moved.endMs, uuid: booked.uuid },
    ]);
    expect(await store.hosts.delete(other.id)).toBe("in_use");

    // Deleting the event type deletes its reservations, and with them their rows: the host has no booking left.
    expect(await store.eventTypes.delete(id)).toBe(true);
    expect(hostRows(path)).toEqual([]);
    expect(await store.hosts.delete(other.id)).toBe("deleted");
    await store.close();
  });

  it("keeps every host's bookings of a database from before, in host and time order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-hosts-"));
    dirs.push(dir);
    const path = join(dir, "old.sqlite");
    const db = sqliteAt(path, 16);
    db.exec("INSERT INTO hosts (name, timezone, feed_token, created_at_ms, updated_at_ms) VALUES ('Grace', 'UTC', 'bcf_grace', 0, 0)");
    db.exec("INSERT INTO event_types (token_hash, override_token_hash, settings, created_at, updated_at) VALUES ('t', 'o', '{}', '', '')");
    const insert = db.query(
      "INSERT INTO reservations (uuid, event_type_id, host_ids, status, start_ms, end_ms, email, created_at_ms, updated_at_ms) VALUES (?, 1, ?, 'confirmed', ?, ?, 'v@example.com', 5, 5)",
    );
    insert.run("b-late", "[1,2]", 7_200_000, 9_000_000);
    insert.run("a-early", "[2]", 3_600_000, 5_400_000);
    db.close();
    const store = openSqliteStore(path);
    await store.close();
    expect(hostRows(path)).toEqual([
      { hostId: 1, startMs: 7_200_000, endMs: 9_000_000, uuid: "b-late" },
      { hostId: 2, startMs: 3_600_000, endMs: 5_400_000, uuid: "a-early" },
      { hostId: 2, startMs: 7_200_000, endMs: 9_000_000, uuid: "b-late" },
    ]);
  });
});

describe("event types looked up by token on SQLite", () => {
  it("keeps the parsed event type through bookings with its revisions renewed, and reads it again when its host changes, from this process or another", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-lookup-"));
    dirs.push(dir);
    const path = join(dir, "store.sqlite");
    const store = await openTestStore(path);
    const created = await new EventTypeAdmin(store, () => 1_000).create({ title: "Looked up", timezone: "UTC", seats: 1 });
    const lookUp = async () => (await store.eventTypes.byTokenHash(hashToken(created.token)))!;
    const book = async (startIso: string) => {
      const r = reservation(created.id, startIso, 30);
      expect(
        "record" in
          (await store.reservations.claim({ eventTypeId: created.id, fromMs: r.startMs, untilMs: r.endMs, nowMs: 1_000, hostIds: [DEFAULT_HOST_ID] }, () => ({
            write: r,
          }))),
      ).toBe(true);
    };
    const first = await lookUp();

    await book("2026-12-01T09:00:00Z");
    const booked = await lookUp();
    expect(booked.revision).toBe(first.revision + 1);
    expect(booked.hosts.map((h) => h.revision)).toEqual([first.hosts[0]!.revision! + 1]);
    expect(booked.hosts[0]!.revision).toBe((await store.hosts.byId(DEFAULT_HOST_ID))!.revision);
    // The same parsed settings: a booking changed nothing of them.
    expect(booked.settings).toBe(first.settings);
    expect(await store.eventTypes.byId(created.id)).toEqual(booked);

    await store.hosts.update(DEFAULT_HOST_ID, { name: "Renamed" }, 2_000);
    const renamed = await lookUp();
    expect(renamed.hosts[0]!.name).toBe("Renamed");
    expect(renamed.revision).toBeGreaterThan(booked.revision);

    await book("2026-12-01T10:00:00Z");
    const again = await lookUp();
    expect(again.revision).toBe(renamed.revision + 1);
    expect(again.hosts[0]!.name).toBe("Renamed");

    // Another process on the file renames the host (its write bumps the host's revision, as every change of a host does).
    const side = new Database(path);
    side.exec(`UPDATE hosts SET name = 'Elsewhere', revision = revision + 1 WHERE id = ${DEFAULT_HOST_ID}`);
    side.close();
    const elsewhere = await lookUp();
    expect(elsewhere.hosts[0]!.name).toBe("Elsewhere");
    expect(elsewhere.revision).toBe(again.revision + 1);
    await store.close();
  });
});

describe("event types remembered by credential on SQLite", () => {
  it("answers as a fresh read after this process's bookings of it and of its host's other event types, and reads again after any other write, here or in another process", async () => {
    const dir = mkdtempSync(join(tmpdir(), "booking-remembered-"));
    dirs.push(dir);
    const path = join(dir, "store.sqlite");
    const store = await openTestStore(path);
    const admin = new EventTypeAdmin(store, () => 1_000);
    const created = await admin.create({ title: "Remembered", timezone: "UTC", seats: 1 });
    const sibling = await admin.create({ title: "Same host", timezone: "UTC", seats: 1 });
    const byToken = (token: string) => store.eventTypes.byTokenHash(hashToken(token));
    /** The lookup by token and by link token answer what a read of the row answers. */
    const expectFresh = async (token: string) => {
      const looked = (await byToken(token))!;
      expect(await store.eventTypes.byLinkToken(looked.linkToken)).toEqual(looked);
      const { id } = looked;
      const side = new Database(path, { readonly: true });
      const revision = side
        .query<{ n: number }, [number]>(
          "SELECT e.revision + coalesce((SELECT sum(h.revision + h.booking_revision - 1) FROM event_type_hosts eh JOIN hosts h ON h.id = eh.host_id WHERE eh.event_type_id = e.id), 0) AS n FROM event_types e WHERE e.id = ?",
        )
        .get(id)!.n;
      side.close();
      expect(looked.revision).toBe(revision);
      expect(await store.eventTypes.byId(id)).toEqual(looked);
      return looked;
    };
    let n = 0;
    const book = (eventTypeId: number, refuse = false) => {
      const r = reservation(eventTypeId, new Date(Date.UTC(2026, 11, 1, 9) + n++ * 3_600_000).toISOString(), 30);
      return store.reservations.claim({ eventTypeId, fromMs: r.startMs, untilMs: r.endMs, nowMs: 1_000, hostIds: [DEFAULT_HOST_ID] }, () =>
        refuse ? { refuse: "slot_unavailable" as const } : { write: r },
      );
    };
    const first = await expectFresh(created.token);

    // Bookings sent together (one batch), one of them refused and one of the host's other event type.
    await Promise.all([book(created.id), book(created.id, true), book(sibling.id), book(created.id)]);
    const booked = await expectFresh(created.token);
    expect(booked.revision).toBe(first.revision + 3);
    expect(booked.settings).toBe(first.settings);
    await expectFresh(sibling.token);

    // A booking written by another process.
    const side = new Database(path);
    side.exec(`UPDATE hosts SET booking_revision = booking_revision + 1 WHERE id = ${DEFAULT_HOST_ID}`);
    expect((await expectFresh(created.token)).revision).toBe(booked.revision + 1);

    // Its settings changed by another process: read again, not renewed.
    const settings = JSON.parse(side.query<{ settings: string }, [number]>("SELECT settings FROM event_types WHERE id = ?").get(created.id)!.settings);
    side
      .query("UPDATE event_types SET settings = ?, revision = revision + 1 WHERE id = ?")
      .run(JSON.stringify({ ...settings, title: "Renamed elsewhere" }), created.id);
    expect((await expectFresh(created.token)).settings.title).toBe("Renamed elsewhere");

    // Its API token regenerated by another process: the old one opens nothing any more.
    const otherProcess = openSqliteStore(path);
    const issued = await new EventTypeAdmin(otherProcess, () => 2_000).regenerateToken(created.id, "api");
    await otherProcess.close();
    side.close();
    expect(await byToken(created.token)).toBeNull();
    await expectFresh(issued.token!);

    // A change in this process outside claims (the host renamed), then bookings again.
    await store.hosts.update(DEFAULT_HOST_ID, { name: "Renamed here" }, 3_000);
    expect((await expectFresh(issued.token!)).hosts[0]!.name).toBe("Renamed here");
    await Promise.all([book(created.id), book(sibling.id)]);
    await expectFresh(issued.token!);
    await expectFresh(sibling.token);
    await store.close();
  });
});
