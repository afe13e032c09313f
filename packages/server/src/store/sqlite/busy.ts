import type { BusyInterval } from "../../domain/slots.ts";
import { BUSY_SOURCE_COLUMNS, mergedIntervals, sameIntervals, toBusySource, type BusySourceRow } from "../rows/busy.ts";
import type { BusyObject, BusyRepository, BusySourceRecord, BusySyncWrite, NewBusySource } from "../busy.ts";
import type { SqliteConnection } from "./connection.ts";
import { BUMP_HOST_REVISION } from "./event-types.ts";
import type { SecretBox } from "../../lib/secrets.ts";

/**
 * Busy sources on SQLite. A sync's objects, state and intervals are written in one transaction; a
 * change of the intervals bumps the host's revision, so no cached slot page is from before it.
 */
export function sqliteBusy(connection: SqliteConnection, secrets: SecretBox): BusyRepository {
  const { db } = connection;
  const q = {
    busyBetween: db.query<BusyInterval, [number, number, number]>(
      "SELECT start_ms AS startMs, end_ms AS endMs FROM busy_intervals WHERE host_id = ? AND end_ms > ? AND start_ms < ? ORDER BY start_ms, end_ms",
    ),
    busySourceById: db.query<BusySourceRow, [number]>(`SELECT ${BUSY_SOURCE_COLUMNS} FROM busy_sources s WHERE s.id = ?`),
    busySourcesOf: db.query<BusySourceRow, [number]>(`SELECT ${BUSY_SOURCE_COLUMNS} FROM busy_sources s WHERE s.host_id = ? ORDER BY s.id`),
    busySourcesAll: db.query<BusySourceRow, []>(`SELECT ${BUSY_SOURCE_COLUMNS} FROM busy_sources s ORDER BY s.id`),
    busySourceInsert: db.query<{ id: number }, [number, string, string, string | null, string | null, string, number | null, number]>(
      "INSERT INTO busy_sources (host_id, kind, url, username, secret, calendars, freshness_minutes, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    ),
    busySourceDelete: db.query<{ host_id: number }, [number]>("DELETE FROM busy_sources WHERE id = ? RETURNING host_id"),
    busyObjects: db.query<BusyObject, [number]>("SELECT href, etag, ics FROM busy_objects WHERE source_id = ? ORDER BY href"),
    busyObjectTags: db.query<Pick<BusyObject, "href" | "etag">, [number]>("SELECT href, etag FROM busy_objects WHERE source_id = ? ORDER BY href"),
    busyObjectUpsert: db.query<unknown, [number, string, string | null, string]>(
      "INSERT INTO busy_objects (source_id, href, etag, ics) VALUES (?, ?, ?, ?) ON CONFLICT (source_id, href) DO UPDATE SET etag = excluded.etag, ics = excluded.ics",
    ),
    busyObjectDelete: db.query<unknown, [number, string]>("DELETE FROM busy_objects WHERE source_id = ? AND href = ?"),
    busyIntervalsOfSource: db.query<BusyInterval, [number]>(
      "SELECT start_ms AS startMs, end_ms AS endMs FROM busy_intervals WHERE source_id = ? ORDER BY start_ms, end_ms",
    ),
    busyIntervalsClear: db.query<unknown, [number]>("DELETE FROM busy_intervals WHERE source_id = ?"),
    busyIntervalInsert: db.query<unknown, [number, number, number, number]>(
      "INSERT INTO busy_intervals (source_id, host_id, start_ms, end_ms) VALUES (?, ?, ?, ?)",
    ),
    busySynced: db.query<unknown, [string, number, number, number | null, string | null, number]>(
      "UPDATE busy_sources SET sync_state = ?, last_attempt_at_ms = ?, last_success_at_ms = ?, last_error = NULL, failure_count = 0, expanded_until_ms = coalesce(?, expanded_until_ms), skipped_objects = coalesce(?, skipped_objects) WHERE id = ?",
    ),
    busyFailed: db.query<unknown, [number, number, string, number]>(
      "UPDATE busy_sources SET last_attempt_at_ms = ?, last_failure_at_ms = ?, last_error = ?, failure_count = failure_count + 1 WHERE id = ?",
    ),
    hostBump: db.query<unknown, [number]>(BUMP_HOST_REVISION),
  };
  const sealed = (secret: string | null): string | null => (secret === null ? null : secrets.seal(secret, "calendar"));

  return {
    add: async (input: NewBusySource, nowMs: number): Promise<BusySourceRecord> => {
      const id = connection.write(
        () =>
          q.busySourceInsert.get(
            input.hostId,
            input.kind,
            input.url,
            input.username,
            sealed(input.secret),
            JSON.stringify(input.calendars),
            input.freshnessMinutes,
            nowMs,
          )!.id,
      );
      return toBusySource(q.busySourceById.get(id)!, secrets);
    },
    list: async (hostId?: number) => (hostId === undefined ? q.busySourcesAll.all() : q.busySourcesOf.all(hostId)).map((row) => toBusySource(row, secrets)),
    byId: async (id: number) => {
      const row = q.busySourceById.get(id);
      return row ? toBusySource(row, secrets) : null;
    },
    remove: async (id: number) =>
      connection.write(() => {
        const gone = q.busySourceDelete.get(id);
        if (gone) q.hostBump.run(gone.host_id);
        return gone !== null;
      }),
    objects: async (sourceId: number) => q.busyObjects.all(sourceId),
    objectTags: async (sourceId: number) => q.busyObjectTags.all(sourceId),
    recordSync: async (sourceId: number, w: BusySyncWrite) =>
      connection.write(() => {
        const source = q.busySourceById.get(sourceId);
        if (!source) return false;
        for (const href of w.deletes) q.busyObjectDelete.run(sourceId, href);
        for (const o of w.upserts) q.busyObjectUpsert.run(sourceId, o.href, o.etag, o.ics);
        q.busySynced.run(JSON.stringify(w.syncState), w.atMs, w.atMs, w.expandedUntilMs, w.skippedObjects ? JSON.stringify(w.skippedObjects) : null, sourceId);
        if (w.intervals === null) return false;
        const next = mergedIntervals(w.intervals);
        if (sameIntervals(next, q.busyIntervalsOfSource.all(sourceId))) return false;
        q.busyIntervalsClear.run(sourceId);
        for (const i of next) q.busyIntervalInsert.run(sourceId, source.host_id, i.startMs, i.endMs);
        // Cached slot pages and configurations are kept per revision: the next ones (of every event type of the host) see the calendar.
        q.hostBump.run(source.host_id);
        return true;
      }),
    recordFailure: async (sourceId: number, atMs: number, error: string) => {
      connection.write(() => q.busyFailed.run(atMs, atMs, error, sourceId));
    },
    between: async (hostId: number, fromMs: number, untilMs: number) => q.busyBetween.all(hostId, fromMs, untilMs),
  };
}
