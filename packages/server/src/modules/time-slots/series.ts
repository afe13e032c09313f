import { DateTime } from "luxon";
import { MAX_SERIES_OCCURRENCES, RECURRENCE_INTERVALS, type RecurrenceInterval, type SeriesSlot } from "@booking/wire";
import { FieldErrors, ValidationFailed } from "../../domain/errors.ts";
import { seriesTimes } from "../../domain/series.ts";
import { offsetInstant, utc } from "../../lib/time.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { TimeSlotService } from "./service.ts";

/** Query of `GET /time-slots/series`, as the route checks its shape; the values are checked by `seriesSlots`. */
export interface SeriesQuery {
  start: string;
  interval: string;
  count: string;
}

/**
 * The occurrences a series starting at `query.start` would have (`count`, every `interval`, at the
 * same wall-clock time in the event type's zone), each with whether it is offered with a free seat
 * now: asked of the very code that builds `GET /time-slots` (`freeSlots`), so the two never
 * disagree. 422 for a start that is no ISO 8601 time with offset, an interval or count the event
 * type does not allow, or an event type that takes no series.
 */
export async function seriesSlots(slots: TimeSlotService, eventType: EventTypeRecord, query: SeriesQuery, nowMs: number): Promise<SeriesSlot[]> {
  const s = eventType.settings;
  const allowed = s.payment ? null : s.recurrence;
  const errors = new FieldErrors();
  if (!allowed) errors.add("recurrence", "invalid", "This event type takes no recurring bookings.");
  const startMs = offsetInstant(query.start);
  if (startMs === null) errors.add("start", "invalid", "Expected an ISO 8601 date-time with an offset, e.g. 2026-03-02T10:00:00+01:00.");
  const interval = query.interval as RecurrenceInterval;
  if (!(RECURRENCE_INTERVALS as readonly string[]).includes(interval) || (allowed && !allowed.intervals.includes(interval)))
    errors.add("interval", "invalid", `Expected one of ${(allowed?.intervals ?? RECURRENCE_INTERVALS).join(", ")}.`);
  const count = /^\d{1,3}$/.test(query.count) ? Number(query.count) : Number.NaN;
  const most = allowed?.maxOccurrences ?? MAX_SERIES_OCCURRENCES;
  if (!(count >= 2 && count <= most)) errors.add("count", "invalid", `Expected a whole number from 2 to ${most}.`);
  ValidationFailed.check(errors);
  const times = seriesTimes(startMs!, startMs! + s.durationMinutes * 60_000, s.timezone, interval, count);
  return Promise.all(
    times.map(async (t) => {
      const { slots: offered } = await slots.freeSlots(eventType, t.startMs, t.startMs + 1, nowMs);
      return {
        start: DateTime.fromMillis(t.startMs, { zone: s.timezone }).toISO({ suppressMilliseconds: true })!,
        end: DateTime.fromMillis(t.endMs, { zone: s.timezone }).toISO({ suppressMilliseconds: true })!,
        startIso8601: utc(t.startMs),
        available: offered.some((slot) => slot.startMs === t.startMs && slot.endMs === t.endMs && slot.freeSeats > 0),
      };
    }),
  );
}
