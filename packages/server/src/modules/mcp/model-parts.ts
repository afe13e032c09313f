import { Type, type TSchema } from "@sinclair/typebox";
import { z } from "zod";

// What the assistant server's tool declarations share (model.ts, rules-model.ts, time-off.ts).

/** One of `values`, listed as a JSON Schema enum. */
export const oneOf = <const V extends readonly string[]>(values: V, description?: string) =>
  Type.Unsafe<V[number]>({ type: "string", enum: [...values], ...(description ? { description } : {}) });

/** `schema` with the description this tool gives it. */
export const described = <T extends TSchema>(schema: T, description: string): T => ({ ...schema, description });

/** A calendar date. */
export const date = (what: string) => Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: what });

/** An IANA zone name for reading and showing times. */
export const timezone = Type.Optional(
  Type.String({
    maxLength: 64,
    description: "IANA time zone (e.g. Europe/Prague, America/New_York) for reading and showing times; default the event type's own zone.",
  }),
);

/** Names an event type by id or by slug; either may be left out when there is only one event type. */
export const eventTypeChoice = {
  eventTypeId: Type.Optional(Type.Integer({ minimum: 1, description: "Id of the event type (see list_event_types)." })),
  slug: Type.Optional(Type.String({ maxLength: 200, description: "Slug of the event type, the name in its booking link /book/{slug}." })),
};

/** `hostId` of a tool: a host by id. */
export const hostId = Type.Integer({ minimum: 1, description: "Id of the host (see list_hosts)." });

/** An event type as a tool's answer names it. */
export const EventTypeRef = z.object({ id: z.number().int(), title: z.string(), slug: z.string().nullable() });
export type EventTypeRef = z.infer<typeof EventTypeRef>;

/** A host as a tool's answer names it. */
export const HostRef = z.object({ id: z.number().int(), name: z.string() });
