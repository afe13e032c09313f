import { toOpenAPISchema } from "@elysiajs/openapi";
import type { AnyElysia } from "elysia";
import { CustomField, ErrorBody, ERROR_CODES, EventTypeConfiguration, InitData, Location, Reservation, ReservationInput, TimeSlot } from "@booking/wire";
import { documentedPathParam } from "../../http/path-params.ts";
import { TAGS } from "../../http/route-doc.ts";

/** An operation of the generated document, as the docs page reads it. */
export interface DocumentedOperation {
  operationId: string;
  summary: string;
  description: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Record<string, unknown> }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: Record<string, unknown> }>; $ref?: string }>;
  "x-access"?: string;
  "x-idempotent"?: boolean;
  "x-optional-body"?: boolean;
}

/** The generated document: the routes' own declarations, with what the API shares added once. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers: Record<string, unknown>[];
  paths: Record<string, Record<string, DocumentedOperation>>;
  components: Record<string, unknown>;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Malformed request (bad JSON, unsupported API version).",
  401: "Missing or invalid bearer token.",
  403: "Event type disabled, or action not allowed.",
  404: "Unknown path or reservation.",
  405: "Method not allowed on this path.",
  413: "Request body over 64 KiB.",
  422: "Invalid input; `errors` lists messages by field, and `fieldErrors` gives each message with its field and a stable `code` (`required`, `invalid_email`, `too_long` with `max`, `too_small` with `min`, ...) for clients that word errors in their own language.",
  429: "Rate limit exceeded; wait `Retry-After` seconds.",
  500: "Unexpected failure.",
  503: "The store is busy or the database out of reach for a moment (a restart, a failover); nothing was changed. Send the request again after `Retry-After` seconds.",
};

/** Drops what only the server reads from a schema (`noValidate`), recursively, as plain JSON. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === "noValidate" ? undefined : v)));
}

/**
 * Builds the OpenAPI 3.1 document from the routes' declarations (`detail`, `params`, `query`, `body`,
 * `response`), leaving out the alias that serves the public API a second time. Errors refer to one
 * shared answer per status, which lists its codes; the public API's answers carry its headers.
 */
export function openApiDocument(app: AnyElysia, aliasPrefix: string): OpenApiDocument {
  const alias = new RegExp(`^${aliasPrefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(/|$)`);
  const headers = {
    "Service-Api-Version": { description: "API version of the answer; always 1.", schema: { type: "string", const: "1" } },
    "apigw-requestid": { description: "Unique id of this request; quote it to support.", schema: { type: "string" } },
    "RateLimit-Policy": { description: "Limit and window, e.g. `60;w=60`.", schema: { type: "string" } },
    RateLimit: { description: "`limit=<n>, remaining=<n>, reset=<seconds>`.", schema: { type: "string" } },
    "X-RateLimit-Limit": { schema: { type: "integer" } },
    "X-RateLimit-Remaining": { schema: { type: "integer" } },
  };
  const headerRefs = Object.fromEntries(Object.keys(headers).map((h) => [h, { $ref: `#/components/headers/${h}` }]));
  const generated = plain(toOpenAPISchema(app, { paths: [alias], staticFile: false }, undefined, undefined, "3.1.0"));
  const paths = generated.paths as unknown as Record<string, Record<string, DocumentedOperation>>;
  // Request bodies are JSON, read by the contract's own parser (which the generator cannot name):
  // each route's body schema is documented as JSON, required unless every field is optional.
  for (const route of app.routes) {
    const op = paths[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method.toLowerCase()];
    const body = route.hooks?.body as object | undefined;
    if (!op || !body || typeof body !== "object") continue;
    op.requestBody = { required: !op["x-optional-body"], content: { "application/json": { schema: plain(body) as Record<string, unknown> } } };
  }
  for (const operations of Object.values(paths)) for (const op of Object.values(operations)) delete op["x-optional-body"];
  for (const operations of Object.values(paths)) {
    for (const op of Object.values(operations)) {
      const isBooking = op.tags?.includes(TAGS.booking) ?? false;
      // A path parameter as its route's `params` declare it: the schema's description becomes the parameter's.
      for (const p of op.parameters ?? []) {
        if (p.in !== "path" || !p.schema) continue;
        const { description, schema } = documentedPathParam(p.schema);
        Object.assign(p, description ? { description, schema } : { schema });
      }
      if (isBooking) {
        op.parameters = [
          {
            name: "Service-Api-Version",
            in: "header",
            required: false,
            description: "Pin the API version; only `1` is known.",
            schema: { type: "string", enum: ["1"] },
          },
          ...(op["x-idempotent"]
            ? [
                {
                  name: "Idempotency-Key",
                  in: "header",
                  required: false,
                  description:
                    "Retries with the same key and body get the first answer (header `Idempotent-Replayed: true`); the same key with another body is 422.",
                  schema: { type: "string", maxLength: 255 },
                },
              ]
            : []),
          ...(op.parameters ?? []),
        ];
      }
      delete op["x-idempotent"];
      // The public API's paths answer another method with 405 and an Allow header.
      if (isBooking) op.responses["405"] = {};
      for (const [status, answer] of Object.entries(op.responses)) {
        if (Number(status) >= 400) op.responses[status] = { $ref: `#/components/responses/E${status}` };
        else if (status === "200") Object.assign(answer, { description: "Success.", ...(isBooking ? { headers: headerRefs } : {}) });
      }
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Booking API",
      version: "1",
      description:
        "Public API of the booking calendar: slots, configuration and booking of one event type, identified by its API token (or its publishable link token, which acts alike). Which token goes where: pages (the `<booking-calendar>` element, booking pages, embed HTML) carry the link token (`bcl_…`, the admin API's `linkToken`), which is public by design; the API token (`bk_…`) is for servers and kept secret. Rate limit: each of an event type's tokens counts per event type and client address (IPv6 per /64), so no client, whichever token it holds, can use up another address's budget; requests without a valid token count per client address. Every response carries `Service-Api-Version: 1`, an `apigw-requestid` and the rate limit headers; every error is JSON. An event type with a slug has a shareable HTML booking page at `/book/{slug}` (outside this API): the configuration answers its address as `bookingUrl`, and reservation results carry the visitor's reschedule and cancel link as `manageUrl`. The organizer's private iCalendar feed of an event type's confirmed bookings is at `/feeds/{feedToken}.ics` (outside this API, `text/calendar` with an ETag; its address is in the admin API's event type answer as `feedUrl`). The element's script-tag file is served (outside this API, to any origin) at `/embed/v/{version}/booking-calendar.js`, immutable and cached for a year (an earlier version's URL redirects to the current one), and at `/embed/booking-calendar.js`, revalidated after five minutes; the same file opens the calendar in a popup or from a floating button. Beside either URL it fetches what only some pages need, on first need: its texts in other languages at `locales/{language}.json`, and parts of its code at `parts/popup.js` (the popup and floating button) and `parts/payment.js` (the card payment step) and `parts/manage.js` (the screens of an existing booking), e.g. `/embed/parts/popup.js` or, immutable, `/embed/v/{version}/parts/popup.js`. For a paid event type the configuration's `payment.stripeJsUrl`, when present, names the Stripe.js the element loads instead of Stripe's own (the server's stand-in outside production).",
    },
    servers: [{ url: "/" }, { url: aliasPrefix, description: "Path-based alias; same routes." }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description:
            "The event type's publishable link token (bcl_...), which pages carry, or its API token (bk_...), which servers keep secret. Either counts in a rate limit budget per event type and client address.",
        },
        adminKey: { type: "http", scheme: "bearer", description: "The server's BOOKING_ADMIN_KEY (admin routes, tagged Admin)." },
        consoleSession: {
          type: "apiKey",
          in: "cookie",
          name: "booking_console",
          description:
            "The organizer console's session cookie (`__Host-booking_console` in production), set by `POST /console/session`. Changes sent with it must carry the console's own `Origin` (403 `forbidden` otherwise). An `admin` session may use every admin route; a `host` session only what each route says of hosts, for its own host. An answer that moves the session's end on (at most once a minute) renews the cookie for as long, whatever its status; a lockout of sign-ins from the address never ends a session.",
        },
      },
      headers,
      // The public API's main shapes under their names, for clients that generate types from them.
      schemas: {
        ...(generated.components.schemas as Record<string, unknown>),
        ...plain({ Error: ErrorBody, TimeSlot, EventTypeConfiguration, CustomField, Reservation, Location, InitData, ReservationInput }),
      },
      responses: Object.fromEntries(
        Object.entries(STATUS_TEXT).map(([status, description]) => [
          `E${status}`,
          {
            description: `${description} Codes: ${Object.entries(ERROR_CODES)
              .filter(([, s]) => String(s) === status)
              .map(([c]) => c)
              .join(", ")}.`,
            headers: status === "429" || status === "503" ? { ...headerRefs, "Retry-After": { schema: { type: "integer" } } } : headerRefs,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          },
        ]),
      ),
    },
  };
}
