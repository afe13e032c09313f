import pg from "pg";
import { SlugTakenError } from "../errors.ts";
import type { EventTypeChange, EventTypeRecord, EventTypeRepository, NewEventType } from "../event-types.ts";
import type { Connections } from "./connections.ts";
import { hostsOrDefault, ParsedEventTypes, sealedWebhookSecret, toEventType, type EventTypeRow } from "../rows/event-types.ts";
import { HOST_REVISION, HOST_REVISION_SHARE } from "./hosts-sql.ts";
import type { SecretBox } from "../../lib/secrets.ts";

/** The revisions of the hosts of the event type in view, summed (see `HOST_REVISION`). */
const HOSTS_REVISION = `(SELECT coalesce(sum(${HOST_REVISION_SHARE}), 0) FROM event_type_hosts eh JOIN hosts h ON h.id = eh.host_id WHERE eh.event_type_id = event_types.id)`;
/**
 * The seat changes of the row's event type, counted apart from the row (see `commitSeatChange`), and
 * its hosts' revisions: a booking of another event type of a host, or a change of its calendars,
 * gives the event type a new revision.
 */
const SEAT_REVISION = `((SELECT coalesce(sum(n), 0) FROM seat_revisions s WHERE s.event_type_id = event_types.id) + ${HOSTS_REVISION})::bigint`;
/** The hosts of the event type in view, with their names and schedules, in their order (see `eventTypeHostsOf`). */
const HOSTS_JSON = `(SELECT json_agg(json_build_array(eh.host_id, eh.priority, eh.schedule_id, h.name, h.email, h.timezone, h.avatar_url, h.bookings_calendar::json, s.timezone, s.availability::json, ${HOST_REVISION}, h.limits) ORDER BY eh.position)::text
  FROM event_type_hosts eh JOIN hosts h ON h.id = eh.host_id LEFT JOIN schedules s ON s.id = eh.schedule_id WHERE eh.event_type_id = event_types.id)`;
/** A full row, its hosts and its seat changes: the record's revision is the sum of row and changes. */
const WITH_SEAT_REVISION = `*, ${SEAT_REVISION} AS seat_revision, ${HOSTS_JSON} AS hosts_json`;

/**
 * Event types on PostgreSQL, with this instance's cache of parsed records. The revision (the row's
 * plus its seat changes) tells whether a cached record is current, so every instance reads the
 * others' changes.
 */
export function postgresEventTypes(db: Connections, secrets: SecretBox): EventTypeRepository {
  const parsed = new ParsedEventTypes(secrets);
  const cached = (row: (EventTypeRow & { seat_revision: number }) | undefined): EventTypeRecord | null =>
    parsed.of(row && { ...row, revision: row.revision + row.seat_revision });

  /** An event type found by a credential column: the common case reads two integers, the full row only when the cached revision is stale. */
  const byCredential = async (column: "token_hash" | "link_token" | "feed_token", credential: string): Promise<EventTypeRecord | null> => {
    const head = (
      await db.run<{ id: number; revision: number }>(
        `SELECT id, revision + ${SEAT_REVISION} AS revision FROM event_types WHERE ${column} = $1`,
        [credential],
        true,
        `event_type_by_${column}`,
      )
    ).rows[0];
    if (!head) return null;
    return (
      parsed.current(head.id, head.revision) ??
      cached(
        (await db.run<EventTypeRow & { seat_revision: number }>(`SELECT ${WITH_SEAT_REVISION} FROM event_types WHERE ${column} = $1`, [credential], true))
          .rows[0],
      )
    );
  };

  /** Writes the event type's hosts inside the caller's transaction. */
  const writeHosts = async (c: pg.ClientBase, id: number, hosts: NewEventType["hosts"]): Promise<void> => {
    await c.query("DELETE FROM event_type_hosts WHERE event_type_id = $1", [id]);
    const defaultId = Number((await c.query<{ id: number }>("SELECT id FROM hosts WHERE is_default")).rows[0]!.id);
    const list = hostsOrDefault(hosts, defaultId);
    await c.query(
      `INSERT INTO event_type_hosts (event_type_id, host_id, position, priority, schedule_id)
       SELECT $1, h.host_id, h.position, h.priority, h.schedule_id FROM unnest($2::bigint[], $3::int[], $4::int[], $5::bigint[]) AS h(host_id, position, priority, schedule_id)`,
      [id, list.map((h) => h.hostId), list.map((_, i) => i), list.map((h) => h.priority), list.map((h) => h.scheduleId)],
    );
  };

  return {
    create: async (input: NewEventType, nowIso: string) => {
      const row = await slugChecked(input.slug, () =>
        db.transaction(async (c) => {
          const { id } = (
            await c.query<{ id: number }>(
              `INSERT INTO event_types (token_hash, override_token_hash, slug, link_token, disabled, settings, webhook_secret, created_at, updated_at, feed_token, assignment)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, coalesce($9, 'bcf_' || replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')), $10)
               RETURNING id`,
              [
                input.tokenHash,
                input.overrideTokenHash,
                input.slug,
                input.linkToken,
                input.disabled,
                JSON.stringify(input.settings),
                secrets.seal(input.webhookSecret, "webhook"),
                nowIso,
                input.feedToken ?? null,
                input.assignment ?? "collective",
              ],
            )
          ).rows[0]!;
          await writeHosts(c, id, input.hosts);
          return (await c.query<EventTypeRow & { seat_revision: number }>(`SELECT ${WITH_SEAT_REVISION} FROM event_types WHERE id = $1`, [id])).rows[0];
        }),
      );
      return cached(row)!;
    },
    byId: async (id: number) =>
      cached((await db.run<EventTypeRow & { seat_revision: number }>(`SELECT ${WITH_SEAT_REVISION} FROM event_types WHERE id = $1`, [id], true)).rows[0]),
    byTokenHash: async (tokenHash: string) => byCredential("token_hash", tokenHash),
    byLinkToken: async (linkToken: string) => byCredential("link_token", linkToken),
    byFeedToken: async (feedToken: string) => byCredential("feed_token", feedToken),
    bySlug: async (slug: string) =>
      cached((await db.run<EventTypeRow & { seat_revision: number }>(`SELECT ${WITH_SEAT_REVISION} FROM event_types WHERE slug = $1`, [slug], true)).rows[0]),
    list: async () =>
      (await db.run<EventTypeRow & { seat_revision: number }>(`SELECT ${WITH_SEAT_REVISION} FROM event_types ORDER BY id`, [], true)).rows.map(
        (r) => cached(r)!,
      ),
    count: async () => (await db.run<{ n: number }>("SELECT count(*) AS n FROM event_types", [], true)).rows[0]!.n,
    update: async (id: number, change: EventTypeChange, nowIso: string) => {
      const row = await slugChecked(change.slug ?? null, () =>
        db.transaction(async (c) => {
          const current = (await c.query<EventTypeRow>("SELECT * FROM event_types WHERE id = $1 FOR NO KEY UPDATE", [id])).rows[0];
          if (!current) return undefined;
          const next = { ...toEventType(current, secrets), ...change };
          const hostsBefore =
            change.hosts === undefined
              ? 0
              : Number((await c.query<{ n: number }>(`SELECT ${HOSTS_REVISION} AS n FROM event_types WHERE id = $1`, [id])).rows[0]!.n);
          if (change.hosts !== undefined) await writeHosts(c, id, change.hosts);
          // The revision is the row's plus the hosts' sum: a smaller sum is made up on the row, so it never takes an earlier value again.
          const hostsAfter =
            change.hosts === undefined
              ? 0
              : Number((await c.query<{ n: number }>(`SELECT ${HOSTS_REVISION} AS n FROM event_types WHERE id = $1`, [id])).rows[0]!.n);
          const updated = await c.query<EventTypeRow & { seat_revision: number }>(
            `UPDATE event_types SET token_hash = $1, override_token_hash = $2, slug = $3, link_token = $4, disabled = $5, settings = $6, webhook_secret = $7,
            webhook_disabled_at_ms = $8, updated_at = $9, feed_token = $11, assignment = coalesce($12, assignment), revision = revision + 1 + $13 WHERE id = $10 RETURNING ${WITH_SEAT_REVISION}`,
            [
              next.tokenHash,
              next.overrideTokenHash,
              next.slug,
              next.linkToken,
              next.disabled,
              JSON.stringify(next.settings),
              sealedWebhookSecret(secrets, current, change),
              next.webhookDisabledAtMs,
              nowIso,
              id,
              next.feedToken,
              change.assignment ?? null,
              Math.max(0, hostsBefore - hostsAfter),
            ],
          );
          return updated.rows[0];
        }),
      );
      return cached(row);
    },
    delete: async (id: number) => {
      parsed.forget(id);
      return db.transaction(async (c) => {
        // Its bookings go with it: its hosts' other event types get new revisions, so no cached page keeps them.
        await c.query("UPDATE hosts SET revision = revision + 1 WHERE id IN (SELECT host_id FROM event_type_hosts WHERE event_type_id = $1)", [id]);
        return ((await c.query("DELETE FROM event_types WHERE id = $1", [id])).rowCount ?? 0) > 0;
      });
    },
  };
}

/** True for a unique violation of the slug column. */
const isSlugClash = (error: unknown): boolean => error instanceof pg.DatabaseError && error.code === "23505" && error.constraint === "event_types_slug_unique";

/** Runs a write of an event type row, turning a clash on the unique slug into SlugTakenError. */
async function slugChecked<T>(slug: string | null, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (slug !== null && isSlugClash(error)) throw new SlugTakenError(slug);
    throw error;
  }
}
