import type { LogEntry } from "../context.ts";
import { redactUrls } from "./redact.ts";

/** Writes log lines as JSON to stderr. */
export const stderrLog = (entry: LogEntry): void => {
  // Last guard for what a message did not redact itself: URLs lose their user name, password and query.
  const error = entry.error instanceof Error ? { error: redactUrls(entry.error.message), stack: entry.error.stack && redactUrls(entry.error.stack) } : {};
  console.error(JSON.stringify({ time: new Date().toISOString(), level: entry.level, message: redactUrls(entry.message), requestId: entry.requestId, ...error }));
};
