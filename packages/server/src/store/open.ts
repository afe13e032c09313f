import type { ServerConfig } from "../config.ts";
import type { LogEntry } from "../context.ts";
import { openPostgresStore } from "./postgres/index.ts";
import { openSqliteStore } from "./sqlite/index.ts";
import type { Store } from "./store.ts";
import { join, dirname } from "node:path";
import { keyFromFile, SecretBox } from "../lib/secrets.ts";

/**
 * The store a configuration names: PostgreSQL at `databaseUrl` (seat claims judged by the
 * database's clock, so several hosts agree), else the SQLite file at `databasePath`. What `npm start`
 * and the stdio assistant server open, so both act on the same data.
 */
export async function openConfiguredStore(config: ServerConfig, log: (entry: LogEntry) => void): Promise<Store> {
  const secrets = secretBoxOf(config, log);
  if (!config.databaseUrl) return openSqliteStore(config.databasePath, { secrets });
  return openPostgresStore(config.databaseUrl, {
    secrets,
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    rateLimit: config.rateLimit,
    databaseTime: true,
    onConnectionError: (error) => log({ level: "warn", message: "a pooled PostgreSQL connection failed; it is replaced", error }),
  });
}

/**
 * The keys calendar passwords and webhook secrets are sealed with: BOOKING_SECRET_KEY (with the old
 * keys still read). Without one (development only; production refuses to start) a key is kept in
 * `secret.key` beside the SQLite file, also when the data is on PostgreSQL, so `npm start` works
 * with no setting and restarts read what earlier runs sealed; an in-memory database gets a key for
 * the process.
 */
export function secretBoxOf(config: ServerConfig, log: (entry: LogEntry) => void): SecretBox {
  if (config.secretKeys.current) return new SecretBox(config.secretKeys.current, config.secretKeys.old);
  if (config.environment === "production") throw new Error("BOOKING_SECRET_KEY must be set in production");
  if (!config.databaseUrl && config.databasePath === ":memory:") return SecretBox.forThisProcess();
  const path = join(dirname(config.databasePath), "secret.key");
  const { key, created } = keyFromFile(path);
  if (created)
    log({
      level: "warn",
      message: `No BOOKING_SECRET_KEY: calendar passwords and webhook secrets are encrypted with a development key written to ${path}; production needs BOOKING_SECRET_KEY`,
    });
  return new SecretBox(key, config.secretKeys.old);
}
