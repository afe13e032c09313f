import type { EventTypeChange, EventTypeRecord, NewEventType, Store } from "../types.ts";
import type { Connections } from "./connections.ts";
import { ParsedEventTypes, toEventType, type EventTypeRow } from "../rows.ts";

/**
 * Event types on PostgreSQL, with this instance's cache of parsed records. The revision in the
 * row tells whether a cached record is current, so every instance reads the others' changes.
 */
export function postgresEventTypes(db: Connections): Store["eventTypes"] {
  const parsed = new ParsedEventTypes();
  const cached = (row: EventTypeRow | undefined): EventTypeRecord | null => parsed.of(row);

  return {
    create: async (input: NewEventType, nowIso: string) => {
      const { rows } = await db.run<EventTypeRow>(
        `INSERT INTO event_types (token_hash, override_token_hash, disabled, settings, webhook_secret, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
        [input.tokenHash, input.overrideTokenHash, input.disabled, JSON.stringify(input.settings), input.webhookSecret, nowIso],
      );
      return cached(rows[0])!;
    },
    byId: async (id: number) => cached((await db.run<EventTypeRow>("SELECT * FROM event_types WHERE id = $1", [id], true)).rows[0]),
    byTokenHash: async (tokenHash: string) => {
      // The common case reads two integers; the full row only when the cached revision is stale.
      const head = (await db.run<{ id: number; revision: number }>("SELECT id, revision FROM event_types WHERE token_hash = $1", [tokenHash], true)).rows[0];
      if (!head) return null;
      const hit = parsed.current(head.id, head.revision);
      if (hit && hit.revision === head.revision) return hit;
      return cached((await db.run<EventTypeRow>("SELECT * FROM event_types WHERE token_hash = $1", [tokenHash], true)).rows[0]);
    },
    list: async () => (await db.run<EventTypeRow>("SELECT * FROM event_types ORDER BY id", [], true)).rows.map((r) => cached(r)!),
    count: async () => (await db.run<{ n: number }>("SELECT count(*) AS n FROM event_types", [], true)).rows[0]!.n,
    update: async (id: number, change: EventTypeChange, nowIso: string) => {
      const row = await db.transaction(async (c) => {
        const current = (await c.query<EventTypeRow>("SELECT * FROM event_types WHERE id = $1 FOR NO KEY UPDATE", [id])).rows[0];
        if (!current) return undefined;
        const next = { ...toEventType(current), ...change };
        const updated = await c.query<EventTypeRow>(
          `UPDATE event_types SET token_hash = $1, override_token_hash = $2, disabled = $3, settings = $4, webhook_secret = $5,
            webhook_disabled_at_ms = $6, updated_at = $7, revision = revision + 1 WHERE id = $8 RETURNING *`,
          [next.tokenHash, next.overrideTokenHash, next.disabled, JSON.stringify(next.settings), next.webhookSecret, next.webhookDisabledAtMs, nowIso, id],
        );
        return updated.rows[0];
      });
      return cached(row);
    },
    delete: async (id: number) => {
      parsed.forget(id);
      return ((await db.run("DELETE FROM event_types WHERE id = $1", [id])).rowCount ?? 0) > 0;
    },
  };
}
