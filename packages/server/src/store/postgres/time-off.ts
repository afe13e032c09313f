import { toAway, toTimeOff, type TimeOffRepository, type TimeOffRow } from "../time-off.ts";
import type { Connections } from "./connections.ts";

/** The away intervals of hosts $1 meeting [$2, $3): what claims read inside their transaction. */
export const HOST_AWAY = `SELECT host_id, start_ms, end_ms, colleague_host_id FROM host_time_off
  WHERE host_id = ANY($1::bigint[]) AND end_ms > $2 AND start_ms < $3 ORDER BY start_ms, id`;

/** Hosts' time off on PostgreSQL; each write bumps the host's revision in the same transaction. */
export function postgresTimeOff(db: Connections): TimeOffRepository {
  const byId = async (id: number) => {
    const row = (await db.run<TimeOffRow>("SELECT * FROM host_time_off WHERE id = $1", [id], true)).rows[0];
    return row ? toTimeOff(row) : null;
  };
  const bump = "UPDATE hosts SET revision = revision + 1 WHERE id = $1";
  return {
    create: async (input, nowMs) => {
      const id = await db.transaction(async (c) => {
        const { rows } = await c.query<{ id: string }>(
          `INSERT INTO host_time_off (host_id, start_ms, end_ms, start_date, end_date, note, colleague_host_id, created_at_ms, updated_at_ms)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
          [input.hostId, input.startMs, input.endMs, input.startDate, input.endDate, input.note, input.colleagueHostId, nowMs],
        );
        await c.query(bump, [input.hostId]);
        return Number(rows[0]!.id);
      });
      return (await byId(id))!;
    },
    byId,
    list: async (hostId, fromMs = Number.MIN_SAFE_INTEGER) =>
      (await db.run<TimeOffRow>("SELECT * FROM host_time_off WHERE host_id = $1 AND end_ms > $2 ORDER BY start_ms, id", [hostId, fromMs], true)).rows.map(
        toTimeOff,
      ),
    update: async (id, change, nowMs) => {
      const done = await db.transaction(async (c) => {
        const row = (await c.query<TimeOffRow>("SELECT * FROM host_time_off WHERE id = $1 FOR UPDATE", [id])).rows[0];
        if (!row) return false;
        const next = { ...toTimeOff(row), ...change };
        await c.query(
          "UPDATE host_time_off SET start_ms = $1, end_ms = $2, start_date = $3, end_date = $4, note = $5, colleague_host_id = $6, updated_at_ms = $7 WHERE id = $8",
          [next.startMs, next.endMs, next.startDate, next.endDate, next.note, next.colleagueHostId, nowMs, id],
        );
        await c.query(bump, [next.hostId]);
        return true;
      });
      return done ? byId(id) : null;
    },
    delete: async (id) =>
      db.transaction(async (c) => {
        const row = (await c.query<TimeOffRow>("DELETE FROM host_time_off WHERE id = $1 RETURNING *", [id])).rows[0];
        if (!row) return false;
        await c.query(bump, [Number(row.host_id)]);
        return true;
      }),
    between: async (hostIds, fromMs, untilMs) =>
      hostIds.length === 0 ? [] : (await db.run<TimeOffRow>(HOST_AWAY, [hostIds, fromMs, untilMs], true, "host_away")).rows.map(toAway),
  };
}
