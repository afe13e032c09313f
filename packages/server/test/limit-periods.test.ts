import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { limitChecker, type LimitFrame } from "../src/domain/limits.ts";

// The calendar periods booking limits count in (domain/limits.ts), against luxon's own days, weeks
// and months, in zones whose clocks jump: at 02:00 (Europe), at midnight (Santiago, which skips
// 00:00-01:00 in September), by half an hour (Lord Howe).

const ZONES = ["Europe/Prague", "America/New_York", "America/Santiago", "Australia/Lord_Howe", "Asia/Kolkata"];
const HOUR = 3_600_000;

/** Whether a booking at `probe` is refused when one is booked at `booked`, with one booking allowed per `unit`. */
function samePeriod(frame: Omit<LimitFrame, "limits">, unit: "day" | "week" | "month", booked: number, probe: number): boolean {
  const limits = unit === "day" ? { bookingsPerDay: 1 } : unit === "week" ? { bookingsPerWeek: 1 } : { bookingsPerMonth: 1 };
  const check = limitChecker({ ...frame, limits }, [{ startMs: booked, endMs: booked + HOUR }], Math.min(booked, probe), Math.max(booked, probe) + 1)!;
  return check(probe, probe + HOUR);
}

/** luxon's start of the period holding `ms`, weeks from `weekStart`. */
function luxonStart(ms: number, zone: string, unit: "day" | "week" | "month", weekStart: "monday" | "sunday"): number {
  const at = DateTime.fromMillis(ms, { zone });
  if (unit !== "week") return at.startOf(unit).toMillis();
  if (weekStart === "monday") return at.startOf("week").toMillis();
  return (at.weekday === 7 ? at.startOf("day") : at.startOf("week").minus({ days: 1 })).toMillis();
}

describe("booking limit periods", () => {
  it.each(ZONES)("agree with luxon's calendar days, weeks and months in %s over a year, every 7 hours", (zone) => {
    const from = Date.parse("2026-01-01T00:00:00Z");
    for (const weekStart of ["monday", "sunday"] as const) {
      for (const unit of ["day", "week", "month"] as const) {
        for (let ms = from; ms < from + 366 * 24 * HOUR; ms += 7 * HOUR) {
          const probe = ms + 5 * HOUR;
          const expected = luxonStart(ms, zone, unit, weekStart) === luxonStart(probe, zone, unit, weekStart);
          expect(samePeriod({ zone, weekStart }, unit, ms, probe), `${zone} ${unit} ${weekStart} ${new Date(ms).toISOString()}`).toBe(expected);
        }
      }
    }
  });

  it("counts minutes by a booking's length and refuses the one that would pass the limit", () => {
    const frame: LimitFrame = { zone: "UTC", weekStart: "monday", limits: { minutesPerDay: 90 } };
    const day = Date.parse("2026-12-01T00:00:00Z");
    const check = limitChecker(frame, [{ startMs: day + 9 * HOUR, endMs: day + 10 * HOUR }], day, day + 24 * HOUR)!;
    expect(check(day + 11 * HOUR, day + 11.5 * HOUR)).toBe(false);
    expect(check(day + 11 * HOUR, day + 11 * HOUR + 31 * 60_000)).toBe(true);
  });

  it("sets no checker without a limit", () => {
    expect(limitChecker({ zone: "UTC", weekStart: "monday", limits: { bookingsPerDay: null } }, [], 0, HOUR)).toBeNull();
  });
});
