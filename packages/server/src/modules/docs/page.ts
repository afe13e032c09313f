import { escapeHtml } from "../../lib/html.ts";
import { ERROR_CODES, BUSINESS_CODES, LIMITS } from "@booking/wire";
import type { DocumentedOperation, OpenApiDocument } from "./openapi.ts";
import { TAGS } from "../../http/route-doc.ts";
import { MAX_SLOTS_PER_ANSWER } from "../time-slots/service.ts";
import { MAX_JSON_DEPTH } from "../../http/body.ts";

type JsonSchema = {
  type?: string | string[];
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: unknown;
  additionalProperties?: unknown;
  patternProperties?: Record<string, JsonSchema>;
};

const code = (s: string) => `<code>${escapeHtml(s)}</code>`;

const ERROR_TEXT: Record<string, string> = {
  bad_request: "The request is malformed: a body that is not JSON or not UTF-8.",
  unsupported_api_version: "The Service-Api-Version header names a version this server does not speak.",
  provider_not_configured: "A payment was requested for an event type without card payments.",
  unauthenticated: "The bearer token is missing or unknown.",
  forbidden: "The token is valid but may not do this (an event type token on the admin API, for instance).",
  event_type_disabled: "The event type is disabled; only POST /event-types/init still answers.",
  not_found: "Nothing is served at the path, or the reservation or event type does not exist.",
  method_not_allowed: "The path exists but not with this method; the Allow header lists the methods.",
  payload_too_large: "The request body is larger than the limit (64 KiB by default).",
  validation_failed: "Some fields are invalid; errors maps each field to its messages.",
  payment_required: "A paid reservation is confirmed before a successful payment.",
  rate_limited: "More requests than the limit in the current minute; wait Retry-After seconds.",
  internal_error: "An unexpected failure; retry, then contact support with the apigw-requestid.",
  service_unavailable:
    "The database is busy or out of reach for a moment (a restart, a failover); send the request again after Retry-After seconds. If the connection was lost while saving, the message says the change may have been saved: a retry with the same Idempotency-Key answers what was saved.",
  slot_locked: "HTTP 200, success false: someone else is booking the slot right now.",
  slot_unavailable: "HTTP 200, success false: the slot is full or outside the availability.",
  reservation_finished: "HTTP 200, success false: the reservation can no longer be changed this way (refresh, confirm, reschedule, cancel or pay).",
  limit_reached:
    "HTTP 200, success false: a booking limit of the event type or of its host (bookings or minutes per day, week or month) is reached for that day; pick another day.",
};

function typeOf(s: JsonSchema): string {
  if (s.anyOf) return s.anyOf.map(typeOf).join(" or ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === "array") return `array of ${s.items ? typeOf(s.items) : "any"}`;
  if (s.type === "object" && !s.properties) return "object (map)";
  const t = Array.isArray(s.type) ? s.type.join(" or ") : (s.type ?? "any");
  return s.format ? `${t}, ${s.format}` : t;
}

/** Rows of a field table, nested objects flattened to dotted names. */
function fieldRows(schema: JsonSchema, prefix = ""): string {
  const props = schema.properties ?? {};
  return Object.entries(props)
    .map(([name, s]) => {
      const full = prefix + name;
      const row = `<tr><td>${code(full)}</td><td>${escapeHtml(typeOf(s))}</td><td>${schema.required?.includes(name) ? "yes" : "no"}</td><td>${escapeHtml(s.description ?? "")}</td></tr>`;
      const inner = s.type === "object" && s.properties ? s : s.type === "array" && s.items?.properties ? s.items : null;
      return row + (inner && prefix.split(".").length < 4 ? fieldRows(inner, `${full}${s.type === "array" ? "[]" : ""}.`) : "");
    })
    .join("");
}

const table = (rows: string) =>
  rows ? `<table><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Notes</th></tr></thead><tbody>${rows}</tbody></table>` : "<p>None.</p>";

/** The human-readable reference of the public API: one self-contained HTML page, no scripts, no CDN. */
/** An operation with where it is served. */
type Listed = DocumentedOperation & { method: string; path: string };

/** The operations of the document with one of `tags`, in the order the routes were declared. */
function operationsOf(document: OpenApiDocument, tags: string[]): Listed[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, op]) => op.tags?.some((t) => tags.includes(t)))
      .map(([method, op]) => ({ ...op, method, path })),
  );
}

/** The human-readable reference of the API, built from the generated document: one self-contained HTML page, no scripts, no CDN. */
export function docsPage(document: OpenApiDocument, aliasPrefix: string, limits: { requestsPerMinute: number; maxBodyBytes: number }): string {
  const section = (op: Listed, auth: string) => {
    const response = (op.responses["200"]?.content?.["application/json"]?.schema ?? {}) as JsonSchema;
    const data = response.properties?.data;
    const query = (op.parameters ?? []).filter((p) => p.in === "query");
    const body = op.requestBody?.content["application/json"]?.schema as JsonSchema | undefined;
    const errors = Object.keys(op.responses).filter((s) => (Number(s) >= 400 && !["400", "429", "500", "503"].includes(s)) || (s === "400" && body));
    const reservationPath = op.path.includes("{reservationUuid}");
    return `<section id="${op.operationId}">
<h3><span class="m ${op.method}">${op.method.toUpperCase()}</span> ${code(op.path)}</h3>
<p><strong>${escapeHtml(op.summary)}.</strong> ${escapeHtml(op.description)}</p>
<p>${auth}${reservationPath ? " <code>{reservationUuid}</code>: the reservation; unknown, malformed or another event type's uuids answer 404." : ""}${(op.parameters ?? []).some((p) => p.name === "Idempotency-Key") ? " Honours an <code>Idempotency-Key</code> header." : ""} Errors: ${[...errors, "429"].map((e) => code(e)).join(", ")}.</p>
${query.length ? `<h4>Query</h4><table><thead><tr><th>Name</th><th>Type</th><th>Required</th><th>Notes</th></tr></thead><tbody>${query.map((q) => `<tr><td>${code(q.name)}</td><td>${escapeHtml(typeOf((q.schema ?? {}) as JsonSchema))}</td><td>${q.required ? "yes" : "no"}</td><td>${escapeHtml(q.description ?? (q.schema as JsonSchema | undefined)?.description ?? "")}</td></tr>`).join("")}</tbody></table>` : ""}
${body ? `<h4>Body${op.requestBody?.required === false ? " (optional)" : ""}</h4>${table(fieldRows(body))}` : ""}
<h4>Response <code>data</code></h4>
${data ? (data.type === "array" ? `<p>Array of ${data.items?.properties ? "objects:" : escapeHtml(typeOf(data.items ?? {}))}</p>${data.items?.properties ? table(fieldRows(data.items)) : ""}` : table(fieldRows(data))) : "<p>None.</p>"}
</section>`;
  };
  const publicOps = operationsOf(document, [TAGS.booking]);
  const ops = publicOps
    .map((op) => section(op, op.security?.length ? "Needs <code>Authorization: Bearer &lt;API token&gt;</code>." : "Needs no token."))
    .join("\n");
  const adminAuth: Record<string, string> = {
    "sign-in": "Needs no credential: it opens the console's session.",
    session: "Needs the console's session cookie.",
    admin: "Needs <code>Authorization: Bearer &lt;BOOKING_ADMIN_KEY&gt;</code> or the console's session cookie (changes from the console's own origin).",
  };
  const adminOps = operationsOf(document, [TAGS.console, TAGS.admin])
    .map((op) => section(op, adminAuth[op["x-access"] ?? "admin"]!))
    .join("\n");

  const errors = [...Object.entries(ERROR_CODES), ...BUSINESS_CODES.map((c) => [c, 200] as const)]
    .map(([c, status]) => `<tr id="error-${c}"><td>${status}</td><td>${code(c)}</td><td>${escapeHtml(ERROR_TEXT[c] ?? "")}</td></tr>`)
    .join("");

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Booking API reference</title>
<style>
:root{color-scheme:light dark;--fg:#1f2937;--bg:#fff;--muted:#6b7280;--line:#e5e7eb;--accent:#2563eb}
@media (prefers-color-scheme:dark){:root{--fg:#e5e7eb;--bg:#111827;--muted:#9ca3af;--line:#374151;--accent:#60a5fa}}
body{font:16px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);max-width:60rem;margin:0 auto;padding:1rem 1.5rem 4rem}
a{color:var(--accent)}code{font:0.9em ui-monospace,monospace}table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{border-bottom:1px solid var(--line);text-align:left;padding:.3rem .5rem;vertical-align:top}th{color:var(--muted);font-weight:600}
section{border-top:1px solid var(--line);margin-top:1.5rem}.m{display:inline-block;min-width:4rem;font:600 .8em ui-monospace,monospace;padding:.1rem .4rem;border-radius:4px;background:var(--line)}
tr:target{outline:2px solid var(--accent)}
</style></head>
<body>
<h1>Booking API reference</h1>
<p>Version 1. Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Every route of the public API is also served under ${code(aliasPrefix)}.</p>
<nav><ul>${publicOps.map((op) => `<li><a href="#${op.operationId}">${op.method.toUpperCase()} ${escapeHtml(op.path)}</a> — ${escapeHtml(op.summary)}</li>`).join("")}<li><a href="#admin">Admin API: the console's session, hosts, schedules, calendars and bookings</a></li><li><a href="#states">Reservation states</a></li><li><a href="#webhooks">Webhooks</a></li><li><a href="#errors">Errors</a></li><li><a href="#limits">Headers, limits and versions</a></li></ul></nav>
<h2>Conventions</h2>
<p>Requests and responses are JSON. A success is <code>{"success": true, "data": …}</code>; a business outcome such as a taken slot is HTTP 200 with <code>success: false</code> and a <code>code</code>. Every error is JSON with <code>success</code>, <code>status</code>, <code>code</code>, <code>message</code>, <code>hint</code> and <code>docs</code>; a 422 adds <code>errors</code>, messages keyed by field.</p>
<p>Authenticate with one of the event type's tokens: <code>Authorization: Bearer &lt;token&gt;</code>. A token acts on exactly one event type. Pages (the <code>&lt;booking-calendar&gt;</code> element, booking pages) carry the publishable link token (<code>bcl_…</code>); servers use the API token (<code>bk_…</code>), which is kept secret and never put in a page. Both act exactly alike; regenerating the API token replaces both.</p>
<h2>Endpoints</h2>
${ops}
<h2 id="admin">Admin API: the console's session, hosts, schedules, calendars and bookings</h2>
<p>The organizer's routes under <code>/admin</code>, behind <code>Authorization: Bearer &lt;BOOKING_ADMIN_KEY&gt;</code> or the organizer console's session cookie (not served at all without a configured key, unless development signs the console in with one-time links; an event type's tokens answer 403). A host's console session (opened with the link <code>POST /admin/hosts/{hostId}/sign-in-link</code> emails) reaches only what each route says of hosts, for its own host: 403 <code>forbidden</code> for the rest, 404 <code>not_found</code> for another host's schedule, calendar or booking. Hosts are the people whose time event types book: a host's bookings of any event type, schedules and calendars block the host in every event type. Event types name their hosts with <code>hosts</code> and <code>assignment</code> (collective or round-robin) in <code>POST</code>/<code>PATCH /admin/event-types</code>; the rest of the admin API is described in the repository's docs/admin.md and docs/hosts.md.</p>
${adminOps}
<h2 id="states">Reservation states</h2>
<p>Status strings: <code>held</code> (prepared, waiting for confirmation), <code>confirmed</code>, <code>expired</code> (a hold that timed out), <code>cancelled</code>. Expiry follows from time alone; no request is needed.</p>
<table><thead><tr><th>From</th><th>Request or event</th><th>Outcome</th></tr></thead><tbody>
<tr><td>none</td><td>POST /reservations</td><td>confirmed; full or not offered: <code>slot_unavailable</code>; being written: <code>slot_locked</code>; paid event type: 422 <code>payment_required</code></td></tr>
<tr><td>none</td><td>POST /reservations/prepare</td><td>held until now + <code>holdMinutes</code></td></tr>
<tr><td>held</td><td>time passes <code>heldUntil</code></td><td>expired; the seat is free again. A hold whose payment succeeded keeps its seat and is confirmed by the server (<code>reservation.created</code>); one whose payment is processing keeps it until the slot starts, while the server asks Stripe how the payment stands</td></tr>
<tr><td>expired, cancelled</td><td>its payment succeeds after the seat was taken</td><td>cancelled, the payment refunded (<code>reservation.cancelled</code>); confirm, refresh, a new payment request and cancel answer saying so (refund under way or made)</td></tr>
<tr><td>expired</td><td>24 hours pass, or the slot starts</td><td>cancelled</td></tr>
<tr><td>held, expired</td><td>refresh</td><td>held again if the seat is free (or still ours), else <code>reservation_finished</code></td></tr>
<tr><td>held</td><td>confirm</td><td>confirmed (paid event types: after a successful payment, else 422 <code>payment_required</code>)</td></tr>
<tr><td>expired</td><td>confirm</td><td>confirmed if its seat can be taken again, else <code>reservation_finished</code></td></tr>
<tr><td>confirmed</td><td>confirm</td><td>unchanged; the same result again</td></tr>
<tr><td>confirmed, cancelled</td><td>refresh</td><td><code>reservation_finished</code></td></tr>
<tr><td>held, confirmed</td><td>PUT (reschedule)</td><td>same status at the new time; within the reschedule notice 403 <code>forbidden</code> without the override token</td></tr>
<tr><td>expired, cancelled</td><td>PUT (reschedule), confirm</td><td><code>reservation_finished</code></td></tr>
<tr><td>held, expired, confirmed</td><td>DELETE (cancel)</td><td>cancelled, seat free at once; confirmed within the cancel notice: 403 <code>forbidden</code> without the override token; after the meeting ended: <code>reservation_finished</code></td></tr>
<tr><td>cancelled</td><td>DELETE (cancel)</td><td>success again, nothing changes</td></tr>
</tbody></table>
<h2 id="webhooks">Webhooks</h2>
<p>When an event type has a webhook URL, the service POSTs <code>reservation.created</code> (a reservation becomes confirmed), <code>reservation.rescheduled</code> and <code>reservation.cancelled</code> to it; a hold that is never confirmed sends nothing. The body is <code>{"type", "timestamp", "data": {reservation fields, "eventType": {"id", "title"}}}</code>.</p>
<p>Requests are signed per Standard Webhooks: <code>webhook-id</code> (the same on every retry), <code>webhook-timestamp</code> and <code>webhook-signature</code>, with the event type's <code>whsec_</code> secret. Only a 2xx answer counts; retries follow after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (or later if a 429 or 503 carries <code>Retry-After</code>), then the event is marked failed. A 410 stops the endpoint. Events of one reservation arrive in order; delivery is at least once, so deduplicate by <code>webhook-id</code>.</p>
<h2 id="errors">Errors</h2>
<table><thead><tr><th>HTTP</th><th>Code</th><th>When</th></tr></thead><tbody>${errors}</tbody></table>
<h2 id="limits">Headers, limits and versions</h2>
<ul>
<li>Rate limit: ${limits.requestsPerMinute} requests per minute per event type and client address for each of its tokens (every visitor, and every server, has their own budget), per client address without a token (page loads, such as the calendar's script, have a budget of their own per address), fixed 60-second windows. Every response carries <code>RateLimit-Policy</code>, <code>RateLimit</code>, <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code>; a 429 adds <code>Retry-After</code>.</li>
<li>Every response carries <code>Service-Api-Version: 1</code> and a unique <code>apigw-requestid</code>. Sending <code>Service-Api-Version</code> with another value answers 400 <code>unsupported_api_version</code>.</li>
<li>Text fields at most ${LIMITS.textMaxLength} characters (a textarea custom field ${LIMITS.textareaMaxLength}), email at most ${LIMITS.emailMaxLength}, at most ${LIMITS.maxGuests} guests and ${LIMITS.maxCustomFieldValues} custom field values, bodies at most ${Math.round(limits.maxBodyBytes / 1024)} KiB and ${MAX_JSON_DEPTH} levels of nesting, slot queries at most ${LIMITS.maxSlotRangeDays} days; a slot answer lists at most ${MAX_SLOTS_PER_ANSWER} slots in whole days, and when the range holds more it says <code>nextFrom</code>, the day to ask from next.</li>
</ul>
</body></html>`;
}
