import { Type, type Static } from "@sinclair/typebox";
import { RECURRENCE_INTERVALS, type RecurrenceInterval } from "./constants.ts";
import { oneOf } from "./literals.ts";

// Recurring bookings: what an event type allows, what a booking asks for, and what the visitor is told.

/** Most occurrences a series may ever have (a year of weekly meetings). */
export const MAX_SERIES_OCCURRENCES = 52;

/** Weeks between two occurrences of a series repeating at `interval`. */
export const weeksOf = (interval: RecurrenceInterval): number => (interval === "biweekly" ? 2 : 1);

/** An event type's `recurrence`: how far a booking may repeat; null (the default) allows single bookings only. */
export const RecurrenceSetting = Type.Object(
  {
    maxOccurrences: Type.Integer({
      minimum: 2,
      maximum: MAX_SERIES_OCCURRENCES,
      description: "Most occurrences one series may have, the first included.",
    }),
    intervals: Type.Array(oneOf(RECURRENCE_INTERVALS), {
      minItems: 1,
      maxItems: RECURRENCE_INTERVALS.length,
      uniqueItems: true,
      description: "How often a series may repeat: `weekly`, `biweekly` (every two weeks), or both.",
    }),
  },
  { additionalProperties: false },
);
export type RecurrenceSetting = Static<typeof RecurrenceSetting>;

/** The `recurrence` setting as the admin API takes and shows it, and the public configuration announces it. */
export const RecurrenceField = Type.Union([RecurrenceSetting, Type.Null()], {
  description:
    "Whether a booking may repeat: null (the default) for single bookings only, or `{ maxOccurrences, intervals }`: a visitor may book the same local time every week or two weeks, up to `maxOccurrences` times, as one series.",
});

/**
 * The `recurrence` an organizer sends (admin API): the setting's shape with its bounds left to the
 * server, which names the field that breaks one (`recurrence.maxOccurrences`) rather than the union.
 */
export const RecurrenceInputField = Type.Union(
  [
    Type.Object(
      {
        maxOccurrences: Type.Integer({ description: `Most occurrences one series may have, the first included: 2 to ${MAX_SERIES_OCCURRENCES}.` }),
        intervals: Type.Array(oneOf(RECURRENCE_INTERVALS), {
          description: "How often a series may repeat: `weekly`, `biweekly` (every two weeks), or both; each once.",
        }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: RecurrenceField.description },
);

/** A booking request's `recurrence`: book `count` occurrences, the first at `start`, then every `interval`. */
export const RecurrenceRequest = Type.Object(
  {
    interval: oneOf(RECURRENCE_INTERVALS),
    count: Type.Integer({
      minimum: 2,
      maximum: MAX_SERIES_OCCURRENCES,
      description: "Occurrences in all, the first included; at most the event type's `maxOccurrences`.",
    }),
  },
  { additionalProperties: false },
);
export type RecurrenceRequest = Static<typeof RecurrenceRequest>;

/** One occurrence of a booked series in the booking's answer. */
export const SeriesOccurrence = Type.Object({
  uuid: Type.String({ format: "uuid" }),
  start: Type.String({ format: "date-time" }),
  end: Type.String({ format: "date-time" }),
  manageUrl: Type.Union([Type.String(), Type.Null()], { description: "The occurrence's own manage link, to move or cancel it alone." }),
});
export type SeriesOccurrence = Static<typeof SeriesOccurrence>;

/** One occurrence a series starting at a time would have, and whether it can be booked. */
export const SeriesSlot = Type.Object({
  start: Type.String({ format: "date-time", description: "In the event type's zone: the same wall-clock time every occurrence, across DST changes." }),
  end: Type.String({ format: "date-time" }),
  startIso8601: Type.String({ format: "date-time" }),
  available: Type.Boolean({ description: "True when the time is offered with a free seat now (as GET /time-slots lists it)." }),
});
export type SeriesSlot = Static<typeof SeriesSlot>;

/** One occurrence that refused a series, in the `series_unavailable` error body. */
export const SeriesConflict = Type.Object({
  start: Type.String({ format: "date-time" }),
  end: Type.String({ format: "date-time" }),
});
export type SeriesConflict = Static<typeof SeriesConflict>;
