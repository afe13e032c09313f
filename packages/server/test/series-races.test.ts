import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { ADMIN_KEY, ENGINE, openTestStoreBeside } from "./utils.ts";
import { world } from "./series-world.ts";

// Series booked at the same time through two app instances on one database of the suite's engine
// (one SQLite file, or one PostgreSQL schema): every series is booked whole or not at all, and no
// time is ever taken twice. The clock starts on Monday 2026-11-23T07:00:00Z.

/** Tuesdays at 10:00 Berlin from 2026-12-01 on: series starting on different weeks overlap in the weeks they share. */
const tuesday = (week: number) => {
  const start = new Date(Date.parse("2026-12-01T09:00:00Z") + week * 7 * 86_400_000);
  return { start: start.toISOString(), end: new Date(start.getTime() + 30 * 60_000).toISOString() };
};

describe("series booked at the same time through two instances", () => {
  it("books each series whole or not at all, and never one time twice", async () => {
    const dir = ENGINE === "sqlite" ? mkdtempSync(join(tmpdir(), "booking-series-")) : null;
    try {
      const w = await world({}, undefined, dir ? join(dir, "one.sqlite") : undefined);
      const second = createApp({
        store: await openTestStoreBeside(w.store),
        clock: w.clock,
        config: { adminKey: ADMIN_KEY, rateLimit: { limit: 100_000, windowSeconds: 60 } },
        log: () => undefined,
      });
      const book = async (i: number) => {
        const request = new Request("http://localhost/reservations", {
          method: "POST",
          headers: { authorization: `Bearer ${w.et.token}`, "content-type": "application/json" },
          // Series of 4 starting on weeks 0 to 4: each shares weeks with the ones starting near it.
          body: JSON.stringify({ ...tuesday(i % 5), email: `visitor${i}@example.com`, recurrence: { interval: "weekly", count: 4 } }),
        });
        const response = await (i % 2 === 0 ? w.app : second).handle(request);
        return {
          status: response.status,
          body: (await response.json()) as { success: boolean; code?: string; data?: { seriesId: string; occurrences: { uuid: string }[] } },
        };
      };
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => book(i)));
      const won = answers.filter((a) => a.status === 200 && a.body.success);
      expect(won.length).toBeGreaterThanOrEqual(1);
      for (const lost of answers.filter((a) => !(a.status === 200 && a.body.success))) {
        expect([`409 series_unavailable`, `200 slot_locked`]).toContain(`${lost.status} ${lost.body.code}`);
      }
      const all = await w.store.reservations.list(w.et.id, { fromMs: 0, untilMs: Date.parse("2028-01-01T00:00:00Z"), limit: 1000 });
      // Whole series only: every reservation belongs to a series that was answered booked, each with its 4 occurrences.
      expect(all).toHaveLength(won.length * 4);
      for (const a of won) {
        const stored = all.filter((r) => r.seriesId === a.body.data!.seriesId);
        expect(stored.map((r) => r.uuid).sort()).toEqual(a.body.data!.occurrences.map((o) => o.uuid).sort());
      }
      // And no Tuesday taken twice.
      const starts = all.map((r) => r.startMs);
      expect(new Set(starts).size).toBe(starts.length);
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
