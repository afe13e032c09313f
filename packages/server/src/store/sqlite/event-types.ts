import type { Statement } from "bun:sqlite";
import { SlugTakenError, type EventTypeChange, type EventTypeRecord, type NewEventType, type Store } from "../types.ts";
import { ParsedEventTypes, sealedWebhookSecret, toEventType, type EventTypeRow } from "../rows.ts";
import type { SqliteConnection } from "./connection.ts";
import type { SecretBox } from "../../lib/secrets.ts";

/** Bumps the revision of event type ?: what a change of its seats or calendars does, so no cache serves a page from before it. */
export const BUMP_REVISION = "UPDATE event_types SET revision = revision + 1 WHERE id = ?";

/** Event types on SQLite, with the store's cache of parsed records, current while their revision is. */
export function sqliteEventTypes(connection: SqliteConnection, secrets: SecretBox): Store["eventTypes"] {
  const { db } = connection;
  const q = {
    etById: db.query<EventTypeRow, [number]>("SELECT * FROM event_types WHERE id = ?"),
    etByToken: db.query<EventTypeRow, [string]>("SELECT * FROM event_types WHERE token_hash = ?"),
    etRevisionByToken: db.query<{ id: number; revision: number }, [string]>("SELECT id, revision FROM event_types WHERE token_hash = ?"),
    etByLinkToken: db.query<EventTypeRow, [string]>("SELECT * FROM event_types WHERE link_token = ?"),
    etRevisionByLinkToken: db.query<{ id: number; revision: number }, [string]>("SELECT id, revision FROM event_types WHERE link_token = ?"),
    etByFeedToken: db.query<EventTypeRow, [string]>("SELECT * FROM event_types WHERE feed_token = ?"),
    etRevisionByFeedToken: db.query<{ id: number; revision: number }, [string]>("SELECT id, revision FROM event_types WHERE feed_token = ?"),
    etBySlug: db.query<EventTypeRow, [string]>("SELECT * FROM event_types WHERE slug = ?"),
    etList: db.query<EventTypeRow, []>("SELECT * FROM event_types ORDER BY id"),
    etCount: db.query<{ n: number }, []>("SELECT count(*) AS n FROM event_types"),
    etInsert: db.query<EventTypeRow, [string, string, string | null, string, number, string, string, string, string, string | null]>(
      `INSERT INTO event_types (token_hash, override_token_hash, slug, link_token, disabled, settings, webhook_secret, created_at, updated_at, feed_token)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce(?, 'bcf_' || lower(hex(randomblob(32))))) RETURNING *`,
    ),
    etUpdate: db.query<EventTypeRow, [string, string, string | null, string, number, string, string, number | null, string, string, number]>(
      `UPDATE event_types SET token_hash = ?, override_token_hash = ?, slug = ?, link_token = ?, disabled = ?, settings = ?, webhook_secret = ?,
        webhook_disabled_at_ms = ?, updated_at = ?, feed_token = ?, revision = revision + 1 WHERE id = ? RETURNING *`,
    ),
    etDelete: db.query<unknown, [number]>("DELETE FROM event_types WHERE id = ?"),
  };
  const parsed = new ParsedEventTypes(secrets);
  const cached = (row: EventTypeRow | null): EventTypeRecord | null => parsed.of(row);

  /** An event type found by a credential column: the common case reads two integers, the full row only when the cached revision is stale. */
  const byCredential = (head: Statement<{ id: number; revision: number }, [string]>, full: Statement<EventTypeRow, [string]>, credential: string): EventTypeRecord | null => {
    const current = head.get(credential);
    if (!current) return null;
    return parsed.current(current.id, current.revision) ?? cached(full.get(credential));
  };

  return {
    create: async (input: NewEventType, nowIso: string) =>
      cached(
        connection.write(() =>
          slugChecked(input.slug, () =>
            q.etInsert.get(
              input.tokenHash, input.overrideTokenHash, input.slug, input.linkToken, input.disabled ? 1 : 0, JSON.stringify(input.settings), secrets.seal(input.webhookSecret, "webhook"), nowIso, nowIso,
              input.feedToken ?? null,
            ),
          ),
        ),
      )!,
    byId: async (id: number) => cached(q.etById.get(id)),
    byTokenHash: async (tokenHash: string) => byCredential(q.etRevisionByToken, q.etByToken, tokenHash),
    byLinkToken: async (linkToken: string) => byCredential(q.etRevisionByLinkToken, q.etByLinkToken, linkToken),
    byFeedToken: async (feedToken: string) => byCredential(q.etRevisionByFeedToken, q.etByFeedToken, feedToken),
    bySlug: async (slug: string) => cached(q.etBySlug.get(slug)),
    list: async () => q.etList.all().map((r) => cached(r)!),
    count: async () => q.etCount.get()!.n,
    update: async (id: number, change: EventTypeChange, nowIso: string) =>
      connection.write(() => {
        const current = q.etById.get(id);
        if (!current) return null;
        const next = { ...toEventType(current, secrets), ...change };
        return cached(
          slugChecked(next.slug, () =>
            q.etUpdate.get(
              next.tokenHash, next.overrideTokenHash, next.slug, next.linkToken, next.disabled ? 1 : 0, JSON.stringify(next.settings), sealedWebhookSecret(secrets, current, change), next.webhookDisabledAtMs, nowIso,
              next.feedToken, id,
            ),
          ),
        );
      }),
    delete: async (id: number) => {
      parsed.forget(id);
      return connection.write(() => q.etDelete.run(id).changes > 0);
    },
  };
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
