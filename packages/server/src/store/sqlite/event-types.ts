import type { Statement } from "bun:sqlite";
import { SlugTakenError } from "../errors.ts";
import type { EventTypeChange, EventTypeRecord, EventTypeRepository, NewEventType } from "../event-types.ts";
import { hostsOrDefault, ParsedEventTypes, sealedWebhookSecret, toEventType, type EventTypeRow } from "../rows/event-types.ts";
import type { ClaimBumps, DatabaseStamp, SqliteConnection } from "./connection.ts";
import type { SecretBox } from "../../lib/secrets.ts";

/** Bumps the revision of event type ?: what a change of its seats or calendars does, so no cache serves a page from before it. */
export const BUMP_REVISION = "UPDATE event_types SET revision = revision + 1 WHERE id = ?";
/** Bumps the revision of host ?: every event type of the host gets a new revision with it. */
export const BUMP_HOST_REVISION = "UPDATE hosts SET revision = revision + 1 WHERE id = ?";

/**
 * The revisions of the hosts of the event type in view (`event_types`), summed, each counted from
 * its first (1): part of the event type's revision, so a fresh event type's is 1 and each change of
 * one of its hosts (a booking, a calendar's busy times, a schedule) adds one. A host's revision is
 * its row's `revision` plus `booking_revision`, the count of its bookings' claims.
 */
const HOST_REVISION =
  "(SELECT coalesce(sum(h.revision + h.booking_revision - 1), 0) FROM event_type_hosts eh JOIN hosts h ON h.id = eh.host_id WHERE eh.event_type_id = event_types.id)";
/** The hosts of the event type in view, with their names and schedules, in their order (see `eventTypeHostsOf`). */
const HOSTS_JSON = `(SELECT json_group_array(json_array(eh.host_id, eh.priority, eh.schedule_id, h.name, h.email, h.timezone, h.avatar_url, json(h.bookings_calendar), s.timezone, json(s.availability), h.revision + h.booking_revision, h.limits) ORDER BY eh.position)
  FROM event_type_hosts eh JOIN hosts h ON h.id = eh.host_id LEFT JOIN schedules s ON s.id = eh.schedule_id WHERE eh.event_type_id = event_types.id)`;
/**
 * The event type's revision without its hosts' bookings' claims: it changes with everything a record
 * holds (the row, its list of hosts, their names, schedules and calendars), while bookings leave it
 * alone, so a record parsed at one total revision serves the next with only its revisions renewed.
 */
const CONTENT_REVISION =
  "event_types.revision + (SELECT coalesce(sum(h.revision - 1), 0) FROM event_type_hosts eh JOIN hosts h ON h.id = eh.host_id WHERE eh.event_type_id = event_types.id)";
/**
 * An event type's columns with its hosts, its revision the row's plus its hosts' (so a booking of
 * another event type of a host, or a change of the host's calendars, gives it a new revision).
 */
export const EVENT_TYPE_COLUMNS = `event_types.*, ${HOSTS_JSON} AS hosts_json, event_types.revision + ${HOST_REVISION} AS total_revision, ${CONTENT_REVISION} AS content_revision`;
/**
 * The head of an event type: its id, total and content revisions, and its hosts' revisions in their
 * order as a JSON array, in one pass over its hosts.
 */
const EVENT_TYPE_HEAD = `id, revision AS own_revision, (SELECT json_array(coalesce(sum(h.revision + h.booking_revision - 1), 0), coalesce(sum(h.revision - 1), 0), json_group_array(h.revision + h.booking_revision ORDER BY eh.position))
  FROM event_type_hosts eh JOIN hosts h ON h.id = eh.host_id WHERE eh.event_type_id = event_types.id) AS hosts_head`;

type FullRow = EventTypeRow & { total_revision: number; content_revision: number };
type HeadRow = { id: number; own_revision: number; hosts_head: string };
const withTotal = (row: FullRow | null): EventTypeRow | null => (row ? { ...row, revision: row.total_revision } : null);

/** Event types on SQLite, with the store's cache of parsed records, current while their revision is. */
export function sqliteEventTypes(connection: SqliteConnection, secrets: SecretBox): EventTypeRepository {
  const { db } = connection;
  const q = {
    etById: db.query<FullRow, [number]>(`SELECT ${EVENT_TYPE_COLUMNS} FROM event_types WHERE id = ?`),
    etRow: db.query<EventTypeRow, [number]>("SELECT * FROM event_types WHERE id = ?"),
    etByToken: db.query<FullRow, [string]>(`SELECT ${EVENT_TYPE_COLUMNS} FROM event_types WHERE token_hash = ?`),
    etRevisionByToken: db.query<HeadRow, [string]>(`SELECT ${EVENT_TYPE_HEAD} FROM event_types WHERE token_hash = ?`),
    etByLinkToken: db.query<FullRow, [string]>(`SELECT ${EVENT_TYPE_COLUMNS} FROM event_types WHERE link_token = ?`),
    etRevisionByLinkToken: db.query<HeadRow, [string]>(`SELECT ${EVENT_TYPE_HEAD} FROM event_types WHERE link_token = ?`),
    etByFeedToken: db.query<FullRow, [string]>(`SELECT ${EVENT_TYPE_COLUMNS} FROM event_types WHERE feed_token = ?`),
    etRevisionByFeedToken: db.query<HeadRow, [string]>(`SELECT ${EVENT_TYPE_HEAD} FROM event_types WHERE feed_token = ?`),
    etBySlug: db.query<FullRow, [string]>(`SELECT ${EVENT_TYPE_COLUMNS} FROM event_types WHERE slug = ?`),
    etList: db.query<FullRow, []>(`SELECT ${EVENT_TYPE_COLUMNS} FROM event_types ORDER BY id`),
    hostSum: db.query<{ n: number }, [number]>(
      "SELECT coalesce(sum(h.revision + h.booking_revision - 1), 0) AS n FROM event_type_hosts eh JOIN hosts h ON h.id = eh.host_id WHERE eh.event_type_id = ?",
    ),
    defaultHost: db.query<{ id: number }, []>("SELECT id FROM hosts WHERE is_default = 1"),
    ethClear: db.query<unknown, [number]>("DELETE FROM event_type_hosts WHERE event_type_id = ?"),
    ethInsert: db.query<unknown, [number, number, number, number, number | null]>(
      "INSERT INTO event_type_hosts (event_type_id, host_id, position, priority, schedule_id) VALUES (?, ?, ?, ?, ?)",
    ),
    etAssignment: db.query<unknown, [string, number]>("UPDATE event_types SET assignment = ? WHERE id = ?"),
    etRevisionAdd: db.query<unknown, [number, number]>("UPDATE event_types SET revision = revision + ? WHERE id = ?"),
    etCount: db.query<{ n: number }, []>("SELECT count(*) AS n FROM event_types"),
    etInsert: db.query<{ id: number }, [string, string, string | null, string, number, string, string, string, string, string | null, string]>(
      `INSERT INTO event_types (token_hash, override_token_hash, slug, link_token, disabled, settings, webhook_secret, created_at, updated_at, feed_token, assignment)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, 'bcf_' || lower(hex(randomblob(32)))), ?) RETURNING id`,
    ),
    etUpdate: db.query<{ id: number }, [string, string, string | null, string, number, string, string, number | null, string, string, number]>(
      `UPDATE event_types SET token_hash = ?, override_token_hash = ?, slug = ?, link_token = ?, disabled = ?, settings = ?, webhook_secret = ?,
        webhook_disabled_at_ms = ?, updated_at = ?, feed_token = ?, revision = revision + 1 WHERE id = ? RETURNING id`,
    ),
    etDelete: db.query<unknown, [number]>("DELETE FROM event_types WHERE id = ?"),
    etHostsBump: db.query<unknown, [number]>(
      "UPDATE hosts SET revision = revision + 1 WHERE id IN (SELECT host_id FROM event_type_hosts WHERE event_type_id = ?)",
    ),
  };
  const parsed = new ParsedEventTypes(secrets);
  const cached = (row: FullRow | null): EventTypeRecord | null => parsed.of(withTotal(row), row?.content_revision);
  /** Writes the event type's hosts (inside the caller's write). */
  const writeHosts = (id: number, hosts: NewEventType["hosts"]): void => {
    q.ethClear.run(id);
    for (const [position, h] of hostsOrDefault(hosts, q.defaultHost.get()!.id).entries()) q.ethInsert.run(id, h.hostId, position, h.priority, h.scheduleId);
  };

  /**
   * The event type each credential (kind and value) was last found for, and where the database stood
   * then: while nothing was written since but this process's claims, whose revisions it renews on
   * the record (`renewAfterClaims`), the record is current without a read. A write of anything else,
   * by this process or another, moves the stamp, and the next lookup reads again.
   */
  const found = new Map<string, { id: number; at: DatabaseStamp }>();
  connection.onClaimsCommitted((from, to, bumps) => renewAfterClaims(found, parsed, from, to, bumps));

  /**
   * An event type found by a credential column: unchanged since it was last found, the record as it
   * stands; else its revisions are read, and the full row only when more than its revisions changed
   * since it was parsed (bookings change only those).
   */
  const byCredential = (kind: string, head: Statement<HeadRow, [string]>, full: Statement<FullRow, [string]>, credential: string): EventTypeRecord | null => {
    const key = `${kind}${credential}`;
    const at = connection.stamp();
    const seen = found.get(key);
    if (seen && sameStamp(seen.at, at)) {
      const hit = parsed.latest(seen.id);
      if (hit) return hit;
    }
    const current = head.get(credential);
    if (!current) {
      found.delete(key);
      return null;
    }
    const [hostsTotal, hostsContent, hostRevisions] = JSON.parse(current.hosts_head) as [number, number, number[]];
    const revision = current.own_revision + hostsTotal;
    const record =
      parsed.current(current.id, revision) ??
      parsed.rebased(current.id, current.own_revision + hostsContent, revision, hostRevisions) ??
      cached(full.get(credential));
    if (record) {
      // Bounded: credentials that no longer open anything are forgotten with the rest.
      if (found.size >= MOST_CREDENTIALS_KEPT) found.clear();
      found.set(key, { id: record.id, at });
    }
    return record;
  };

  return {
    create: async (input: NewEventType, nowIso: string) =>
      cached(
        connection.write(() => {
          const { id } = slugChecked(input.slug, () =>
            q.etInsert.get(
              input.tokenHash,
              input.overrideTokenHash,
              input.slug,
              input.linkToken,
              input.disabled ? 1 : 0,
              JSON.stringify(input.settings),
              secrets.seal(input.webhookSecret, "webhook"),
              nowIso,
              nowIso,
              input.feedToken ?? null,
              input.assignment ?? "collective",
            ),
          )!;
          writeHosts(id, input.hosts);
          return q.etById.get(id);
        }),
      )!,
    byId: async (id: number) => cached(q.etById.get(id)),
    byTokenHash: async (tokenHash: string) => byCredential("t", q.etRevisionByToken, q.etByToken, tokenHash),
    byLinkToken: async (linkToken: string) => byCredential("l", q.etRevisionByLinkToken, q.etByLinkToken, linkToken),
    byFeedToken: async (feedToken: string) => byCredential("f", q.etRevisionByFeedToken, q.etByFeedToken, feedToken),
    bySlug: async (slug: string) => cached(q.etBySlug.get(slug)),
    list: async () => q.etList.all().map((r) => cached(r)!),
    count: async () => q.etCount.get()!.n,
    update: async (id: number, change: EventTypeChange, nowIso: string) =>
      connection.write(() => {
        const current = q.etRow.get(id);
        if (!current) return null;
        const next = { ...toEventType(current, secrets), ...change };
        slugChecked(next.slug, () =>
          q.etUpdate.get(
            next.tokenHash,
            next.overrideTokenHash,
            next.slug,
            next.linkToken,
            next.disabled ? 1 : 0,
            JSON.stringify(next.settings),
            sealedWebhookSecret(secrets, current, change),
            next.webhookDisabledAtMs,
            nowIso,
            next.feedToken,
            id,
          ),
        );
        if (change.assignment !== undefined) q.etAssignment.run(change.assignment, id);
        if (change.hosts !== undefined) {
          // The revision is the row's plus the hosts' sum: a smaller sum is made up on the row, so it never takes an earlier value again.
          const before = q.hostSum.get(id)!.n;
          writeHosts(id, change.hosts);
          const after = q.hostSum.get(id)!.n;
          if (after < before) q.etRevisionAdd.run(before - after, id);
        }
        return cached(q.etById.get(id));
      }),
    delete: async (id: number) => {
      parsed.forget(id);
      return connection.write(() => {
        // Its bookings go with it: its hosts' other event types get new revisions, so no cached page keeps them.
        q.etHostsBump.run(id);
        return q.etDelete.run(id).changes > 0;
      });
    },
  };
}

/** Most credentials whose event type a store remembers (see `found` in sqliteEventTypes). */
const MOST_CREDENTIALS_KEPT = 10_000;

const sameStamp = (a: DatabaseStamp, b: DatabaseStamp): boolean => a.version === b.version && a.changes === b.changes;

/**
 * After a batch of this process's claims committed: the credentials found when the database stood
 * where the batch began are found as the batch left it, their records renewed by exactly the
 * revisions its claims bumped (nothing else was written in between). Others stay as they were, to
 * be read again.
 */
function renewAfterClaims(
  found: Map<string, { id: number; at: DatabaseStamp }>,
  parsed: ParsedEventTypes,
  from: DatabaseStamp,
  to: DatabaseStamp,
  bumps: ClaimBumps,
): void {
  const renewed = new Set<number>();
  for (const entry of found.values()) {
    if (!sameStamp(entry.at, from)) continue;
    if (!renewed.has(entry.id)) {
      parsed.bumped(entry.id, bumps);
      renewed.add(entry.id);
    }
    entry.at = to;
  }
}

/** Runs a write of an event type row, turning a clash on the unique slug into SlugTakenError. */
function slugChecked<T>(slug: string | null, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    if (slug !== null && code === "SQLITE_CONSTRAINT_UNIQUE" && /event_types\.slug/.test(message ?? "")) throw new SlugTakenError(slug);
    throw error;
  }
}
