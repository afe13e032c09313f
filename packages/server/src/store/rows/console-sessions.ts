import type { ConsoleSessionRecord } from "../console-sessions.ts";

/** A row of `console_sessions`. */
export interface ConsoleSessionRow {
  id: string;
  token_hash: string;
  role: string;
  host_id: number | null;
  method: string;
  key_fingerprint: string;
  created_at_ms: number;
  expires_at_ms: number;
  last_seen_at_ms: number;
  revoked_at_ms: number | null;
  address: string;
  user_agent: string;
}

/** The console session of a `console_sessions` row. */
export function toConsoleSession(r: ConsoleSessionRow): ConsoleSessionRecord {
  return {
    id: r.id,
    tokenHash: r.token_hash,
    role: r.role as ConsoleSessionRecord["role"],
    hostId: r.host_id,
    method: r.method === "link" ? "link" : "key",
    keyFingerprint: r.key_fingerprint,
    createdAtMs: r.created_at_ms,
    expiresAtMs: r.expires_at_ms,
    lastSeenAtMs: r.last_seen_at_ms,
    revokedAtMs: r.revoked_at_ms,
    address: r.address,
    userAgent: r.user_agent,
  };
}
