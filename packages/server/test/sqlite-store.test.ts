import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EventTypeAdmin } from "../src/modules/event-types/organizer.ts";
import { openTestStore, reservation } from "./utils.ts";

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
    side.exec(`CREATE TRIGGER boom BEFORE INSERT ON reservations WHEN NEW.uuid = '${records[2]!.uuid}' BEGIN SELECT RAISE(ROLLBACK, 'the disk is full, say'); END`);
    side.close();
    const claim = (r: (typeof records)[number]) => store.reservations.claim({ eventTypeId: id, fromMs: r.startMs, untilMs: r.endMs, nowMs: 1_000 }, () => ({ write: r }));
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
    const records = Array.from({ length: 100 }, (_, i) => reservation(id, `2026-12-${String(1 + Math.floor(i / 20)).padStart(2, "0")}T${String(i % 20).padStart(2, "0")}:00:00Z`, 30));
    // A real condition that ends the whole transaction, as SQLITE_FULL or an I/O error would: a
    // trigger raising ROLLBACK when the 71st reservation is written (from another connection).
    const side = new Database(path);
    side.exec(`CREATE TRIGGER boom BEFORE INSERT ON reservations WHEN NEW.uuid = '${records[70]!.uuid}' BEGIN SELECT RAISE(ROLLBACK, 'the disk is full, say'); END`);
    side.close();

    const outcomes = await Promise.allSettled(
      records.map((r) => store.reservations.claim({ eventTypeId: id, fromMs: r.startMs, untilMs: r.endMs, nowMs: 1_000 }, () => ({ write: r }))),
    );
    // The first 64 commit in their own transaction; the rest share the one the trigger undid.
    expect(outcomes.slice(0, 64).every((o) => o.status === "fulfilled")).toBe(true);
    expect(outcomes.slice(64).map((o) => (o.status === "rejected" ? (o.reason as Error).message : "fulfilled"))).toEqual(Array(36).fill("the disk is full, say"));
    const held = await store.reservations.list(id, { fromMs: 0, untilMs: Number.MAX_SAFE_INTEGER, limit: 1000 });
    expect(held.map((r) => r.uuid).sort()).toEqual(records.slice(0, 64).map((r) => r.uuid).sort());

    // Later claims, in a batch of their own, work.
    const later = await Promise.all(
      records.slice(64, 70).map((r) => store.reservations.claim({ eventTypeId: id, fromMs: r.startMs, untilMs: r.endMs, nowMs: 1_000 }, () => ({ write: r }))),
    );
    expect(later.map((o) => ("record" in o ? o.record.uuid : o.refused))).toEqual(records.slice(64, 70).map((r) => r.uuid));
    await store.close();
  });
});
