import { storedLimits, toHost, toSchedule, type HostRow, type ScheduleRow } from "../rows/hosts.ts";
import { toReservation, type ReservationRow } from "../rows/reservations.ts";
import type { HostBusyInterval, HostChange, HostRepository, NewHost, NewSchedule, ScheduleChange, ScheduleRepository } from "../hosts.ts";
import type { ReservationQuery } from "../reservations.ts";
import type { Connections } from "./connections.ts";
import { HOST_BUSY, HOST_REVISION } from "./hosts-sql.ts";

/** A host row with its revision counters summed in. */
const HOST_COLUMNS = `h.id, h.name, h.email, h.timezone, h.avatar_url, h.is_default, h.bookings_calendar, h.feed_token, h.limits, ${HOST_REVISION} AS revision, h.created_at_ms, h.updated_at_ms`;

/** Hosts on PostgreSQL: people, and what takes their time across event types. */
export function postgresHosts(db: Connections): HostRepository {
  const byId = async (id: number) => {
    const row = (await db.run<HostRow>(`SELECT ${HOST_COLUMNS} FROM hosts h WHERE h.id = $1`, [id], true)).rows[0];
    return row ? toHost(row) : null;
  };
  return {
    create: async (input: NewHost, nowMs: number) => {
      const { rows } = await db.run<{ id: number }>(
        "INSERT INTO hosts (name, email, timezone, avatar_url, feed_token, limits, created_at_ms, updated_at_ms) VALUES ($1, $2, $3, $4, $5, $7, $6, $6) RETURNING id",
        [input.name, input.email, input.timezone, input.avatarUrl, input.feedToken, nowMs, storedLimits(input.limits)],
      );
      return (await byId(Number(rows[0]!.id)))!;
    },
    byId,
    byIds: async (ids) => {
      if (ids.length === 0) return [];
      const rows = (await db.run<HostRow>(`SELECT ${HOST_COLUMNS} FROM hosts h WHERE h.id = ANY($1::bigint[])`, [ids], true)).rows.map(toHost);
      return ids.map((id) => rows.find((h) => h.id === id)).filter((h) => h !== undefined);
    },
    list: async () => (await db.run<HostRow>(`SELECT ${HOST_COLUMNS} FROM hosts h ORDER BY h.id`, [], true)).rows.map(toHost),
    defaultHost: async () => toHost((await db.run<HostRow>(`SELECT ${HOST_COLUMNS} FROM hosts h WHERE h.is_default`, [], true)).rows[0]!),
    byFeedToken: async (feedToken) => {
      const row = (await db.run<HostRow>(`SELECT ${HOST_COLUMNS} FROM hosts h WHERE h.feed_token = $1`, [feedToken], true)).rows[0];
      return row ? toHost(row) : null;
    },
    update: async (id: number, change: HostChange, nowMs: number) => {
      const done = await db.transaction(async (c) => {
        // The feed token is a key (unique): changing it needs the row's strongest lock, taken at once,
        // so it never waits to upgrade a weaker one while bookings holding KEY SHARE wait on this row.
        const lock = change.feedToken === undefined ? "FOR NO KEY UPDATE" : "FOR UPDATE";
        const row = (await c.query<HostRow>(`SELECT * FROM hosts WHERE id = $1 ${lock}`, [id])).rows[0];
        if (!row) return false;
        const next = { ...toHost(row), ...change };
        await c.query(
          "UPDATE hosts SET name = $1, email = $2, timezone = $3, avatar_url = $4, bookings_calendar = $5, feed_token = $6, updated_at_ms = $7, limits = $9, revision = revision + 1 WHERE id = $8",
          [
            next.name,
            next.email,
            next.timezone,
            next.avatarUrl,
            next.bookingsCalendar === null ? null : JSON.stringify(next.bookingsCalendar),
            next.feedToken,
            nowMs,
            id,
            storedLimits(next.limits),
          ],
        );
        return true;
      });
      return done ? byId(id) : null;
    },
    delete: async (id: number) =>
      db.transaction(async (c) => {
        const row = (await c.query<HostRow>("SELECT * FROM hosts WHERE id = $1 FOR UPDATE", [id])).rows[0];
        if (!row) return "not_found" as const;
        if (row.is_default === true) return "default" as const;
        const used = (
          await c.query<{ used: boolean }>(
            "SELECT EXISTS (SELECT 1 FROM event_type_hosts WHERE host_id = $1) OR EXISTS (SELECT 1 FROM reservation_hosts WHERE host_id = $1) AS used",
            [id],
          )
        ).rows[0]!.used;
        if (used) return "in_use" as const;
        await c.query("DELETE FROM hosts WHERE id = $1", [id]);
        return "deleted" as const;
      }),
    eventTypeIds: async (hostId: number) =>
      (await db.run<{ id: number }>("SELECT event_type_id AS id FROM event_type_hosts WHERE host_id = $1 ORDER BY event_type_id", [hostId], true)).rows.map(
        (r) => Number(r.id),
      ),
    reservations: async (hostId: number, query: ReservationQuery) =>
      (
        await db.run<ReservationRow>(
          `SELECT r.* FROM reservation_hosts rh JOIN reservations r ON r.uuid = rh.reservation_uuid
           WHERE rh.host_id = $1 AND rh.start_ms < $2 AND rh.end_ms > $3 AND ($4::text[] IS NULL OR r.status = ANY($4::text[]))
           ORDER BY r.start_ms, r.uuid LIMIT $5`,
          [hostId, query.untilMs, query.fromMs, query.statuses ?? null, query.limit],
          true,
        )
      ).rows.map(toReservation),
    busy: async (hostIds, exceptEventTypeId, fromMs, untilMs, nowMs) =>
      (await db.run<HostBusyInterval>(HOST_BUSY, [hostIds, exceptEventTypeId, fromMs, untilMs, nowMs], true, "host_busy")).rows.map((b) => ({
        ...b,
        hostId: Number(b.hostId),
        eventTypeId: b.eventTypeId === null ? null : Number(b.eventTypeId),
        sourceId: b.sourceId === null ? null : Number(b.sourceId),
      })),
  };
}

/** Schedules on PostgreSQL; a change bumps its host's revision, so cached slot pages of the host's event types go. */
export function postgresSchedules(db: Connections): ScheduleRepository {
  const byId = async (id: number) => {
    const row = (await db.run<ScheduleRow>("SELECT * FROM schedules WHERE id = $1", [id], true)).rows[0];
    return row ? toSchedule(row) : null;
  };
  return {
    create: async (input: NewSchedule, nowMs: number) => {
      const id = await db.transaction(async (c) => {
        const { rows } = await c.query<{ id: number }>(
          "INSERT INTO schedules (host_id, name, timezone, availability, created_at_ms, updated_at_ms) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id",
          [input.hostId, input.name, input.timezone, JSON.stringify(input.availability), nowMs],
        );
        await c.query("UPDATE hosts SET revision = revision + 1 WHERE id = $1", [input.hostId]);
        return Number(rows[0]!.id);
      });
      return (await byId(id))!;
    },
    byId,
    list: async (hostId?: number) =>
      (hostId === undefined
        ? await db.run<ScheduleRow>("SELECT * FROM schedules ORDER BY id", [], true)
        : await db.run<ScheduleRow>("SELECT * FROM schedules WHERE host_id = $1 ORDER BY id", [hostId], true)
      ).rows.map(toSchedule),
    update: async (id: number, change: ScheduleChange, nowMs: number) => {
      const done = await db.transaction(async (c) => {
        const row = (await c.query<ScheduleRow>("SELECT * FROM schedules WHERE id = $1 FOR UPDATE", [id])).rows[0];
        if (!row) return false;
        const next = { ...toSchedule(row), ...change };
        await c.query("UPDATE schedules SET name = $1, timezone = $2, availability = $3, updated_at_ms = $4 WHERE id = $5", [
          next.name,
          next.timezone,
          JSON.stringify(next.availability),
          nowMs,
          id,
        ]);
        await c.query("UPDATE hosts SET revision = revision + 1 WHERE id = $1", [next.hostId]);
        return true;
      });
      return done ? byId(id) : null;
    },
    delete: async (id: number) =>
      db.transaction(async (c) => {
        const row = (await c.query<ScheduleRow>("SELECT * FROM schedules WHERE id = $1 FOR UPDATE", [id])).rows[0];
        if (!row) return "not_found" as const;
        if ((await c.query("SELECT 1 FROM event_type_hosts WHERE schedule_id = $1 LIMIT 1", [id])).rowCount) return "in_use" as const;
        await c.query("DELETE FROM schedules WHERE id = $1", [id]);
        await c.query("UPDATE hosts SET revision = revision + 1 WHERE id = $1", [row.host_id]);
        return "deleted" as const;
      }),
  };
}
