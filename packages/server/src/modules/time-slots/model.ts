import { Envelope, TimeSlot, TimeSlotsQuery } from "@booking/wire";
import { Type } from "@sinclair/typebox";

export { TimeSlotsQuery };

/** Response of `GET /time-slots`. */
export const TimeSlotsResponse = Envelope(Type.Array(TimeSlot));
