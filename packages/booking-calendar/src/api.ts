import type {
  ConfirmInput,
  Envelope,
  ErrorBody,
  FieldError,
  InitData,
  PaymentInput,
  PaymentResult,
  ReservationInput,
  ReservationResult,
  RescheduleInput,
  SeriesSlot,
  TimeSlot,
} from "@booking/wire";

/** What kind of trouble a call ran into; the element words its message and retry from this. */
export type FailureKind =
  | "network" // no answer at all (offline, DNS, CORS)
  | "rate_limited" // 429: wait `retryAfter` seconds
  | "server" // 5xx
  | "unexpected" // an answer that is not the API's JSON
  | "validation" // 422 with `errors` by field, or payment_required
  | "business" // 200 with success false (slot_locked, slot_unavailable, reservation_finished, limit_reached)
  | "refused"; // any other 4xx (401, 403, 404, ...)

/** A failed API call, with the API's own code when it sent one. */
export class ApiFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly code: string,
    message: string,
    readonly status: number | null = null,
    readonly errors: Record<string, string[]> = {},
    readonly retryAfter = 0,
    /** A 422's problems with their codes, when the server sent them (`fieldErrors`). */
    readonly fieldErrors: FieldError[] | null = null,
  ) {
    super(message);
    this.name = "ApiFailure";
  }
}

/** A key that makes a retried POST safe: the server answers a repeat with the first answer. */
export function idempotencyKey(): string {
  // randomUUID exists only in secure contexts; embeds on plain-http pages still need a key.
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const NOT_UNDERSTOOD = "The booking service sent an answer the calendar does not understand.";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The public booking API as the element uses it: one event type's token, JSON in and out, every
 * failure turned into an `ApiFailure` so no view has to read a Response.
 */
export class BookingApi {
  constructor(
    readonly base: string,
    private readonly token: string,
    private readonly fetcher: (url: string, init: RequestInit) => Promise<Response> = (url, init) => fetch(url, init),
  ) {}

  init(reservationUuid?: string): Promise<InitData> {
    return this.call("POST", "/event-types/init", reservationUuid ? { reservationUuid } : {});
  }

  /** Every slot of the range: an answer that stops at the server's bound names the day to go on from. */
  async timeSlots(from: string, until: string, timezone: string): Promise<TimeSlot[]> {
    const slots: TimeSlot[] = [];
    for (let next: string | undefined = from; next !== undefined; ) {
      const query = new URLSearchParams({ from: next, until, timezone });
      const page: Envelope<TimeSlot[]> & { nextFrom?: unknown } = await this.envelope("GET", `/time-slots?${query}`);
      slots.push(...(page.data ?? []));
      // Only a later day moves on, so a confused answer cannot keep the calendar asking.
      next = typeof page.nextFrom === "string" && page.nextFrom > next && page.nextFrom <= until ? page.nextFrom : undefined;
    }
    return slots;
  }

  /** The first day on or after `from` (in `timezone`) with a free time, or null within the horizon. */
  async firstFreeDay(from: string, timezone: string): Promise<string | null> {
    const found = await this.call<{ date?: unknown }>("GET", `/time-slots/first-free?${new URLSearchParams({ from, timezone })}`);
    return typeof found?.date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(found.date) ? found.date : null;
  }

  /** The dates a series starting at `start` would have, each with whether it is free now. */
  seriesSlots(start: string, interval: string, count: number): Promise<SeriesSlot[]> {
    return this.call("GET", `/time-slots/series?${new URLSearchParams({ start, interval, count: String(count) })}`);
  }

  /** Ends a series from this occurrence on (this one and every later one cancelled); a reason, when given, goes to the organizer. */
  async endSeries(uuid: string, reason = ""): Promise<void> {
    await this.call("DELETE", `/reservations/${encodeURIComponent(uuid)}/series`, reason.trim() ? { reason: reason.trim() } : undefined);
  }

  timezones(): Promise<string[]> {
    return this.call("GET", "/timezones");
  }

  create(input: ReservationInput, key: string): Promise<ReservationResult> {
    return this.call("POST", "/reservations", input, key);
  }

  /** Holds a seat for the payment; an answer without the hold's uuid fails, as nothing could pay for or give back that seat. */
  async prepare(input: ReservationInput, key: string): Promise<ReservationResult & { uuid: string }> {
    const held = await this.call<ReservationResult>("POST", "/reservations/prepare", input, key);
    if (!held?.uuid) throw new ApiFailure("unexpected", "unexpected_response", NOT_UNDERSTOOD);
    return held as ReservationResult & { uuid: string };
  }

  confirm(uuid: string, input: ConfirmInput, key: string): Promise<ReservationResult> {
    return this.call("POST", `/reservations/${encodeURIComponent(uuid)}/confirm`, input, key);
  }

  async refresh(uuid: string): Promise<void> {
    await this.call("POST", `/reservations/${encodeURIComponent(uuid)}/refresh`);
  }

  pay(uuid: string, input: PaymentInput, key: string): Promise<PaymentResult> {
    return this.call("POST", `/reservations/${encodeURIComponent(uuid)}/payments`, input, key);
  }

  reschedule(uuid: string, input: RescheduleInput): Promise<ReservationResult> {
    return this.call("PUT", `/reservations/${encodeURIComponent(uuid)}`, input);
  }

  /** Cancels; a reason, when given, goes to the organizer. */
  async cancel(uuid: string, reason = ""): Promise<void> {
    await this.call("DELETE", `/reservations/${encodeURIComponent(uuid)}`, reason.trim() ? { reason: reason.trim() } : undefined);
  }

  /** Gives a held seat back as the page goes away: a `keepalive` DELETE nobody waits for. */
  release(uuid: string): void {
    this.call("DELETE", `/reservations/${encodeURIComponent(uuid)}`, undefined, undefined, true).catch(() => undefined);
  }

  private async call<T>(method: string, path: string, body?: unknown, key?: string, keepalive = false): Promise<T> {
    return (await this.envelope<T>(method, path, body, key, keepalive)).data as T;
  }

  /** The whole success envelope of a request; every failure thrown as an `ApiFailure`. */
  private async envelope<T>(method: string, path: string, body?: unknown, key?: string, keepalive = false): Promise<Envelope<T>> {
    const headers: Record<string, string> = { Accept: "application/json", Authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (key) headers["Idempotency-Key"] = key;
    let response: Response;
    try {
      response = await this.fetcher(`${this.base}${path}`, { method, headers, body: body === undefined ? null : JSON.stringify(body), keepalive });
    } catch {
      throw new ApiFailure("network", "network_error", "The booking service could not be reached.");
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      throw new ApiFailure(
        response.status >= 500 ? "server" : "unexpected",
        "unexpected_response",
        `The booking service answered HTTP ${response.status} without its JSON.`,
        response.status,
      );
    }
    if (!isObject(json) || typeof json.success !== "boolean") {
      throw new ApiFailure("unexpected", "unexpected_response", NOT_UNDERSTOOD, response.status);
    }
    if (response.ok && json.success) return json as unknown as Envelope<T>;
    if (response.ok) {
      throw new ApiFailure(
        "business",
        typeof json.code === "string" ? json.code : "failed",
        typeof json.message === "string" ? json.message : "The request did not succeed.",
        response.status,
      );
    }
    throw failureOf(response, json as Partial<ErrorBody>);
  }
}

/** The well-formed entries of a 422's `fieldErrors`, or null when there are none to go by. */
function fieldErrorsOf(value: unknown): FieldError[] | null {
  if (!Array.isArray(value)) return null;
  const valid = value.filter(
    (e): e is FieldError =>
      isObject(e) &&
      typeof e.field === "string" &&
      typeof e.code === "string" &&
      typeof e.message === "string" &&
      (e.max === undefined || typeof e.max === "number"),
  );
  return valid.length === value.length && valid.length > 0 ? valid : null;
}

function failureOf(response: Response, body: Partial<ErrorBody>): ApiFailure {
  const code = typeof body.code === "string" ? body.code : `http_${response.status}`;
  const message = typeof body.message === "string" ? body.message : `HTTP ${response.status}`;
  const status = response.status;
  if (status === 429) {
    const seconds = Number(response.headers.get("Retry-After"));
    return new ApiFailure("rate_limited", code, message, status, {}, Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 5);
  }
  if (status >= 500) return new ApiFailure("server", code, message, status);
  if (status === 422) {
    const errors = isObject(body.errors) ? (body.errors as Record<string, string[]>) : {};
    return new ApiFailure("validation", code, message, status, errors, 0, fieldErrorsOf(body.fieldErrors));
  }
  return new ApiFailure("refused", code, message, status);
}
