import { toAway, toTimeOff, type TimeOffRepository, type TimeOffRow } from "../time-off.ts";
import type { SqliteConnection } from "./connection.ts";
import { BUMP_HOST_REVISION } from "./event-types.ts";

/** The away intervals of hosts $hostIds (a JSON array) meeting [$fromMs, $untilMs): what claims read inside their transaction. */
export const HOST_AWAY = `SELECT host_id, start_ms, end_ms, colleague_host_id FROM host_time_off
  WHERE host_id IN (SELECT value FROM json_each($hostIds)) AND end_ms > $fromMs AND start_ms < $untilMs ORDER BY start_ms, id`;

type Params = [number, number, number, string | null, string | null, string | null, number | null, number, number];

/** Hosts' time off on SQLite; each write bumps the host's revision in the same transaction. */
export function sqliteTimeOff(connection: SqliteConnection): TimeOffRepository {
  const { db } = connection;
  const q = {
    byId: db.query<TimeOffRow, [number]>("SELECT * FROM host_time_off WHERE id = ?"),
    list: db.query<TimeOffRow, [number, number]>("SELECT * FROM host_time_off WHERE host_id = ? AND end_ms > ? ORDER BY start_ms, id"),
    insert: db.query<{ id: number }, Params>(
      `INSERT INTO host_time_off (host_id, start_ms, end_ms, start_date, end_date, note, colleague_host_id, created_at_ms, updated_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ),
    update: db.query<unknown, [number, number, string | null, string | null, string | null, number | null, number, number]>(
      "UPDATE host_time_off SET start_ms = ?, end_ms = ?, start_date = ?, end_date = ?, note = ?, colleague_host_id = ?, updated_at_ms = ? WHERE id = ?",
    ),
    remove: db.query<unknown, [number]>("DELETE FROM host_time_off WHERE id = ?"),
    away: db.query<TimeOffRow, [{ hostIds: string; fromMs: number; untilMs: number }]>(HOST_AWAY),
    hostBump: db.query<unknown, [number]>(BUMP_HOST_REVISION),
  };
  const byId = (id: number) => {
    const row = q.byId.get(id);
    return row ? toTimeOff(row) : null;
  };
  return {
    create: async (input, nowMs) =>
      byId(
        connection.write(() => {
          const { id } = q.insert.get(
            input.hostId,
            input.startMs,
            input.endMs,
            input.startDate,
            input.endDate,
            input.note,
            input.colleagueHostId,
            nowMs,
            nowMs,
          )!;
          q.hostBump.run(input.hostId);
          return id;
        }),
      )!,
    byId: async (id) => byId(id),
    list: async (hostId, fromMs = Number.MIN_SAFE_INTEGER) => q.list.all(hostId, fromMs).map(toTimeOff),
    update: async (id, change, nowMs) =>
      connection.write(() => {
        const current = byId(id);
        if (!current) return null;
        const next = { ...current, ...change };
        q.update.run(next.startMs, next.endMs, next.startDate, next.endDate, next.note, next.colleagueHostId, nowMs, id);
        q.hostBump.run(current.hostId);
        return byId(id);
      }),
    delete: async (id) =>
      connection.write(() => {
        const current = byId(id);
        if (!current) return false;
        q.remove.run(id);
        q.hostBump.run(current.hostId);
        return true;
      }),
    between: async (hostIds, fromMs, untilMs) => (hostIds.length === 0 ? [] : q.away.all({ hostIds: JSON.stringify(hostIds), fromMs, untilMs }).map(toAway)),
  };
}
