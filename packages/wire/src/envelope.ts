import { oneOf } from "./literals.ts";
import { SeriesConflict } from "./recurrence.ts";
import { Type, type Static, type TSchema } from "@sinclair/typebox";

/** The success envelope every HTTP 200 body shares (spec part 2). */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    success: Type.Boolean(),
    message: Type.Optional(Type.String()),
    code: Type.Optional(Type.String({ description: "Present on business-level failures (success false)." })),
    data: Type.Optional(data),
  });

/** Success body with a typed payload, as the server sends it. */
export interface Envelope<T> {
  success: boolean;
  message?: string;
  code?: string;
  data?: T;
}

/**
 * What was wrong with one field, for clients that word the problem themselves (in the visitor's
 * language): a stable `code`, the English `message` also found in `errors`, and the limit a
 * `too_long`, `too_many` or `too_large` (`max`) or a `too_small` (`min`) broke.
 */
export const FIELD_ERROR_CODES = [
  "required",
  "invalid_email",
  "invalid_phone",
  "too_long",
  "too_many",
  "invalid_number",
  "invalid_date",
  "invalid_choice",
  "duplicate",
  "unknown_field",
  "control_characters",
  "invalid_datetime",
  "invalid_timezone",
  "wrong_duration",
  "too_small",
  "too_large",
  "hidden_field",
  "condition_unknown_field",
  "condition_order",
  "condition_kind",
  "invalid",
] as const;
export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

export const FieldError = Type.Object({
  field: Type.String({ description: "The key the message has in `errors`, e.g. `email`, `guests.2`, `customFields.<uuid>`." }),
  code: oneOf(FIELD_ERROR_CODES, { description: "Stable; clients translate by it. More codes may be added." }),
  message: Type.String({ description: "The same English text as in `errors`." }),
  max: Type.Optional(
    Type.Integer({ description: "The limit broken, with `too_long` (characters), `too_many` (items) and `too_large` (the greatest number allowed)." }),
  ),
  min: Type.Optional(Type.Integer({ description: "The limit broken, with `too_small`: the least number allowed." })),
});
export type FieldError = Static<typeof FieldError>;

/** Error body of spec part 7; a 422 carries `errors` keyed by field, and `fieldErrors` with a code for each message. */
export const ErrorBody = Type.Object({
  success: Type.Literal(false),
  status: Type.Integer(),
  code: Type.String(),
  message: Type.String(),
  hint: Type.String(),
  docs: Type.String(),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  fieldErrors: Type.Optional(Type.Array(FieldError, { description: "With a 422: every message of `errors` with its field and a stable code." })),
  conflicts: Type.Optional(Type.Array(SeriesConflict, { description: "With a 409 `series_unavailable`: the occurrences that cannot be booked." })),
});
export type ErrorBody = Static<typeof ErrorBody>;

/** Every stable error code a client may branch on, with its HTTP status. */
export const ERROR_CODES = {
  bad_request: 400,
  unsupported_api_version: 400,
  provider_not_configured: 400,
  unauthenticated: 401,
  forbidden: 403,
  event_type_disabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  validation_failed: 422,
  payment_required: 422,
  series_unavailable: 409,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes returned with HTTP 200 and `success: false`. */
export const BUSINESS_CODES = ["slot_locked", "slot_unavailable", "reservation_finished", "limit_reached"] as const;
export type BusinessCode = (typeof BUSINESS_CODES)[number];
