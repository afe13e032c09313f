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
