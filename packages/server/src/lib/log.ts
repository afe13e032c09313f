import type { LogEntry } from "../context.ts";

/** Writes log lines as JSON to stderr. */
export const stderrLog = (entry: LogEntry): void => {
  const error = entry.error instanceof Error ? { error: entry.error.message, stack: entry.error.stack } : {};
  console.error(JSON.stringify({ time: new Date().toISOString(), level: entry.level, message: entry.message, requestId: entry.requestId, ...error }));
};
