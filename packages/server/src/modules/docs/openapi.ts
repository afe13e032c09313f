import type { TSchema } from "@sinclair/typebox";
import { ErrorBody, ERROR_CODES, EventTypeConfiguration, CustomField, InitData, Reservation, TimeSlot, Location } from "@booking/wire";
import { InitBody } from "../event-types/model.ts";
import { ConfigurationResponse, InitResponse } from "../event-types/model.ts";
import { TimeSlotsResponse } from "../time-slots/model.ts";
import { Type } from "@sinclair/typebox";

/** One operation of the public API as the document and the docs page describe it. */
export interface Operation {
  method: "get" | "post" | "put" | "delete";
  path: string;
  operationId: string;
  summary: string;
  description: string;
  auth: boolean;
  query?: { name: string; required: boolean; description: string; schema: TSchema }[];
  body?: { schema: TSchema; required: boolean };
  response: TSchema;
  errors: number[];
}

const TimezonesResponse = Type.Object({ success: Type.Boolean(), data: Type.Array(Type.String()) });

/** The operations this server implements, in the spec's order. */
export const OPERATIONS: Operation[] = [
  {
    method: "get",
    path: "/time-slots",
    operationId: "listTimeSlots",
    summary: "List bookable time slots",
    description:
      "Slots whose start lies between the start of `from` and the end of `until`, read as whole days in `timezone` (default: the event type's zone). At most 62 days per request. `start`/`end` carry the offset of that zone; the `*Iso8601` fields are UTC. Only slots with at least one free seat are listed.",
    auth: true,
    query: [
      { name: "from", required: true, description: "First day, YYYY-MM-DD.", schema: Type.String({ format: "date" }) },
      { name: "until", required: true, description: "Last day (inclusive), YYYY-MM-DD.", schema: Type.String({ format: "date" }) },
      { name: "timezone", required: false, description: "IANA zone for dates and readable times.", schema: Type.String() },
    ],
    response: TimeSlotsResponse,
    errors: [401, 403, 422, 429],
  },
  {
    method: "get",
    path: "/configuration",
    operationId: "getEventTypeConfiguration",
    summary: "Read the booking calendar configuration",
    description: "The configuration of the event type that owns the token: bookable day range, locale, theme, and the event type's public settings.",
    auth: true,
    response: ConfigurationResponse,
    errors: [401, 403, 429],
  },
  {
    method: "post",
    path: "/event-types/init",
    operationId: "initEventType",
    summary: "Start the booking calendar",
    description:
      "Everything the calendar needs to start: configuration, custom fields, and with `reservationUuid` the reservation being rescheduled. Also answers for a disabled event type, with `disabled: true`.",
    auth: true,
    body: { schema: InitBody, required: false },
    response: InitResponse,
    errors: [400, 401, 404, 422, 429],
  },
  {
    method: "get",
    path: "/timezones",
    operationId: "listTimezones",
    summary: "List supported IANA timezones",
    description: "Every IANA timezone identifier the API accepts. Needs no token.",
    auth: false,
    response: TimezonesResponse,
    errors: [429],
  },
];

const STATUS_TEXT: Record<number, string> = {
  400: "Malformed request (bad JSON, unsupported API version).",
  401: "Missing or invalid bearer token.",
  403: "Event type disabled, or action not allowed.",
  404: "Unknown path or reservation.",
  405: "Method not allowed on this path.",
  413: "Request body over 64 KiB.",
  422: "Invalid input; `errors` lists messages by field.",
  429: "Rate limit exceeded; wait `Retry-After` seconds.",
  500: "Unexpected failure.",
};

/** Builds the OpenAPI 3.1 document of the public API. */
export function openApiDocument(aliasPrefix: string): Record<string, unknown> {
  const headers = {
    "Service-Api-Version": { description: "API version of the answer; always 1.", schema: { type: "string", const: "1" } },
    "apigw-requestid": { description: "Unique id of this request; quote it to support.", schema: { type: "string" } },
    "RateLimit-Policy": { description: "Limit and window, e.g. `60;w=60`.", schema: { type: "string" } },
    RateLimit: { description: "`limit=<n>, remaining=<n>, reset=<seconds>`.", schema: { type: "string" } },
    "X-RateLimit-Limit": { schema: { type: "integer" } },
    "X-RateLimit-Remaining": { schema: { type: "integer" } },
  };
  const headerRefs = Object.fromEntries(Object.keys(headers).map((h) => [h, { $ref: `#/components/headers/${h}` }]));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const responses: Record<string, unknown> = {
      "200": { description: "Success envelope.", headers: headerRefs, content: { "application/json": { schema: plain(op.response) } } },
    };
    for (const status of [...op.errors, 405, 413, 500].filter((s, i, all) => all.indexOf(s) === i).sort()) {
      if (status === 413 && !op.body) continue;
      responses[String(status)] = { $ref: `#/components/responses/E${status}` };
    }
    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      security: op.auth ? [{ bearerAuth: [] }] : [],
      parameters: [
        { name: "Service-Api-Version", in: "header", required: false, description: "Pin the API version; only `1` is known.", schema: { type: "string", enum: ["1"] } },
        ...(op.query ?? []).map((q) => ({ name: q.name, in: "query", required: q.required, description: q.description, schema: plain(q.schema) })),
      ],
      ...(op.body ? { requestBody: { required: op.body.required, content: { "application/json": { schema: plain(op.body.schema) } } } } : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Booking API",
      version: "1",
      description:
        "Public API of the booking calendar: slots, configuration and booking of one event type, identified by its API token. Every response carries `Service-Api-Version: 1`, an `apigw-requestid` and the rate limit headers; every error is JSON.",
    },
    servers: [{ url: "/" }, { url: aliasPrefix, description: "Path-based alias; same routes." }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "The event type's API token." } },
      headers,
      schemas: {
        Error: plain(ErrorBody),
        TimeSlot: plain(TimeSlot),
        EventTypeConfiguration: plain(EventTypeConfiguration),
        CustomField: plain(CustomField),
        Reservation: plain(Reservation),
        Location: plain(Location),
        InitData: plain(InitData),
      },
      responses: Object.fromEntries(
        Object.entries(STATUS_TEXT).map(([status, description]) => [
          `E${status}`,
          {
            description: `${description} Codes: ${Object.entries(ERROR_CODES).filter(([, s]) => String(s) === status).map(([c]) => c).join(", ")}.`,
            headers: status === "429" ? { ...headerRefs, "Retry-After": { schema: { type: "integer" } } } : headerRefs,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          },
        ]),
      ),
    },
  };
}

/** A TypeBox schema as plain JSON Schema (drops TypeBox's symbol markers). */
export function plain(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema));
}
