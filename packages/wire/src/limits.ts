// No schema library here: the component bundles these numbers and nothing else of this package.
/** Limits of decisions.md that both server and component enforce. */
export const LIMITS = {
  textMaxLength: 500,
  emailMaxLength: 254,
  maxGuests: 10,
  maxCustomFieldValues: 50,
  maxBodyBytes: 64 * 1024,
  maxSlotRangeDays: 62,
} as const;
