import type {
  AdminBookingDetail,
  AdminBookingPage,
  BusySourceInput,
  BusySourceTestAnswer,
  BusySourceView,
  ConsoleSignInBody,
  CreatedEventType,
  DeliveryView,
  Envelope,
  ErrorBody,
  EventTypeCreate,
  EventTypePatch,
  EventTypeView,
  FieldError,
  HostPatch,
  HostView,
  IssuedTokens,
  OrganizerCancelBody,
  OrganizerRescheduleBody,
  RegenerateTokenBody,
  ReservationResult,
  RotatedFeedToken,
  RotatedWebhookSecret,
  ScheduleCreate,
  SchedulePatch,
  ScheduleView,
  SessionView,
  SignInLinkSent,
  SyncNowAnswer,
  TimeSlot,
  WritableCalendar,
  WriteBookingsInput,
} from "@booking/wire";

/**
 * One problem of a 422 as `fieldErrors` gives it (the wire's `FieldError`): the field, a stable
 * code, the English message and the limit broken. Read leniently: a code added later is kept.
 */
export type FieldProblem = Omit<FieldError, "code"> & { code: FieldError["code"] | (string & {}) };

/**
 * A refusal of the admin API, with the spec's code and, for a 422, the messages per field
 * (`errors`) and each with its code (`fieldErrors`), which the console words in its language.
 */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly fieldErrors: FieldProblem[] = [],
  ) {
    super(message);
  }
}

/** The well-formed entries of a 422's `fieldErrors` (none when the answer has none). */
function problemsOf(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  const limit = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? n : undefined);
  return value
    .filter(
      (e): e is Record<string, unknown> =>
        !!e && typeof e === "object" && typeof e.field === "string" && typeof e.code === "string" && typeof e.message === "string",
    )
    .map((e) => ({ field: e.field as string, code: e.code as string, message: e.message as string, min: limit(e.min), max: limit(e.max) }));
}

/** Called when the session has ended (401), so the console shows the sign-in again. */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (handler: () => void): void => {
  onSignedOut = handler;
};

/** A query string's values; undefined, null and empty ones are left out. */
export type QueryParams = Record<string, string | number | undefined | null>;

/**
 * The server's paths the console calls, each as `METHOD /path/:param`, with the body it takes
 * (`undefined`: none) and the `data` of its answer (`string`: the message of an answer without data).
 * Every shape is the wire's, so a renamed field or a wrong body is a compile error here and at the call.
 */
export interface Endpoints {
  "POST /console/session": { body: ConsoleSignInBody; answer: SessionView };
  "GET /console/session": { body: undefined; answer: SessionView };
  "DELETE /console/session": { body: undefined; answer: string };
  "GET /admin/sessions": { body: undefined; answer: SessionView[] };
  "DELETE /admin/sessions/:sessionId": { body: undefined; answer: string };
  "GET /admin/event-types": { body: undefined; answer: EventTypeView[] };
  "POST /admin/event-types": { body: EventTypeCreate; answer: CreatedEventType };
  "GET /admin/event-types/:id": { body: undefined; answer: EventTypeView };
  "PATCH /admin/event-types/:id": { body: EventTypePatch; answer: EventTypeView };
  "POST /admin/event-types/:id/disable": { body: undefined; answer: EventTypeView };
  "POST /admin/event-types/:id/enable": { body: undefined; answer: EventTypeView };
  "POST /admin/event-types/:id/token": { body: RegenerateTokenBody; answer: IssuedTokens };
  "POST /admin/event-types/:id/webhook-secret": { body: undefined; answer: RotatedWebhookSecret };
  "POST /admin/event-types/:id/feed-token": { body: undefined; answer: RotatedFeedToken };
  "GET /admin/event-types/:id/deliveries": { body: undefined; answer: DeliveryView[] };
  "POST /admin/event-types/:id/deliveries/:deliveryId/retry": { body: undefined; answer: string };
  "GET /admin/reservations": { body: undefined; answer: AdminBookingPage };
  "GET /admin/event-types/:id/reservations/:uuid": { body: undefined; answer: AdminBookingDetail };
  "POST /admin/event-types/:id/reservations/:uuid/cancel": { body: OrganizerCancelBody; answer: string };
  "GET /admin/event-types/:id/reservations/:uuid/time-slots": { body: undefined; answer: TimeSlot[] };
  "POST /admin/event-types/:id/reservations/:uuid/reschedule": { body: OrganizerRescheduleBody; answer: ReservationResult };
  "GET /admin/hosts": { body: undefined; answer: HostView[] };
  "POST /admin/hosts/:hostId/sign-in-link": { body: undefined; answer: SignInLinkSent };
  "POST /admin/hosts/:hostId/feed-token": { body: undefined; answer: HostView };
  "PATCH /admin/hosts/:hostId": { body: HostPatch; answer: HostView };
  "GET /admin/hosts/:hostId/schedules": { body: undefined; answer: ScheduleView[] };
  "POST /admin/hosts/:hostId/schedules": { body: ScheduleCreate; answer: ScheduleView };
  "PATCH /admin/schedules/:scheduleId": { body: SchedulePatch; answer: ScheduleView };
  "GET /admin/hosts/:hostId/busy-sources": { body: undefined; answer: BusySourceView[] };
  "POST /admin/hosts/:hostId/busy-sources": { body: BusySourceInput; answer: BusySourceView };
  "POST /admin/hosts/:hostId/busy-sources/test": { body: BusySourceInput; answer: BusySourceTestAnswer };
  "DELETE /admin/busy-sources/:sourceId": { body: undefined; answer: string };
  "POST /admin/busy-sources/:sourceId/sync": { body: undefined; answer: SyncNowAnswer };
  "GET /admin/busy-sources/:sourceId/calendars": { body: undefined; answer: WritableCalendar[] };
  "PUT /admin/busy-sources/:sourceId/write-bookings": { body: WriteBookingsInput; answer: BusySourceView };
  "DELETE /admin/busy-sources/:sourceId/write-bookings": { body: undefined; answer: BusySourceView };
}
export type Endpoint = keyof Endpoints;

/** The `:name` parameters of a path pattern. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** What a call of `endpoint` gives: its path's parameters and its body when it has them, a query string when wanted. */
export type CallOf<E extends Endpoint> = ([ParamNames<E>] extends [never] ? { params?: undefined } : { params: Record<ParamNames<E>, string | number> }) &
  (Endpoints[E]["body"] extends undefined ? { body?: undefined } : { body: Endpoints[E]["body"] }) & { query?: QueryParams };

/** The answer of `endpoint`: the envelope's `data` (or its message). */
export type AnswerOf<E extends Endpoint> = Endpoints[E]["answer"];

/**
 * Calls the server as the signed-in console: same origin, the session cookie, JSON both ways. The
 * browser adds `Origin` to every change, which the server checks. Answers the envelope's `data`
 * (or its message for answers without data); throws ApiFailure for every refusal.
 */
export async function api<E extends Endpoint>(
  endpoint: E,
  ...[call]: Record<never, never> extends CallOf<E> ? [CallOf<E>?] : [CallOf<E>]
): Promise<AnswerOf<E>> {
  const [method, pattern] = endpoint.split(" ") as [string, string];
  const params: Record<string, string | number> = call?.params ?? {};
  const path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name]))) + query(call?.query ?? {});
  const body: unknown = call?.body;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiFailure(0, "network", "The server could not be reached.");
  }
  const answer = (await response.json().catch(() => null)) as (Partial<Envelope<AnswerOf<E>>> & Partial<Pick<ErrorBody, "errors" | "fieldErrors">>) | null;
  if (!response.ok || !answer || answer.success === false) {
    const failure = new ApiFailure(
      response.status,
      answer?.code ?? "internal_error",
      answer?.message ?? `HTTP ${response.status}`,
      answer?.errors ?? {},
      problemsOf(answer?.fieldErrors),
    );
    if (response.status === 401 && !path.startsWith("/console/session")) onSignedOut();
    throw failure;
  }
  return (answer.data ?? answer.message) as AnswerOf<E>;
}

/** The query string of the defined values. */
export function query(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
}
