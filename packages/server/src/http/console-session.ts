import type { ServerConfig } from "../config.ts";
import { publicOrigin } from "../lib/links.ts";
import type { ConsoleSessionRecord } from "../store/console-sessions.ts";
import { ApiError } from "./errors.ts";

/** Console sessions already resolved from a request's cookie, so a request looks its session up (and moves it on) once. */
export const resolvedSessions = new WeakMap<Request, ConsoleSessionRecord | null>();

/**
 * What a console session is resolved from: the request, and the headers of its answer, where the
 * renewed cookie goes (they are sent with whatever the request is answered, an error too).
 */
export interface SessionContext {
  request: Request;
  set: { headers: Record<string, string | number> };
}

/**
 * Name of the console's session cookie. In production it carries the `__Host-` prefix, which
 * browsers accept only with `Secure`, `Path=/` and no `Domain`: no other host or path can set it.
 */
export const sessionCookieName = (config: Pick<ServerConfig, "environment">): string =>
  config.environment === "production" ? "__Host-booking_console" : "booking_console";

/** The value of one cookie of the request, or null. */
export function cookieOf(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** `Set-Cookie` of a session, new or renewed: HttpOnly, SameSite=Strict, Secure in production, for `maxAgeMs`. */
export function sessionCookie(config: Pick<ServerConfig, "environment">, token: string, maxAgeMs: number): string {
  const secure = config.environment === "production" ? "; Secure" : "";
  return `${sessionCookieName(config)}=${token}; Path=/; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Strict${secure}`;
}

/** `Set-Cookie` that removes the session cookie from the browser. */
export function clearedSessionCookie(config: Pick<ServerConfig, "environment">): string {
  const secure = config.environment === "production" ? "; Secure" : "";
  return `${sessionCookieName(config)}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure}`;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a change made with the session cookie from another site (cross-site request forgery):
 * every method but GET, HEAD and OPTIONS must carry an `Origin` that is the server's own (its
 * BOOKING_PUBLIC_URL, or in development the origin the request was sent to), and a browser's
 * `Sec-Fetch-Site`, when sent, must say same-origin. 403 `forbidden` otherwise.
 */
export function assertSameOrigin(request: Request, config: Pick<ServerConfig, "publicUrl" | "port">): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get("origin");
  const own = new URL(publicOrigin(config, request.url)).origin;
  const site = request.headers.get("sec-fetch-site");
  if (origin === null || origin !== own || (site !== null && site !== "same-origin")) {
    throw new ApiError("forbidden", "A change made with the console's session must come from the console's own origin.", {
      hint: `Send changes from the console at ${own}/console, or use Authorization: Bearer <admin key> from scripts.`,
    });
  }
}
