import { ERROR_CODES, type BusinessCode, type ErrorCode } from "@booking/wire";

const HINTS: Record<ErrorCode, string> = {
  bad_request: "Send a well-formed JSON body with Content-Type: application/json.",
  unsupported_api_version: "Send Service-Api-Version: 1 or leave the header out.",
  provider_not_configured: "Ask the organizer to set up card payments for this event type.",
  unauthenticated: "Send Authorization: Bearer <API token> of the event type.",
  forbidden: "This token may not perform this action.",
  event_type_disabled: "The organizer has disabled this event type; it takes no bookings.",
  not_found: "Check the path and the identifiers in it.",
  method_not_allowed: "Use one of the methods listed in the Allow header.",
  payload_too_large: "Send a smaller request body; the message gives the limit.",
  validation_failed: "Fix the fields listed in errors and send the request again.",
  payment_required: "Complete the card payment before confirming.",
  rate_limited: "Wait Retry-After seconds before the next request.",
  internal_error: "Retry later; if it persists, contact support quoting the apigw-requestid header.",
};

/**
 * A failure the API reports with the spec's error body. Thrown anywhere below a route and turned
 * into JSON in one place (the contract plugin's error handler).
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { errors?: Record<string, string[]>; headers?: Record<string, string>; hint?: string } = {},
  ) {
    super(message);
    this.status = ERROR_CODES[code];
  }
  get hint(): string {
    return this.extra.hint ?? HINTS[this.code];
  }
}

/** A 422 `validation_failed` with messages keyed by field (`from`, `customFields.<uuid>`, ...). */
export class ValidationFailed extends ApiError {
  constructor(readonly errors: Record<string, string[]>) {
    super("validation_failed", "The request has invalid fields.", { errors });
  }
  /** Throws when `errors` has any entry. */
  static check(errors: Record<string, string[]>): void {
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  }
}

/** Adds a message to an errors map under a field. */
export function addError(errors: Record<string, string[]>, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

/** A business-level outcome answered with HTTP 200 and `success: false` (spec part 7). */
export class BusinessFailure extends Error {
  constructor(readonly code: BusinessCode, message: string) {
    super(message);
  }
}
