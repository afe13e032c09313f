import { Envelope, TimeSlot } from "@booking/wire";
import { Type } from "@sinclair/typebox";
import { MAX_SLOTS_PER_ANSWER } from "./service.ts";

/**
 * The query as the route checks its shape. Dates and zone are checked by the service, so a bad
 * date gets the same message whether it is malformed or not on the calendar.
 */
export const TimeSlotsQueryShape = Type.Object(
  {
    from: Type.String(),
    until: Type.String(),
    timezone: Type.Optional(Type.String()),
  },
  // Unknown query parameters (cache busters, tracking) are ignored; unknown body keys are refused.
  { additionalProperties: true },
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
