import { Type, type Static } from "@sinclair/typebox";
import { LIMIT_KINDS, type LimitKind } from "./constants.ts";

/** The largest value each limit takes (a day has 1 440 minutes, a week 10 080). */
export const LIMIT_MAXIMA: Record<LimitKind, number> = {
  bookingsPerDay: 10_000,
  bookingsPerWeek: 70_000,
  bookingsPerMonth: 310_000,
  minutesPerDay: 1_440,
  minutesPerWeek: 10_080,
};

const DESCRIPTIONS: Record<LimitKind, string> = {
  bookingsPerDay: "At most this many bookings start on one calendar day; null or absent: no limit.",
  bookingsPerWeek: "At most this many bookings start in one calendar week; null or absent: no limit.",
  bookingsPerMonth: "At most this many bookings start in one calendar month; null or absent: no limit.",
  minutesPerDay: "At most this many minutes of bookings start on one calendar day; null or absent: no limit.",
  minutesPerWeek: "At most this many minutes of bookings start in one calendar week; null or absent: no limit.",
};

const limit = (kind: LimitKind) =>
  Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: LIMIT_MAXIMA[kind], description: DESCRIPTIONS[kind] }), Type.Null()]));

/**
 * Booking limits of an event type or a host (docs/admin.md#limits): each absent or null is no limit.
 * Periods are calendar days, weeks and months in the zone of the event type (its limits) or of the
 * host (theirs); held and confirmed bookings count, cancelled and expired ones do not. A change
 * gives the whole object: it replaces the limits there were (`{}` removes them all).
 */
export const BookingLimits = Type.Object(
  {
    bookingsPerDay: limit("bookingsPerDay"),
    bookingsPerWeek: limit("bookingsPerWeek"),
    bookingsPerMonth: limit("bookingsPerMonth"),
    minutesPerDay: limit("minutesPerDay"),
    minutesPerWeek: limit("minutesPerWeek"),
  },
  { additionalProperties: false },
);
export type BookingLimits = Static<typeof BookingLimits>;

/** Limits as the admin API shows them: every kind named, null where there is none. */
export const BookingLimitsView = Type.Object(
  {
    bookingsPerDay: Type.Union([Type.Integer(), Type.Null()]),
    bookingsPerWeek: Type.Union([Type.Integer(), Type.Null()]),
    bookingsPerMonth: Type.Union([Type.Integer(), Type.Null()]),
    minutesPerDay: Type.Union([Type.Integer(), Type.Null()]),
    minutesPerWeek: Type.Union([Type.Integer(), Type.Null()]),
  },
  { description: "Booking limits (docs/admin.md#limits); null: no limit of that kind." },
);
export type BookingLimitsView = Static<typeof BookingLimitsView>;

/** Every kind named, null where `limits` sets none: what the admin API shows. */
export function limitsView(limits: BookingLimits | null | undefined): BookingLimitsView {
  const out = {} as BookingLimitsView;
  for (const kind of LIMIT_KINDS) out[kind] = limits?.[kind] ?? null;
  return out;
}

/** The limits `limits` sets, without the kinds it leaves absent or null: what is stored (an empty object when none). */
export function setLimits(limits: BookingLimits | null | undefined): BookingLimits {
  const out: BookingLimits = {};
  for (const kind of LIMIT_KINDS) {
    const value = limits?.[kind];
    if (typeof value === "number") out[kind] = value;
  }
  return out;
}

/** Whether `limits` sets any limit. */
export const hasLimits = (limits: BookingLimits | null | undefined): boolean => !!limits && LIMIT_KINDS.some((k) => typeof limits[k] === "number");
