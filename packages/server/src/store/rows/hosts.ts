import type { HostRecord, ScheduleRecord } from "../hosts.ts";

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
