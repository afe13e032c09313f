import { DomainError } from "../../domain/errors.ts";
import { hashToken, newToken, sameSecret } from "../../lib/tokens.ts";
import type { AttemptLimiter } from "../../store/rate-limiter.ts";
import type { ConsoleSessionRecord } from "../../store/console-sessions.ts";
import type { Store } from "../../store/store.ts";
import type { SessionView } from "@booking/wire";

/** Prefix of a console session's cookie secret. */
export const SESSION_TOKEN_PREFIX = "bcs_";
/** Prefix of a one-time sign-in link's secret. */
export const SIGN_IN_LINK_PREFIX = "bcsl_";
/** A session unused this long ends (BOOKING_CONSOLE_IDLE_SECONDS sets another); each use moves its end on (at most once a minute) and renews the cookie. */
export const SESSION_IDLE_MS = 12 * 3_600_000;
/** However much it is used, a session ends this long after sign-in. */
export const SESSION_MAX_MS = 7 * 86_400_000;
/** A printed sign-in link works once, within this time. */
export const SIGN_IN_LINK_MS = 60 * 60_000;
/** A sign-in link emailed to a host works once, within this time (mail may take a while to be read). */
export const HOST_SIGN_IN_LINK_MS = 24 * 60 * 60_000;
/**
 * Failed sign-in attempts per client address in SIGN_IN_WINDOW_SECONDS; past them every attempt is
 * refused until the window ends. An attempt holds its slot while it is judged (a successful one
 * then gives it back), so no more than this many wrong keys are ever judged in a window, however
 * they are spread over connections and instances.
 */
export const SIGN_IN_ATTEMPTS = 10;
/** The window of SIGN_IN_ATTEMPTS, aligned to the epoch so every instance agrees on its edges. */
export const SIGN_IN_WINDOW_SECONDS = 600;

/** Who signs in, as the session keeps it beside its role. */
export interface SignInMeta {
  address: string;
  userAgent: string;
}

/** What a sign-in sends: the admin key or a one-time link's secret. */
export interface SignInCredentials {
  adminKey?: string;
  link?: string;
}

/** A sign-in's outcome: a session and its cookie's secret, or refused before the credentials were judged (the address is out of attempts for this many seconds). */
export type SignInOutcome = { token: string; session: ConsoleSessionRecord } | { retryAfterSeconds: number };

/**
 * A live session as one request found it. `renewedForMs` is set when this use moved the session's
 * end on: the browser's cookie should then last that long (the idle time, or what is left of the
 * session's lifetime when less), so it never ends before the session does.
 */
export interface SessionInUse {
  session: ConsoleSessionRecord;
  renewedForMs: number | null;
}

/** A session as the console and the admin API show it: never its secret nor its hash. */
export type { SessionView } from "@booking/wire";

/**
 * The organizer console's sessions: the admin key (or a one-time link printed by `npm start` in
 * development) is exchanged for a random secret kept in an HttpOnly cookie, of which only the hash is
 * stored. Sessions end when idle, after a fixed lifetime, on sign-out, when revoked, and when the
 * admin key they were opened with changes. A host's session (role and host id) fits the same record.
 */
export class ConsoleAccess {
  private readonly keyFingerprint: string;
  /** Sign-in attempts per address, in the store, so every instance and process on its database shares them. */
  private readonly attempts: AttemptLimiter;
  /** A session unused this long ends (SESSION_IDLE_MS unless the server is configured otherwise). */
  readonly idleMs: number;

  constructor(
    private readonly store: Store,
    private readonly adminKey: string | null,
    private readonly now: () => number,
    options: { idleMs?: number } = {},
  ) {
    this.keyFingerprint = hashToken(adminKey ?? "");
    this.attempts = store.attemptLimiter("console-sign-in", SIGN_IN_ATTEMPTS, SIGN_IN_WINDOW_SECONDS);
    this.idleMs = options.idleMs ?? SESSION_IDLE_MS;
  }

  /**
   * Signs in with the admin key or a one-time link, so the key cannot be guessed through the
   * console faster than SIGN_IN_ATTEMPTS a window per address: the attempt first takes one of the
   * address's slots, checked and counted in one step in the store, and is refused without being
   * judged when none is left (the caller answers 429 with the seconds to wait). A failure (a wrong
   * key, a used or unknown link: 401) keeps its slot; any other outcome gives it back, so a
   * successful sign-in never counts. A store that cannot count the attempt throws (503): the
   * attempt is not made rather than made without a limit.
   */
  async signIn(credentials: SignInCredentials, meta: SignInMeta): Promise<SignInOutcome> {
    const takenAtMs = this.now();
    const slot = await this.attempts.take(meta.address, takenAtMs);
    if (!slot.allowed) return { retryAfterSeconds: slot.resetSeconds };
    let opened: { token: string; session: ConsoleSessionRecord };
    try {
      opened = credentials.link ? await this.signInWithLink(credentials.link, meta) : await this.signInWithKey(credentials.adminKey ?? "", meta);
    } catch (error) {
      if ((error as { code?: string }).code !== "unauthenticated") await this.giveBack(meta.address, takenAtMs);
      throw error;
    }
    await this.giveBack(meta.address, takenAtMs);
    return opened;
  }

  private async giveBack(address: string, takenAtMs: number): Promise<void> {
    // A slot that cannot be given back stays counted: the address has one attempt less, which errs
    // on the side of fewer guesses and must not fail a sign-in that succeeded.
    await this.attempts.giveBack(address, takenAtMs).catch(() => undefined);
  }

  /** A session for the holder of the admin key; 401 for any other key (or when no key is configured). */
  private async signInWithKey(key: string, meta: SignInMeta): Promise<{ token: string; session: ConsoleSessionRecord }> {
    if (!this.adminKey || !sameSecret(key, this.adminKey)) {
      throw new DomainError("unauthenticated", "That is not the admin key.", { hint: "Enter the BOOKING_ADMIN_KEY the server was started with." });
    }
    return this.open("admin", null, "key", meta);
  }

  /** A session for the holder of an unused, unexpired sign-in link, which is used up by it; 401 otherwise. */
  private async signInWithLink(link: string, meta: SignInMeta): Promise<{ token: string; session: ConsoleSessionRecord }> {
    const holder = link.startsWith(SIGN_IN_LINK_PREFIX) ? await this.store.consoleSessions.useLink(hashToken(link), this.now()) : null;
    if (!holder) {
      throw new DomainError("unauthenticated", "This sign-in link is not valid: it was used already, has expired, or was never issued.", {
        hint: "A host asks the organizer to email a new link; the organizer restarts the server (npm start) for a new link, or signs in with the admin key.",
      });
    }
    return this.open(holder.role, holder.hostId, "link", meta);
  }

  /** Issues a one-time sign-in link's secret for the organizer; it works once within SIGN_IN_LINK_MS. */
  async issueLink(): Promise<string> {
    return this.issue("admin", null, SIGN_IN_LINK_MS);
  }

  /** Issues a one-time sign-in link's secret for a host: it opens a session of role `host` that sees only that host's data; it works once within HOST_SIGN_IN_LINK_MS. */
  async issueHostLink(hostId: number): Promise<string> {
    return this.issue("host", hostId, HOST_SIGN_IN_LINK_MS);
  }

  private async issue(role: ConsoleSessionRecord["role"], hostId: number | null, validMs: number): Promise<string> {
    const token = newToken(SIGN_IN_LINK_PREFIX);
    const nowMs = this.now();
    await this.store.consoleSessions.addLink({ tokenHash: hashToken(token), role, hostId, createdAtMs: nowMs, expiresAtMs: nowMs + validMs });
    return token;
  }

  /**
   * The live session a cookie secret opens, its end moved on by this use (at most once a minute, or
   * a quarter of the idle time when that is shorter, so a busy console does not write on every
   * request); null when there is none.
   */
  async sessionOf(token: string): Promise<SessionInUse | null> {
    if (!token.startsWith(SESSION_TOKEN_PREFIX)) return null;
    const session = await this.store.consoleSessions.byTokenHash(hashToken(token));
    const nowMs = this.now();
    if (!session || session.revokedAtMs !== null || session.expiresAtMs <= nowMs) return null;
    // Opened with another admin key than the one the server runs with now: that key was replaced.
    if (session.method === "key" && session.keyFingerprint !== this.keyFingerprint) return null;
    if (nowMs - session.lastSeenAtMs < Math.min(60_000, this.idleMs / 4)) return { session, renewedForMs: null };
    const expiresAtMs = Math.min(session.createdAtMs + SESSION_MAX_MS, nowMs + this.idleMs);
    await this.store.consoleSessions.touch(session.id, nowMs, expiresAtMs);
    return { session: { ...session, lastSeenAtMs: nowMs, expiresAtMs }, renewedForMs: expiresAtMs - nowMs };
  }

  /** Sessions that are still live, newest first. */
  async list(): Promise<SessionView[]> {
    return (await this.store.consoleSessions.active(this.now())).map(sessionView);
  }

  /** Ends one session (sign-out, or revoking another browser's); 404 when there is no live one with this id. */
  async revoke(id: string): Promise<void> {
    if (!(await this.store.consoleSessions.revoke(id, this.now()))) throw new DomainError("not_found", "No live console session with this id.");
  }

  private async open(role: ConsoleSessionRecord["role"], hostId: number | null, method: ConsoleSessionRecord["method"], meta: SignInMeta) {
    const token = newToken(SESSION_TOKEN_PREFIX);
    const nowMs = this.now();
    const session: ConsoleSessionRecord = {
      id: crypto.randomUUID(),
      tokenHash: hashToken(token),
      role,
      hostId,
      method,
      keyFingerprint: method === "key" ? this.keyFingerprint : hashToken(""),
      createdAtMs: nowMs,
      expiresAtMs: nowMs + this.idleMs,
      lastSeenAtMs: nowMs,
      revokedAtMs: null,
      address: meta.address.slice(0, 100),
      userAgent: meta.userAgent.slice(0, 300),
    };
    await this.store.consoleSessions.create(session);
    return { token, session };
  }
}

/** A session without its secret's hash, times as ISO strings. */
export function sessionView(s: ConsoleSessionRecord): SessionView {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    id: s.id,
    role: s.role,
    hostId: s.hostId,
    method: s.method,
    createdAt: iso(s.createdAtMs),
    expiresAt: iso(s.expiresAtMs),
    lastSeenAt: iso(s.lastSeenAtMs),
    address: s.address,
    userAgent: s.userAgent,
  };
}
