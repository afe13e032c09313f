import { hasLimits, type BookingLimits } from "@booking/wire";
import type { HostRecord, ScheduleRecord } from "../hosts.ts";

/** Stored limits (JSON text, or already parsed where the engine parsed it), null when none is set. */
export function limitsOf(value: unknown): BookingLimits | null {
  if (value === null || value === undefined) return null;
  const limits = (typeof value === "string" ? JSON.parse(value) : value) as BookingLimits;
  return hasLimits(limits) ? limits : null;
}

/** Limits as stored: JSON text, or null when none is set. */
export const storedLimits = (limits: BookingLimits | null | undefined): string | null => (hasLimits(limits) ? JSON.stringify(limits) : null);

// `hosts` and `schedules` rows as both engines return them (PostgreSQL with bigints read as numbers), and their records.

/** A `hosts` row (`is_default` is 0/1 in SQLite, a boolean in PostgreSQL; bigints read as numbers). */
export interface HostRow {
  id: number;
  name: string;
  email: string | null;
  timezone: string;
  avatar_url: string | null;
  is_default: number | boolean;
  bookings_calendar: string | null;
  feed_token: string;
  /** JSON of the host's limits, or null (migration 19 on SQLite, 17 on PostgreSQL). */
  limits: string | null;
  revision: number;
  created_at_ms: number;
  updated_at_ms: number;
}

export const toHost = (r: HostRow): HostRecord => ({
  id: Number(r.id),
  name: r.name,
  email: r.email,
  timezone: r.timezone,
  avatarUrl: r.avatar_url,
  isDefault: r.is_default === true || r.is_default === 1,
  bookingsCalendar: r.bookings_calendar === null ? null : JSON.parse(r.bookings_calendar),
  feedToken: r.feed_token,
  limits: limitsOf(r.limits),
  revision: Number(r.revision),
  createdAtMs: Number(r.created_at_ms),
  updatedAtMs: Number(r.updated_at_ms),
});

/** A `schedules` row. */
export interface ScheduleRow {
  id: number;
  host_id: number;
  name: string;
  timezone: string;
  availability: string;
  created_at_ms: number;
  updated_at_ms: number;
}

export const toSchedule = (r: ScheduleRow): ScheduleRecord => ({
  id: Number(r.id),
  hostId: Number(r.host_id),
  name: r.name,
  timezone: r.timezone,
  availability: JSON.parse(r.availability),
  createdAtMs: Number(r.created_at_ms),
  updatedAtMs: Number(r.updated_at_ms),
});
