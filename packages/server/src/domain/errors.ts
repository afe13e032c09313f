import type { BusinessCode, ErrorCode } from "@booking/wire";

/**
 * A refusal decided by the booking rules, carrying the wire's error code and, for invalid input,
 * messages keyed by field. Services throw it without knowing about HTTP: the status, the hint and
 * any headers of the answer are chosen by the HTTP layer (src/http/errors.ts) from the code.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { errors?: Record<string, string[]>; hint?: string } = {},
  ) {
    super(message);
  }
}

/** A `validation_failed` refusal with messages keyed by field (`from`, `customFields.<uuid>`, ...). */
export class ValidationFailed extends DomainError {
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

/**
 * A business outcome the caller is told about rather than an error (the slot is taken or locked,
 * the reservation is over); the HTTP layer answers it with 200 and `success: false` (spec part 7).
 */
export class BusinessFailure extends Error {
  constructor(readonly code: BusinessCode, message: string) {
    super(message);
  }
}
