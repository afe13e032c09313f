// No schema library here: the console bundles these lists and nothing else of this package.

/** Location kinds an event type can enable (decisions.md). */
export const LOCATION_TYPES = ["video-meet", "phone", "address", "link"] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

/** Custom field kinds an event type can ask for (decisions.md). */
export const CUSTOM_FIELD_TYPES = ["text", "textarea", "email", "phone", "number", "select", "multiselect", "checkbox", "date"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** Colour keys of an event type's theme (`theme.colors`); the element maps each to a `--bc-*` property. */
export const THEME_COLOR_KEYS = ["primary", "background", "text", "muted", "border", "danger"] as const;
export type ThemeColorKey = (typeof THEME_COLOR_KEYS)[number];

/** Colour schemes of an event type's theme. */
export const THEME_MODES = ["light", "dark", "auto"] as const;
export type ThemeMode = (typeof THEME_MODES)[number];

/** Days a calendar's week may start on. */
export const WEEK_STARTS = ["monday", "sunday"] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];

/** Weekday keys of the weekly hours. */
export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Reservation statuses (decisions.md). */
export const RESERVATION_STATUSES = ["held", "confirmed", "expired", "cancelled"] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** How an event type with several hosts books: every host at once, or one free host by turns. */
export const HOST_ASSIGNMENTS = ["collective", "round-robin"] as const;
export type HostAssignment = (typeof HOST_ASSIGNMENTS)[number];

/** Kinds of calendar a host's busy times are read from: a CalDAV account or calendar, or a read-only iCalendar feed. */
export const BUSY_SOURCE_KINDS = ["caldav", "ical"] as const;
export type BusySourceKind = (typeof BUSY_SOURCE_KINDS)[number];

/** Sync state of a busy source: not synced yet, the last attempt worked, or it failed (the last good data stays in use). */
export const BUSY_SOURCE_STATUSES = ["never", "ok", "failing"] as const;
export type BusySourceStatus = (typeof BUSY_SOURCE_STATUSES)[number];

/**
 * States of a booking's card payment: `processing` (the provider has the payment but not the money
 * yet), `refunding`/`refunded` (it succeeded after its seat was gone, so the money goes back).
 */
export const PAYMENT_STATUSES = ["pending", "processing", "succeeded", "failed", "refunding", "refunded"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Delivery channels of the outbox, as the organizer's delivery lists name them. */
export const DELIVERY_CHANNELS = ["webhook", "email", "caldav", "reminder"] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** Who a console session acts for: the organizer, or one host limited to its own data. */
export const SESSION_ROLES = ["admin", "host"] as const;
export type SessionRole = (typeof SESSION_ROLES)[number];

/** The kinds of booking limit an event type or a host may set (booking-limits.ts), in the order forms list them. */
export const LIMIT_KINDS = ["bookingsPerDay", "bookingsPerWeek", "bookingsPerMonth", "minutesPerDay", "minutesPerWeek"] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
/**
 * Why a time is not bookable, as `GET /admin/event-types/{id}/availability-check` names it: stable codes
 * clients may rely on.
 */
export const AVAILABILITY_REASON_CODES = [
  "outside_hours",
  "min_notice",
  "horizon",
  "host_busy",
  "calendar_busy",
  "buffer",
  "limit_reached",
  "time_off",
  "seats_full",
  "disabled",
] as const;
export type AvailabilityReasonCode = (typeof AVAILABILITY_REASON_CODES)[number];
/** How often a series of recurring bookings repeats: every week, or every two weeks, at the same local time. */
export const RECURRENCE_INTERVALS = ["weekly", "biweekly"] as const;
export type RecurrenceInterval = (typeof RECURRENCE_INTERVALS)[number];
