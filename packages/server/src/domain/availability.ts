import { DateTime } from "luxon";
import { WEEKDAYS, type TimeRange } from "@booking/wire";
import { addError } from "./errors.ts";
import type { AvailabilityRules } from "./event-type.ts";

/**
 * Adds to `errors` what a schema cannot say of weekly hours and date overrides, an event type's own
 * or a host's schedule's: every range ends after it starts and none starts at 24:00, every override
 * is on a real date (YYYY-MM-DD), and a date has one override at most.
 */
export function checkAvailability(availability: AvailabilityRules, errors: Record<string, string[]>): void {
  for (const day of WEEKDAYS) checkRanges(availability.weekly[day] ?? [], `availability.weekly.${day}`, errors);
  const seen = new Set<string>();
  availability.overrides.forEach((o, i) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(o.date) || !DateTime.fromISO(o.date).isValid)
      addError(errors, `availability.overrides.${i}.date`, "Expected a calendar date, YYYY-MM-DD.");
    if (seen.has(o.date)) addError(errors, `availability.overrides.${i}.date`, "Each date may have one override.");
    seen.add(o.date);
    checkRanges(o.ranges, `availability.overrides.${i}.ranges`, errors);
  });
}

function checkRanges(ranges: TimeRange[], field: string, errors: Record<string, string[]>): void {
  for (const r of ranges) {
    if (r.start === "24:00") addError(errors, field, "A range cannot start at 24:00.");
    else if (r.end <= r.start) addError(errors, field, `Range ${r.start}-${r.end} must end after it starts.`);
  }
}
