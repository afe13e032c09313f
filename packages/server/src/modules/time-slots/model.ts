import { Envelope, TimeSlot } from "@booking/wire";
import { Type } from "@sinclair/typebox";

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

/** Response of `GET /time-slots`. */
export const TimeSlotsResponse = Envelope(Type.Array(TimeSlot));
