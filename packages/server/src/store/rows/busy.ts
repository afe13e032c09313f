import type { BusyInterval } from "../../domain/slots.ts";
import type { BusySourceRecord, SkippedObject } from "../busy.ts";
import { openedSecret, SEALED_COLUMNS } from "../secrets.ts";
import type { SecretBox } from "../../lib/secrets.ts";

// `busy_sources` rows as both engines return them (PostgreSQL with bigints read as numbers), and their records.

/** A `busy_sources` row with its counts. */
export interface BusySourceRow {
  id: number;
  host_id: number;
  kind: BusySourceRecord["kind"];
  url: string;
  username: string | null;
  secret: string | null;
  calendars: string;
  freshness_minutes: number | null;
  sync_state: string;
  last_attempt_at_ms: number | null;
  last_success_at_ms: number | null;
  last_failure_at_ms: number | null;
  last_error: string | null;
  failure_count: number;
  skipped_objects: string;
  expanded_until_ms: number | null;
  created_at_ms: number;
  object_count: number;
  interval_count: number;
}

/** The columns of a busy source with its object and interval counts, for `SELECT ... FROM busy_sources s`. */
export const BUSY_SOURCE_COLUMNS = `s.*, (SELECT count(*) FROM busy_objects o WHERE o.source_id = s.id) AS object_count,
  (SELECT count(*) FROM busy_intervals i WHERE i.source_id = s.id) AS interval_count`;

/** A busy source record from its row, its password or token opened. */
export function toBusySource(row: BusySourceRow, secrets: SecretBox): BusySourceRecord {
  return {
    id: Number(row.id),
    hostId: Number(row.host_id),
    kind: row.kind,
    url: row.url,
    username: row.username,
    secret: row.secret === null ? null : openedSecret(secrets, row.secret, SEALED_COLUMNS[1], Number(row.id)),
    calendars: JSON.parse(row.calendars) as string[],
    freshnessMinutes: row.freshness_minutes,
    syncState: JSON.parse(row.sync_state) as Record<string, string>,
    lastAttemptAtMs: row.last_attempt_at_ms,
    lastSuccessAtMs: row.last_success_at_ms,
    lastFailureAtMs: row.last_failure_at_ms,
    lastError: row.last_error,
    failureCount: Number(row.failure_count),
    skippedObjects: JSON.parse(row.skipped_objects) as SkippedObject[],
    expandedUntilMs: row.expanded_until_ms,
    objectCount: Number(row.object_count),
    intervalCount: Number(row.interval_count),
    createdAtMs: row.created_at_ms,
  };
}

/** Intervals merged where they meet or overlap, by start: what is kept and compared. */
export function mergedIntervals(intervals: readonly BusyInterval[]): BusyInterval[] {
  const sorted = intervals.filter((i) => i.endMs > i.startMs).sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const out: BusyInterval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.startMs <= last.endMs) last.endMs = Math.max(last.endMs, i.endMs);
    else out.push({ startMs: i.startMs, endMs: i.endMs });
  }
  return out;
}

/** Whether two merged interval lists are the same. */
export function sameIntervals(a: readonly BusyInterval[], b: readonly BusyInterval[]): boolean {
  return a.length === b.length && a.every((x, i) => x.startMs === b[i]!.startMs && x.endMs === b[i]!.endMs);
}
