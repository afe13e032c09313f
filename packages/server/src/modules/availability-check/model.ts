import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { HostAvailabilityCheckQuery } from "@booking/wire";

export { AvailabilityCheck, AvailabilityCheckQuery, HostAvailabilityCheck } from "@booking/wire";

/** The wire's host check query as a route reads it: `eventTypeId` comes as text and is read as a number. */
export const HostCheckQueryShape = Type.Object({
  start: HostAvailabilityCheckQuery.properties.start,
  eventTypeId: Type.Optional(t.Numeric({ ...HostAvailabilityCheckQuery.properties.eventTypeId, minimum: 1, multipleOf: 1 })),
});
