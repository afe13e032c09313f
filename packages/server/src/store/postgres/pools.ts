import pg from "pg";
import { NUMERIC_BIGINTS } from "./rows.ts";

/** Waiting for a new connection (or a free one of the pool) beyond this is a failure, not a hang. */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * Writes other than a seat claim wait this long for a row lock, then answer StoreBusyError. Longer
 * than SQLite's 100 ms: a waiting query here stalls nothing else in the process.
 */
const LOCK_WAIT_MS = 1_000;
/** A transaction left open by a stalled process is ended by the server, so it cannot hold an event type's lock for good. */
const IDLE_IN_TRANSACTION_MS = 60_000;
/**
 * No query of a request runs longer (server side), and none waits longer for its answer (client
 * side, which also covers a silently cut network): the request then fails instead of hanging.
 */
const STATEMENT_TIMEOUT_MS = 10_000;
const QUERY_TIMEOUT_MS = 12_000;
/** Probe an idle connection after this long, so a dead peer is noticed in seconds, not the system's two hours. */
const KEEPALIVE_DELAY_MS = 10_000;

/** `host:port/database` of a URL, for messages; never the user's password. Throws for a URL that is not PostgreSQL's. */
export function describeTarget(url: string): string {
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new Error("The PostgreSQL URL must start with postgres:// or postgresql:// (e.g. postgres://user@host:5432/database).");
  try {
    const u = new URL(url);
    const host = u.hostname || u.searchParams.get("host") || "localhost";
    return `${host}:${u.port || "5432"}/${decodeURIComponent(u.pathname.slice(1)) || "(default database)"}`;
  } catch {
    // Socket URLs (postgres://user@/db?host=/run/postgresql) are valid for pg, not for WHATWG URL.
    return "the server of the PostgreSQL URL";
  }
}

/**
 * The `-c` settings every connection of the store starts with: the lock and idle-transaction
 * timeouts, and `search_path` when the tables live in `schema`.
 */
export function sessionSettings(url: string, schema: string | null): string[] {
  // Session settings go in the startup packet, so no connection ever runs a query without them.
  if (/[?&]options=/.test(url)) throw new Error("The PostgreSQL URL must not set `options`: the store sets the session's search_path and timeouts itself.");
  const session = [
    `-c lock_timeout=${LOCK_WAIT_MS}`,
    `-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`,
    `-c statement_timeout=${STATEMENT_TIMEOUT_MS}`,
  ];
  if (schema !== null) session.push(`-c search_path=${schema}`);
  return session;
}

/** A pool of the store's connections, all opened with `session` and bigints read as numbers; the store keeps two of them. */
export function openPool(
  url: string,
  settings: { max: number; applicationName: string; session: string[]; onConnectionError: ((error: Error) => void) | undefined },
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: settings.max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    application_name: settings.applicationName,
    options: settings.session.join(" "),
    types: NUMERIC_BIGINTS,
  });
  // An idle connection that dies (server restart, killed backend) is dropped by the pool and
  // replaced on the next checkout; without a listener the 'error' event would end the process.
  pool.on("error", (error) => settings.onConnectionError?.(error));
  // The pool hears a client's errors only while it is idle. Handed out, a client is unheard until
  // its borrower listens, after an await: a session ended in that gap (its FATAL message may come in
  // the very packet that finished connecting) would end the process. So every client is heard for
  // its whole life, from the moment the pool opens it, and its first loss is kept for the borrower.
  pool.on("connect", (client) => {
    client.on("error", (error) => {
      if (!LOSSES.has(client)) LOSSES.set(client, error);
    });
  });
  return pool;
}

const LOSSES = new WeakMap<pg.ClientBase, Error>();

/** The error that ended a pooled client's connection, if one did: such a client is to be released with it (destroyed), never reused. */
export function connectionLoss(client: pg.ClientBase): Error | undefined {
  return LOSSES.get(client);
}
