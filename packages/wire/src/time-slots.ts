import { Type, type Static } from "@sinclair/typebox";
import { LIMITS } from "./limits.ts";

/** Query of `GET /time-slots`: whole days, read in `timezone` (default the event type's zone). */
export const TimeSlotsQuery = Type.Object({
  from: Type.String({ format: "date", description: "First day, YYYY-MM-DD." }),
  until: Type.String({ format: "date", description: `Last day (inclusive), YYYY-MM-DD; the range spans at most ${LIMITS.maxSlotRangeDays} days.` }),
  timezone: Type.Optional(Type.String({ description: "IANA zone for `date` and the readable times." })),
});
export type TimeSlotsQuery = Static<typeof TimeSlotsQuery>;

/** One bookable slot. `start`/`end` carry the offset of the asked zone; the `*Iso8601` fields are UTC. */
export const TimeSlot = Type.Object({
  date: Type.String({ format: "date" }),
  dateIso8601: Type.String({ format: "date-time", description: "Start of the slot's day in the asked zone, in UTC." }),
  readable_start: Type.String({ description: "HH:MM in the asked zone." }),
  start: Type.String({ format: "date-time" }),
  startIso8601: Type.String({ format: "date-time" }),
  readable_end: Type.String(),
  end: Type.String({ format: "date-time" }),
  endIso8601: Type.String({ format: "date-time" }),
  seats: Type.Integer({ description: "Seats the slot has in all." }),
  available_seats: Type.Integer({ description: "Seats still free (at least 1 for a listed slot)." }),
  booked: Type.Boolean({ description: "True when some seat of the slot is already taken." }),
  calendar_id: Type.Integer({ description: "Id of the event type." }),
  title: Type.String(),
  readable_type: Type.String(),
  type: Type.String({ description: "`single` (one seat) or `seated` (several seats)." }),
});
export type TimeSlot = Static<typeof TimeSlot>;
