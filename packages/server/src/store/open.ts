import type { ServerConfig } from "../config.ts";
import type { LogEntry } from "../context.ts";
import { openPostgresStore } from "./postgres.ts";
import { openSqliteStore } from "./sqlite.ts";
import type { Store } from "./types.ts";

/**
 * The store a configuration names: PostgreSQL at `databaseUrl` (seat claims judged by the
 * database's clock, so several hosts agree), else the SQLite file at `databasePath`. What `npm start`
 * and the stdio assistant server open, so both act on the same data.
 */
export async function openConfiguredStore(config: ServerConfig, log: (entry: LogEntry) => void): Promise<Store> {
  if (!config.databaseUrl) return openSqliteStore(config.databasePath);
  return openPostgresStore(config.databaseUrl, {
    ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    rateLimit: config.rateLimit,
    databaseTime: true,
    onConnectionError: (error) => log({ level: "warn", message: "a pooled PostgreSQL connection failed; it is replaced", error }),
  });
}
