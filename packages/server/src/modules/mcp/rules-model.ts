import { Type } from "@sinclair/typebox";
import { z } from "zod";
import { AvailabilityCheck, AvailabilityCheckQuery, BookingLimits, BookingLimitsView } from "@booking/wire";
import { described, EventTypeRef, eventTypeChoice, hostId, HostRef } from "./model-parts.ts";
import { toolOutput } from "./tool-input.ts";

// The tools of the scheduling rules: booking limits and "why is this time not offered?", merged
// into ToolInputs and ToolOutputs (model.ts) where the tool list shows them.

/** Input of `set_booking_limits`. */
export const LimitToolInputs = {
  set_booking_limits: Type.Object({
    ...eventTypeChoice,
    hostId: Type.Optional(described(hostId, "Set this host's limits (across all of their event types) instead of an event type's.")),
    limits: described(BookingLimits, "A kind left out or null has no limit; replaces the limits there were ({} removes them all)."),
  }),
};

/** Input of `check_availability`. */
export const CheckToolInputs = {
  check_availability: Type.Object({
    ...eventTypeChoice,
    hostId: Type.Optional(described(hostId, "Check this host: through each of their event types, or only the event type named by eventTypeId or slug.")),
    start: described(
      Type.String({ maxLength: 64 }),
      `${AvailabilityCheckQuery.properties.start.description} A local date-time without offset (2026-11-24T10:00) is read in \`timezone\`.`,
    ),
    timezone: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "IANA zone a start without offset is read in and times are shown in; default the host's, else the event type's.",
      }),
    ),
  }),
};

/** Output of `set_booking_limits`. */
export const LimitToolOutputs = {
  set_booking_limits: z.object({
    eventType: EventTypeRef.nullable().describe("The event type whose limits were set; null for a host's."),
    host: HostRef.nullable().describe("The host whose limits were set; null for an event type's."),
    limits: toolOutput(BookingLimitsView),
  }),
};

/** Output of `check_availability`. */
export const CheckToolOutputs = {
  check_availability: z.object({
    host: HostRef.nullable().describe("The host checked; null when an event type was."),
    timezone: z.string(),
    bookable: z.boolean().describe("True when the time is bookable (for a host: through at least one of the event types checked)."),
    checks: z.array(toolOutput(AvailabilityCheck)).describe("One check per event type, with every reason and, for teams, each host's."),
  }),
};
