import { storedLimits, toHost, toSchedule, type HostRow, type ScheduleRow } from "../rows/hosts.ts";
import { toReservation, type ReservationRow } from "../rows/reservations.ts";
import type { HostBusyInterval, HostChange, HostRepository, NewHost, NewSchedule, ScheduleChange, ScheduleRepository } from "../hosts.ts";
import type { ReservationQuery } from "../reservations.ts";
import type { SqliteConnection } from "./connection.ts";
import { BUMP_HOST_REVISION } from "./event-types.ts";
import { HOST_BUSY } from "./reservation-sql.ts";

/** A host's columns as HostRow reads them, its revision counting its bookings' (migration 18). */
const HOST_COLUMNS =
  "id, name, email, timezone, avatar_url, is_default, bookings_calendar, feed_token, limits, revision + booking_revision AS revision, created_at_ms, updated_at_ms";

/** Hosts on SQLite: people, and what takes their time across event types. */
export function sqliteHosts(connection: SqliteConnection): HostRepository {
  const { db } = connection;
  const q = {
    byId: db.query<HostRow, [number]>(`SELECT ${HOST_COLUMNS} FROM hosts WHERE id = ?`),
    list: db.query<HostRow, []>(`SELECT ${HOST_COLUMNS} FROM hosts ORDER BY id`),
    byDefault: db.query<HostRow, []>(`SELECT ${HOST_COLUMNS} FROM hosts WHERE is_default = 1`),
    byFeedToken: db.query<HostRow, [string]>(`SELECT ${HOST_COLUMNS} FROM hosts WHERE feed_token = ?`),
    insert: db.query<{ id: number }, [string, string | null, string, string | null, string, string | null, number, number]>(
      "INSERT INTO hosts (name, email, timezone, avatar_url, feed_token, limits, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    ),
    update: db.query<unknown, [string, string | null, string, string | null, string | null, string, string | null, number, number]>(
      "UPDATE hosts SET name = ?, email = ?, timezone = ?, avatar_url = ?, bookings_calendar = ?, feed_token = ?, limits = ?, updated_at_ms = ?, revision = revision + 1 WHERE id = ?",
    ),
    eventTypes: db.query<{ id: number }, [number]>("SELECT event_type_id AS id FROM event_type_hosts WHERE host_id = ? ORDER BY event_type_id"),
    anyBooking: db.query<{ n: number }, [number]>("SELECT count(*) AS n FROM (SELECT 1 FROM reservation_hosts WHERE host_id = ? LIMIT 1)"),
    remove: db.query<unknown, [number]>("DELETE FROM hosts WHERE id = ?"),
    reservations: db.query<ReservationRow, [number, number, number, string | null, string | null, number]>(
      `SELECT r.* FROM reservation_hosts rh JOIN reservations r ON r.uuid = rh.reservation_uuid
       WHERE rh.host_id = ? AND rh.start_ms < ? AND rh.end_ms > ? AND (? IS NULL OR r.status IN (SELECT value FROM json_each(?)))
       ORDER BY r.start_ms, r.uuid LIMIT ?`,
    ),
    busy: db.query<HostBusyInterval, [{ hostIds: string; eventTypeId: number; fromMs: number; untilMs: number; nowMs: number }]>(HOST_BUSY),
  };
  const byId = (id: number) => {
    const row = q.byId.get(id);
    return row ? toHost(row) : null;
  };
  return {
    create: async (input: NewHost, nowMs: number) =>
      toHost(
        q.byId.get(
          connection.write(
            () => q.insert.get(input.name, input.email, input.timezone, input.avatarUrl, input.feedToken, storedLimits(input.limits), nowMs, nowMs)!.id,
          ),
        )!,
      ),
    byId: async (id) => byId(id),
    byIds: async (ids) => ids.map(byId).filter((h) => h !== null),
    list: async () => q.list.all().map(toHost),
    defaultHost: async () => toHost(q.byDefault.get()!),
    byFeedToken: async (feedToken) => {
      const row = q.byFeedToken.get(feedToken);
      return row ? toHost(row) : null;
    },
    update: async (id: number, change: HostChange, nowMs: number) =>
      connection.write(() => {
        const row = q.byId.get(id);
        if (!row) return null;
        const next = { ...toHost(row), ...change };
        q.update.run(
          next.name,
          next.email,
          next.timezone,
          next.avatarUrl,
          next.bookingsCalendar === null ? null : JSON.stringify(next.bookingsCalendar),
          next.feedToken,
          storedLimits(next.limits),
          nowMs,
          id,
        );
        return toHost(q.byId.get(id)!);
      }),
    delete: async (id: number) =>
      connection.write(() => {
        const row = q.byId.get(id);
        if (!row) return "not_found" as const;
        if (row.is_default === 1) return "default" as const;
        if (q.eventTypes.all(id).length > 0 || q.anyBooking.get(id)!.n > 0) return "in_use" as const;
        q.remove.run(id);
        return "deleted" as const;
      }),
    eventTypeIds: async (hostId: number) => q.eventTypes.all(hostId).map((r) => r.id),
    reservations: async (hostId: number, query: ReservationQuery) => {
      const statuses = query.statuses ? JSON.stringify(query.statuses) : null;
      return q.reservations.all(hostId, query.untilMs, query.fromMs, statuses, statuses, query.limit).map(toReservation);
    },
    busy: async (hostIds, exceptEventTypeId, fromMs, untilMs, nowMs) =>
      q.busy.all({ hostIds: JSON.stringify(hostIds), eventTypeId: exceptEventTypeId, fromMs, untilMs, nowMs }),
  };
}

/** Schedules on SQLite; a change bumps its host's revision, so cached slot pages of the host's event types go. */
export function sqliteSchedules(connection: SqliteConnection): ScheduleRepository {
  const { db } = connection;
  const q = {
    byId: db.query<ScheduleRow, [number]>("SELECT * FROM schedules WHERE id = ?"),
    ofHost: db.query<ScheduleRow, [number]>("SELECT * FROM schedules WHERE host_id = ? ORDER BY id"),
    all: db.query<ScheduleRow, []>("SELECT * FROM schedules ORDER BY id"),
    insert: db.query<{ id: number }, [number, string, string, string, number, number]>(
      "INSERT INTO schedules (host_id, name, timezone, availability, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
    ),
    update: db.query<unknown, [string, string, string, number, number]>(
      "UPDATE schedules SET name = ?, timezone = ?, availability = ?, updated_at_ms = ? WHERE id = ?",
    ),
    used: db.query<{ n: number }, [number]>("SELECT count(*) AS n FROM event_type_hosts WHERE schedule_id = ?"),
    remove: db.query<unknown, [number]>("DELETE FROM schedules WHERE id = ?"),
    hostBump: db.query<unknown, [number]>(BUMP_HOST_REVISION),
  };
  return {
    create: async (input: NewSchedule, nowMs: number) =>
      toSchedule(
        q.byId.get(
          connection.write(() => {
            const { id } = q.insert.get(input.hostId, input.name, input.timezone, JSON.stringify(input.availability), nowMs, nowMs)!;
            q.hostBump.run(input.hostId);
            return id;
          }),
        )!,
      ),
    byId: async (id) => {
      const row = q.byId.get(id);
      return row ? toSchedule(row) : null;
    },
    list: async (hostId?: number) => (hostId === undefined ? q.all.all() : q.ofHost.all(hostId)).map(toSchedule),
    update: async (id: number, change: ScheduleChange, nowMs: number) =>
      connection.write(() => {
        const row = q.byId.get(id);
        if (!row) return null;
        const next = { ...toSchedule(row), ...change };
        q.update.run(next.name, next.timezone, JSON.stringify(next.availability), nowMs, id);
        q.hostBump.run(next.hostId);
        return toSchedule(q.byId.get(id)!);
      }),
    delete: async (id: number) =>
      connection.write(() => {
        const row = q.byId.get(id);
        if (!row) return "not_found" as const;
        if (q.used.get(id)!.n > 0) return "in_use" as const;
        q.remove.run(id);
        q.hostBump.run(row.host_id);
        return "deleted" as const;
      }),
  };
}
