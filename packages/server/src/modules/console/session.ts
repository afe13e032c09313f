import type { AppContext } from "../../context.ts";
import { cookieOf, resolvedSessions, sessionCookie, sessionCookieName, type SessionContext } from "../../http/console-session.ts";
import type { ConsoleSessionRecord } from "../../store/console-sessions.ts";
import type { ConsoleAccess } from "./service.ts";

/**
 * The console session a request's cookie opens (looked up once per request), or null. Changes made
 * with it must come from the server's own origin (403 `forbidden` otherwise). When this use moved
 * the session's end on, the answer renews the cookie to end with it: the browser would otherwise
 * drop the cookie an idle time after sign-in, however busy the console was since.
 */
export async function consoleSessionOf(ctx: AppContext, access: ConsoleAccess, { request, set }: SessionContext): Promise<ConsoleSessionRecord | null> {
  if (resolvedSessions.has(request)) return resolvedSessions.get(request)!;
  const token = cookieOf(request, sessionCookieName(ctx.config));
  const found = token ? await access.sessionOf(token) : null;
  if (token && found?.renewedForMs) set.headers["set-cookie"] = sessionCookie(ctx.config, token, found.renewedForMs);
  resolvedSessions.set(request, found?.session ?? null);
  return found?.session ?? null;
}
