import type { ConsoleSessionRecord, ConsoleSessionRepository } from "../console-sessions.ts";
import { toConsoleSession, type ConsoleSessionRow } from "../rows/console-sessions.ts";
import type { Connections } from "./connections.ts";

const DAY_MS = 86_400_000;

/** Console sessions and sign-in links on PostgreSQL; a link is used up by one conditional update, so two instances never both accept it. */
export function postgresConsoleSessions(db: Connections): ConsoleSessionRepository {
  return {
    create: async (s: ConsoleSessionRecord) => {
      // Sessions long over are forgotten as new ones come.
      await db.run("DELETE FROM console_sessions WHERE expires_at_ms < $1", [s.createdAtMs - 30 * DAY_MS], true);
      await db.run(
        `INSERT INTO console_sessions (id, token_hash, role, host_id, method, key_fingerprint, created_at_ms, expires_at_ms, last_seen_at_ms, revoked_at_ms, address, user_agent)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [s.id, s.tokenHash, s.role, s.hostId, s.method, s.keyFingerprint, s.createdAtMs, s.expiresAtMs, s.lastSeenAtMs, s.revokedAtMs, s.address, s.userAgent],
      );
    },
    byTokenHash: async (tokenHash) => {
      const row = (await db.run<ConsoleSessionRow>("SELECT * FROM console_sessions WHERE token_hash = $1", [tokenHash], true)).rows[0];
      return row ? toConsoleSession(row) : null;
    },
    touch: async (id, lastSeenAtMs, expiresAtMs) => {
      await db.run(
        "UPDATE console_sessions SET last_seen_at_ms = $1, expires_at_ms = $2 WHERE id = $3 AND revoked_at_ms IS NULL",
        [lastSeenAtMs, expiresAtMs, id],
        true,
      );
    },
    active: async (nowMs) =>
      (
        await db.run<ConsoleSessionRow>(
          "SELECT * FROM console_sessions WHERE revoked_at_ms IS NULL AND expires_at_ms > $1 ORDER BY created_at_ms DESC, id LIMIT 500",
          [nowMs],
          true,
        )
      ).rows.map(toConsoleSession),
    revoke: async (id, nowMs) =>
      (await db.run("UPDATE console_sessions SET revoked_at_ms = $1 WHERE id = $2 AND revoked_at_ms IS NULL", [nowMs, id], true)).rowCount === 1,
    addLink: async (link) => {
      await db.run("DELETE FROM console_sign_in_links WHERE expires_at_ms < $1", [link.createdAtMs - DAY_MS], true);
      await db.run("INSERT INTO console_sign_in_links (token_hash, role, host_id, created_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4, $5)", [
        link.tokenHash,
        link.role,
        link.hostId,
        link.createdAtMs,
        link.expiresAtMs,
      ]);
    },
    useLink: async (tokenHash, nowMs) => {
      // Not retried on a lost connection: the update may have gone through, and a link works once.
      const row = (
        await db.run<{ role: string; host_id: number | null }>(
          "UPDATE console_sign_in_links SET used_at_ms = $1 WHERE token_hash = $2 AND used_at_ms IS NULL AND expires_at_ms > $1 RETURNING role, host_id",
          [nowMs, tokenHash],
        )
      ).rows[0];
      return row ? { role: row.role as ConsoleSessionRecord["role"], hostId: row.host_id } : null;
    },
  };
}
