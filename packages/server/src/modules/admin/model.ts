import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { EventTypeCreate, EventTypePatch, RESERVATION_STATUSES } from "@booking/wire";

export { EventTypeCreate, EventTypePatch };

/** Query of the organizer's reservation list; days in the event type's zone unless `timezone` is given. */
export const ReservationListQuery = Type.Object({
  from: Type.String({ format: "date" }),
  until: Type.String({ format: "date" }),
  status: Type.Optional(Type.Union(RESERVATION_STATUSES.map((s) => Type.Literal(s)))),
  timezone: Type.Optional(Type.String()),
}, { additionalProperties: true });

/** Body of the token regeneration route. */
export const RegenerateTokenBody = Type.Object(
  { kind: Type.Optional(Type.Union([Type.Literal("api"), Type.Literal("override")])) },
  { additionalProperties: false },
);

/** Query of the webhook delivery list. */
export const DeliveriesQuery = Type.Object({ limit: Type.Optional(t.Numeric({ minimum: 1, maximum: 500, multipleOf: 1 })) }, { additionalProperties: true });

/** Query of the organizer's list across event types: filters, order, and the cursor of the page to read. */
export const ReservationSearchQuery = Type.Object({
  eventTypeId: Type.Optional(t.Numeric({ minimum: 1, multipleOf: 1 })),
  hostId: Type.Optional(t.Numeric({ minimum: 1, multipleOf: 1 })),
  status: Type.Optional(Type.Union(RESERVATION_STATUSES.map((s) => Type.Literal(s)))),
  from: Type.Optional(Type.String({ format: "date" })),
  until: Type.Optional(Type.String({ format: "date" })),
  timezone: Type.Optional(Type.String({ maxLength: 64 })),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  when: Type.Optional(Type.Union([Type.Literal("upcoming"), Type.Literal("past")])),
  order: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1 })),
}, { additionalProperties: true });

/** Body of the organizer's cancel: the reason, told to the visitor. */
export const OrganizerCancelBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false });

/** Body of the organizer's reschedule: the new start and end (a slot's, as GET /time-slots lists them). */
export const OrganizerRescheduleBody = Type.Object(
  { start: Type.String({ format: "date-time" }), end: Type.String({ format: "date-time" }), timezone: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
);

/** Body of the console's sign-in: the admin key, or the secret of a one-time sign-in link. */
export const ConsoleSignInBody = Type.Object(
  { adminKey: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })), link: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) },
  { additionalProperties: false },
);
