import type { BusinessCode, ErrorCode, FieldError, FieldErrorCode, SeriesConflict } from "@booking/wire";

/**
 * A refusal decided by the booking rules, carrying the wire's error code and, for invalid input,
 * messages keyed by field. Services throw it without knowing about HTTP: the status, the hint and
 * any headers of the answer are chosen by the HTTP layer (src/http/errors.ts) from the code.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { errors?: Record<string, string[]>; fieldErrors?: FieldError[]; hint?: string; conflicts?: SeriesConflict[] } = {},
  ) {
    super(message);
  }
}

/**
 * A `validation_failed` refusal with messages keyed by field (`from`, `customFields.<uuid>`, ...),
 * and each message with a code when it was collected in `FieldErrors` (else code `invalid`).
 */
export class ValidationFailed extends DomainError {
  constructor(
    readonly errors: Record<string, string[]>,
    fieldErrors: FieldError[] = codedAsInvalid(errors),
  ) {
    super("validation_failed", "The request has invalid fields.", { errors, fieldErrors });
  }
  /** Throws when `errors` has any entry. */
  static check(errors: Record<string, string[]> | FieldErrors): void {
    if (errors instanceof FieldErrors) {
      if (errors.list.length > 0) throw new ValidationFailed(errors.messages, errors.list);
    } else if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  }
}

/** Every message of an errors map as a field error of code `invalid`. */
export function codedAsInvalid(errors: Record<string, string[]>): FieldError[] {
  return Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => ({ field, code: "invalid" as const, message })));
}

/**
 * The problems of one request as they are found, each with its stable code, so a client can word
 * them in its visitor's language; `messages` is the spec's `errors` map of the same problems.
 */
export class FieldErrors {
  readonly list: FieldError[] = [];
  readonly messages: Record<string, string[]> = {};

  add(field: string, code: FieldErrorCode, message: string, max?: number, min?: number): void {
    this.list.push({ field, code, message, ...(max === undefined ? {} : { max }), ...(min === undefined ? {} : { min }) });
    addError(this.messages, field, message);
  }
}

/** Adds a message to an errors map under a field. */
export function addError(errors: Record<string, string[]>, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

/**
 * A business outcome the caller is told about rather than an error (the slot is taken or locked,
 * the reservation is over); the HTTP layer answers it with 200 and `success: false` (spec part 7).
 */
export class BusinessFailure extends Error {
  constructor(
    readonly code: BusinessCode,
    message: string,
  ) {
    super(message);
  }
}
