// No schema library here: the component bundles these numbers and patterns and nothing else of this package.
/** Limits of decisions.md that both server and component enforce. */
export const LIMITS = {
  textMaxLength: 500,
  /** A custom field of type `textarea`. */
  textareaMaxLength: 5000,
  emailMaxLength: 254,
  maxGuests: 10,
  maxCustomFieldValues: 50,
  maxBodyBytes: 64 * 1024,
  maxSlotRangeDays: 62,
} as const;

/**
 * What counts as an email address: one `@`, a dot after it, no spaces, no control characters (C0,
 * DEL, C1: they end up in mail headers and logs) and no characters mail systems quote. The server
 * refuses anything else and the component says so before the round trip.
 */
export const EMAIL_PATTERN = /^[^\s\0-\x1f\x7f-\x9f@"<>()[\]\\,;:]+@[^\s\0-\x1f\x7f-\x9f@"<>()[\]\\,;:]+\.[^\s\0-\x1f\x7f-\x9f@"<>()[\]\\,;:]+$/;

/** What counts as a phone number: digits, spaces, `+ ( ) . -`, 3 to 32 characters (checked trimmed). */
export const PHONE_PATTERN = /^\+?[0-9 ().-]{3,32}$/;
