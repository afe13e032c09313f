import { Type } from "@sinclair/typebox";

/**
 * Body of `POST /admin/event-types/{id}/busy-sources`. Only the shape is checked here (an object);
 * every field is checked by CalendarAdmin, which answers 422 naming each field that is off.
 */
export const BusySourceCreate = Type.Object(
  {
    kind: Type.Optional(Type.Unknown()),
    url: Type.Optional(Type.Unknown()),
    username: Type.Optional(Type.Unknown()),
    password: Type.Optional(Type.Unknown()),
    token: Type.Optional(Type.Unknown()),
    calendars: Type.Optional(Type.Unknown()),
    freshnessMinutes: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

/** Body of `PUT /admin/busy-sources/{sourceId}/write-bookings`: the calendar to write into (checked by CalendarAdmin); left out, the first one found. */
export const WriteBookingsBody = Type.Object({ calendar: Type.Optional(Type.Unknown()) }, { additionalProperties: false });
