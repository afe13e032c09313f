import type { SessionRole } from "@booking/wire";
/** Who a console session acts as: the organizer (`admin`), or one host (`host`), who sees and manages only their own schedules, calendars and bookings. */
export type ConsoleRole = SessionRole;

/** A signed-in browser of the organizer console; only the hash of its cookie's secret is stored. */
export interface ConsoleSessionRecord {
  /** Public id, shown in the list of sessions and used to revoke one. */
  id: string;
  tokenHash: string;
  role: ConsoleRole;
  /** The host a host's session is limited to; null for the organizer. */
  hostId: number | null;
  /** How it was opened: with the admin key, or with a one-time sign-in link. */
  method: "key" | "link";
  /** Hash of the admin key it was opened with (or of "" for a link): a changed key ends such sessions. */
  keyFingerprint: string;
  createdAtMs: number;
  expiresAtMs: number;
  lastSeenAtMs: number;
  revokedAtMs: number | null;
  address: string;
  userAgent: string;
}

/** A one-time sign-in link to the console: its secret's hash, whom it signs in, until when. */
export interface ConsoleSignInLink {
  tokenHash: string;
  role: ConsoleRole;
  hostId: number | null;
  createdAtMs: number;
  expiresAtMs: number;
}

/** Signed-in browsers of the organizer console and the one-time links that sign one in. */
export interface ConsoleSessionRepository {
  create(session: ConsoleSessionRecord): Promise<void>;
  /** The session whose cookie secret hashes to `tokenHash`, revoked or expired ones included. */
  byTokenHash(tokenHash: string): Promise<ConsoleSessionRecord | null>;
  /** Notes the session's last use and moves its expiry (an idle session ends, an active one lasts). */
  touch(id: string, lastSeenAtMs: number, expiresAtMs: number): Promise<void>;
  /** Sessions neither revoked nor expired at `nowMs`, newest first. */
  active(nowMs: number): Promise<ConsoleSessionRecord[]>;
  /** Revokes one session; false when it is unknown or was already revoked. */
  revoke(id: string, nowMs: number): Promise<boolean>;
  addLink(link: ConsoleSignInLink): Promise<void>;
  /** Uses a link up, once: its holder when it was unused and unexpired at `nowMs`, else null. */
  useLink(tokenHash: string, nowMs: number): Promise<Pick<ConsoleSignInLink, "role" | "hostId"> | null>;
}
