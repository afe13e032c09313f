import type { ConsoleSessionRecord, ConsoleSessionRepository } from "../console-sessions.ts";
import { toConsoleSession, type ConsoleSessionRow } from "../rows/console-sessions.ts";
import type { SqliteConnection } from "./connection.ts";

/** Console sessions and sign-in links on SQLite; a link is used up by one conditional update under the write lock. */
export function sqliteConsoleSessions(connection: SqliteConnection): ConsoleSessionRepository {
  const { db } = connection;
  const q = {
    insert: db.query<unknown, [Record<string, string | number | null>]>(
      `INSERT INTO console_sessions (id, token_hash, role, host_id, method, key_fingerprint, created_at_ms, expires_at_ms, last_seen_at_ms, revoked_at_ms, address, user_agent)
       VALUES ($id, $tokenHash, $role, $hostId, $method, $keyFingerprint, $createdAtMs, $expiresAtMs, $lastSeenAtMs, $revokedAtMs, $address, $userAgent)`,
    ),
    byHash: db.query<ConsoleSessionRow, [string]>("SELECT * FROM console_sessions WHERE token_hash = ?"),
    touch: db.query<unknown, [number, number, string]>(
      "UPDATE console_sessions SET last_seen_at_ms = ?, expires_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL",
    ),
    active: db.query<ConsoleSessionRow, [number]>(
      "SELECT * FROM console_sessions WHERE revoked_at_ms IS NULL AND expires_at_ms > ? ORDER BY created_at_ms DESC, id LIMIT 500",
    ),
    revoke: db.query<unknown, [number, string]>("UPDATE console_sessions SET revoked_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL"),
    // Sessions and links long over are forgotten as new ones come.
    forget: db.query<unknown, [number]>("DELETE FROM console_sessions WHERE expires_at_ms < ?"),
    forgetLinks: db.query<unknown, [number]>("DELETE FROM console_sign_in_links WHERE expires_at_ms < ?"),
    addLink: db.query<unknown, [string, string, number | null, number, number]>(
      "INSERT INTO console_sign_in_links (token_hash, role, host_id, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?)",
    ),
    useLink: db.query<{ role: string; host_id: number | null }, [number, string, number]>(
      "UPDATE console_sign_in_links SET used_at_ms = ? WHERE token_hash = ? AND used_at_ms IS NULL AND expires_at_ms > ? RETURNING role, host_id",
    ),
  };
  const DAY_MS = 86_400_000;
  return {
    create: async (s: ConsoleSessionRecord) => {
      connection.write(() => {
        q.forget.run(s.createdAtMs - 30 * DAY_MS);
        q.insert.run({ ...s });
      });
    },
    byTokenHash: async (tokenHash) => {
      const row = q.byHash.get(tokenHash);
      return row ? toConsoleSession(row) : null;
    },
    touch: async (id, lastSeenAtMs, expiresAtMs) => {
      connection.write(() => q.touch.run(lastSeenAtMs, expiresAtMs, id));
    },
    active: async (nowMs) => q.active.all(nowMs).map(toConsoleSession),
    revoke: async (id, nowMs) => connection.write(() => q.revoke.run(nowMs, id).changes === 1),
    addLink: async (link) => {
      connection.write(() => {
        q.forgetLinks.run(link.createdAtMs - DAY_MS);
        q.addLink.run(link.tokenHash, link.role, link.hostId, link.createdAtMs, link.expiresAtMs);
      });
    },
    useLink: async (tokenHash, nowMs) => {
      const row = connection.write(() => q.useLink.get(nowMs, tokenHash, nowMs));
      return row ? { role: row.role as ConsoleSessionRecord["role"], hostId: row.host_id } : null;
    },
  };
}
