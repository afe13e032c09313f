import { Envelope, RECURRENCE_INTERVALS, SeriesSlot, TimeSlot } from "@booking/wire";
import { Type } from "@sinclair/typebox";
import { MAX_SLOTS_PER_ANSWER } from "./service.ts";

/**
 * The query as the route checks its shape. Dates and zone are checked by the service, so a bad
 * date gets the same message whether it is malformed or not on the calendar.
 */
export const TimeSlotsQueryShape = Type.Object(
  {
    from: Type.String({ description: "First day, YYYY-MM-DD." }),
    until: Type.String({ description: "Last day (inclusive), YYYY-MM-DD." }),
    timezone: Type.Optional(Type.String({ description: "IANA zone for dates and readable times." })),
  },
  // Unknown query parameters (cache busters, tracking) are ignored; unknown body keys are refused.
  { additionalProperties: true },
);

/** Query of `GET /time-slots/first-free`; the day and zone are checked by the service like those of `GET /time-slots`. */
export const FirstFreeQueryShape = Type.Object(
  {
    from: Type.String({ description: "Calendar day YYYY-MM-DD to look from, in `timezone`." }),
    timezone: Type.Optional(Type.String({ description: "IANA zone the days are read in; default the event type's." })),
  },
  { additionalProperties: true },
);

/** Response of `GET /time-slots/first-free`. */
export const FirstFreeResponse = Envelope(
  Type.Object({
    date: Type.Union([Type.String({ format: "date" }), Type.Null()], {
      description: "The first day on or after `from` with a free slot within the booking horizon, in `timezone`; null when none.",
    }),
  }),
);

/** Response of `GET /time-slots`: the envelope, and `nextFrom` when the answer stopped at its bound. */
export const TimeSlotsResponse = Type.Object({
  ...Envelope(Type.Array(TimeSlot)).properties,
  nextFrom: Type.Optional(
    Type.String({
      format: "date",
      description: `Present only when the range holds more than ${MAX_SLOTS_PER_ANSWER} slots: the answer lists whole days up to the day before this one; ask again with \`from\` set to it for the rest.`,
    }),
  ),
});

/** Query of `GET /time-slots/series`; the values are checked by the service, so every problem is named at once. */
export const SeriesQueryShape = Type.Object(
  {
    start: Type.String({ description: "The first occurrence's start, ISO 8601 with offset (a slot's `start` of GET /time-slots)." }),
    interval: Type.String({ description: `How often the series repeats: ${RECURRENCE_INTERVALS.join(" or ")}.` }),
    count: Type.String({ description: "Occurrences in all, the first included: at most the event type's `recurrence.maxOccurrences`." }),
  },
  { additionalProperties: true },
);

/** Response of `GET /time-slots/series`: every occurrence, first first, with whether it can be booked. */
export const SeriesSlotsResponse = Envelope(Type.Array(SeriesSlot));
