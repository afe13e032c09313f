import type { BusyInterval } from "../../domain/slots.ts";
import { BUSY_SOURCE_COLUMNS, mergedIntervals, sameIntervals, toBusySource, type BusySourceRow } from "../rows/busy.ts";
import type { BusyObject, BusyRepository, BusySyncWrite, NewBusySource } from "../busy.ts";
import type { Connections } from "./connections.ts";
import type { SecretBox } from "../../lib/secrets.ts";

/** Busy intervals of host $1 meeting [$2, $3), by start. */
export const BUSY_BETWEEN = `SELECT start_ms AS "startMs", end_ms AS "endMs" FROM busy_intervals
  WHERE host_id = $1 AND end_ms > $2 AND start_ms < $3 ORDER BY start_ms, end_ms`;

/**
 * Busy sources on PostgreSQL. A sync's objects, state and intervals are written in one transaction
 * that locks the source's row; a change of the intervals bumps the host's row revision (part of the
 * revision of each of its event types, which every instance's caches key on), so no instance serves a slot page from before it.
 */
export function postgresBusy(db: Connections, secrets: SecretBox): BusyRepository {
  const byId = async (id: number) => {
    const row = (await db.run<BusySourceRow>(`SELECT ${BUSY_SOURCE_COLUMNS} FROM busy_sources s WHERE s.id = $1`, [id], true)).rows[0];
    return row ? toBusySource(row, secrets) : null;
  };
  return {
    add: async (input: NewBusySource, nowMs: number) => {
      const { rows } = await db.run<{ id: number }>(
        `INSERT INTO busy_sources (host_id, kind, url, username, secret, calendars, freshness_minutes, created_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [
          input.hostId,
          input.kind,
          input.url,
          input.username,
          input.secret === null ? null : secrets.seal(input.secret, "calendar"),
          JSON.stringify(input.calendars),
          input.freshnessMinutes,
          nowMs,
        ],
      );
      return (await byId(rows[0]!.id))!;
    },
    list: async (hostId?: number) =>
      (hostId === undefined
        ? await db.run<BusySourceRow>(`SELECT ${BUSY_SOURCE_COLUMNS} FROM busy_sources s ORDER BY s.id`, [], true)
        : await db.run<BusySourceRow>(`SELECT ${BUSY_SOURCE_COLUMNS} FROM busy_sources s WHERE s.host_id = $1 ORDER BY s.id`, [hostId], true)
      ).rows.map((row) => toBusySource(row, secrets)),
    byId,
    remove: async (id: number) =>
      db.transaction(async (c) => {
        const gone = (await c.query<{ host_id: number }>("DELETE FROM busy_sources WHERE id = $1 RETURNING host_id", [id])).rows[0];
        if (gone) await c.query("UPDATE hosts SET revision = revision + 1 WHERE id = $1", [gone.host_id]);
        return gone !== undefined;
      }),
    objects: async (sourceId: number) =>
      (await db.run<BusyObject>("SELECT href, etag, ics FROM busy_objects WHERE source_id = $1 ORDER BY href", [sourceId], true)).rows,
    objectTags: async (sourceId: number) =>
      (await db.run<Pick<BusyObject, "href" | "etag">>("SELECT href, etag FROM busy_objects WHERE source_id = $1 ORDER BY href", [sourceId], true)).rows,
    recordSync: async (sourceId: number, w: BusySyncWrite) =>
      db.transaction(async (c) => {
        // Two syncs of one source (two instances) take turns here.
        const source = (await c.query<{ host_id: number }>("SELECT host_id FROM busy_sources WHERE id = $1 FOR UPDATE", [sourceId])).rows[0];
        if (!source) return false;
        if (w.deletes.length > 0) await c.query("DELETE FROM busy_objects WHERE source_id = $1 AND href = ANY($2::text[])", [sourceId, w.deletes]);
        if (w.upserts.length > 0) {
          await c.query(
            `INSERT INTO busy_objects (source_id, href, etag, ics)
             SELECT $1, o.href, o.etag, o.ics FROM unnest($2::text[], $3::text[], $4::text[]) AS o(href, etag, ics)
             ON CONFLICT (source_id, href) DO UPDATE SET etag = excluded.etag, ics = excluded.ics`,
            [sourceId, w.upserts.map((o) => o.href), w.upserts.map((o) => o.etag), w.upserts.map((o) => o.ics)],
          );
        }
        await c.query(
          `UPDATE busy_sources SET sync_state = $1, last_attempt_at_ms = $2, last_success_at_ms = $2, last_error = NULL, failure_count = 0,
             expanded_until_ms = coalesce($3, expanded_until_ms), skipped_objects = coalesce($5, skipped_objects) WHERE id = $4`,
          [JSON.stringify(w.syncState), w.atMs, w.expandedUntilMs, sourceId, w.skippedObjects ? JSON.stringify(w.skippedObjects) : null],
        );
        if (w.intervals === null) return false;
        const next = mergedIntervals(w.intervals);
        const kept = (
          await c.query<BusyInterval>(`SELECT start_ms AS "startMs", end_ms AS "endMs" FROM busy_intervals WHERE source_id = $1 ORDER BY start_ms, end_ms`, [
            sourceId,
          ])
        ).rows;
        if (sameIntervals(next, kept)) return false;
        await c.query("DELETE FROM busy_intervals WHERE source_id = $1", [sourceId]);
        if (next.length > 0) {
          await c.query(
            "INSERT INTO busy_intervals (source_id, host_id, start_ms, end_ms) SELECT $1, $2, i.s, i.e FROM unnest($3::bigint[], $4::bigint[]) AS i(s, e)",
            [sourceId, source.host_id, next.map((i) => i.startMs), next.map((i) => i.endMs)],
          );
        }
        await c.query("UPDATE hosts SET revision = revision + 1 WHERE id = $1", [source.host_id]);
        return true;
      }),
    recordFailure: async (sourceId: number, atMs: number, error: string) => {
      await db.run(
        "UPDATE busy_sources SET last_attempt_at_ms = $1, last_failure_at_ms = $1, last_error = $2, failure_count = failure_count + 1 WHERE id = $3",
        [atMs, error, sourceId],
      );
    },
    between: async (hostId: number, fromMs: number, untilMs: number) => (await db.run<BusyInterval>(BUSY_BETWEEN, [hostId, fromMs, untilMs], true)).rows,
  };
}
