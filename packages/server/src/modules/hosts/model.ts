import { oneOf } from "@booking/wire";
import { Type } from "@sinclair/typebox";
import { HostCreate, HostPatch, RESERVATION_STATUSES, ScheduleCreate, SchedulePatch } from "@booking/wire";
import { BusySourceCreate } from "../calendars/model.ts";

export { BusySourceCreate, HostCreate, HostPatch, ScheduleCreate, SchedulePatch };

/** Query of a host's bookings across event types; days in the host's zone unless `timezone` is given. */
export const HostReservationsQuery = Type.Object(
  {
    from: Type.String({ format: "date" }),
    until: Type.String({ format: "date" }),
    status: Type.Optional(oneOf(RESERVATION_STATUSES)),
    timezone: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
