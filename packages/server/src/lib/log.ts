import type { LogEntry } from "../context.ts";
import { redactUrls } from "./redact.ts";

/**
 * The JSON line the log writes for an entry. URLs lose their user name, password, query and
 * fragment: the last guard for what a message did not redact itself. Only `developmentLink` is
 * printed whole, and only outside production, since a development server's operator must be able
 * to open it and production never logs a secret.
 */
export function logLine(entry: LogEntry, production = process.env.NODE_ENV === "production"): string {
  const error = entry.error instanceof Error ? { error: redactUrls(entry.error.message), stack: entry.error.stack && redactUrls(entry.error.stack) } : {};
  const link = entry.developmentLink === undefined ? {} : { link: production ? redactUrls(entry.developmentLink) : entry.developmentLink };
  return JSON.stringify({
    time: new Date().toISOString(),
    level: entry.level,
    message: redactUrls(entry.message),
    requestId: entry.requestId,
    ...link,
    ...error,
  });
}

/** Writes log lines as JSON to stderr. */
export const stderrLog = (entry: LogEntry): void => {
  console.error(logLine(entry));
};
