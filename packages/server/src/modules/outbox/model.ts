import { Type } from "@sinclair/typebox";
import { t } from "elysia";

/** Query of the delivery lists: how many of the latest (1-500). */
export const DeliveriesQuery = Type.Object({ limit: Type.Optional(t.Numeric({ minimum: 1, maximum: 500, multipleOf: 1 })) }, { additionalProperties: true });
