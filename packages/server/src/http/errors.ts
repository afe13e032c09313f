import { ERROR_CODES, type ErrorCode, type FieldError, type SeriesConflict } from "@booking/wire";
import { DomainError } from "../domain/errors.ts";

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
  series_unavailable: "Pick another start or fewer occurrences; GET /time-slots/series shows which are free.",
  rate_limited: "Wait Retry-After seconds before the next request.",
  internal_error: "Retry later; if it persists, contact support quoting the apigw-requestid header.",
  service_unavailable: "Nothing was changed; send the request again after Retry-After seconds.",
};

/**
 * A failure the API reports with the spec's error body: a domain refusal with what only HTTP knows
 * (the status from the wire's code map, headers such as `Allow` or `Retry-After`, the hint). Thrown
 * by the HTTP layer itself and made from any DomainError a service throws (`ApiError.of`); turned
 * into JSON in one place (the contract plugin's error handler).
 */
export class ApiError extends DomainError {
  readonly status: number;
  constructor(
    code: ErrorCode,
    message: string,
    readonly extra: {
      errors?: Record<string, string[]>;
      fieldErrors?: FieldError[];
      headers?: Record<string, string>;
      hint?: string;
      conflicts?: SeriesConflict[];
    } = {},
  ) {
    super(code, message, { errors: extra.errors, fieldErrors: extra.fieldErrors, hint: extra.hint, conflicts: extra.conflicts });
    this.status = ERROR_CODES[code];
  }
  get hint(): string {
    return this.extra.hint ?? HINTS[this.code];
  }
  /** The HTTP answer to a refusal thrown by a service. */
  static of(error: DomainError): ApiError {
    return error instanceof ApiError ? error : new ApiError(error.code, error.message, error.details);
  }
}

// The rules' own failures, re-exported for the HTTP layer's modules that build or check them.
export { addError, BusinessFailure, codedAsInvalid, DomainError, FieldErrors, ValidationFailed } from "../domain/errors.ts";
