import { oneOf, OrganizerCancelBody, OrganizerRescheduleBody, RESERVATION_STATUSES } from "@booking/wire";
import { Type } from "@sinclair/typebox";
import { t } from "elysia";

export { OrganizerCancelBody, OrganizerRescheduleBody };

/** Query of the organizer's reservation list; days in the event type's zone unless `timezone` is given. */
export const ReservationListQuery = Type.Object(
  {
    from: Type.String({ format: "date" }),
    until: Type.String({ format: "date" }),
    status: Type.Optional(oneOf(RESERVATION_STATUSES)),
    timezone: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** Query of the organizer's list across event types: filters, order, and the cursor of the page to read. */
export const ReservationSearchQuery = Type.Object(
  {
    eventTypeId: Type.Optional(t.Numeric({ minimum: 1, multipleOf: 1 })),
    hostId: Type.Optional(t.Numeric({ minimum: 1, multipleOf: 1 })),
    status: Type.Optional(oneOf(RESERVATION_STATUSES)),
    from: Type.Optional(Type.String({ format: "date" })),
    until: Type.Optional(Type.String({ format: "date" })),
    timezone: Type.Optional(Type.String({ maxLength: 64 })),
    q: Type.Optional(Type.String({ maxLength: 200 })),
    when: Type.Optional(Type.Union([Type.Literal("upcoming"), Type.Literal("past")])),
    order: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1 })),
  },
  { additionalProperties: true },
);
