import type { ServerConfig } from "../config.ts";
import { escapeHtml } from "./html.ts";

// RFC 9110 `uri-host [":" port]`, as far as a server reached by name or address needs: DNS labels
// (underscores allowed, as container names use them), IPv4, or a bracketed IPv6 address.
const LABEL = "[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?";
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*\\.?|\\[[0-9A-Fa-f:.]{2,45}\\])(?::(\\d{1,5}))?$`);

/**
 * Whether a Host header is a well-formed host with an optional port of 1-65535. Anything else
 * (`a b`, `x:99999`, `evil@host`) is refused before it can reach a link or an error message.
 */
export function isValidHost(host: string): boolean {
  const match = host.length <= 260 ? HOST.exec(host) : null;
  if (match === null) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

/**
 * The origin a request came to, or null when it names no valid host: Bun builds the URL from the
 * Host header, and a request without one (HTTP/1.0) gets a URL of its path alone.
 */
export function requestOrigin(requestUrl: string): string | null {
  const authority = /^(https?):\/\/([^/?#]*)/i.exec(requestUrl);
  if (!authority || !isValidHost(authority[2]!)) return null;
  try {
    return new URL(requestUrl).origin;
  } catch {
    return null;
  }
}

/**
 * The origin visitors reach the server at, for absolute links: BOOKING_PUBLIC_URL when set (always
 * in production, see config.ts), else the origin the request came to when its Host is well formed,
 * else (no request, as on the stdio assistant server, or no usable Host) the local server that
 * `npm start` runs on the configured port. Never throws: error answers are built with it.
 */
export function publicOrigin(config: Pick<ServerConfig, "publicUrl" | "port">, requestUrl?: string | null): string {
  if (config.publicUrl) return config.publicUrl;
  return (requestUrl ? requestOrigin(requestUrl) : null) ?? `http://localhost:${config.port}`;
}

/** Whether `value` is an http(s) URL, read against `base` when it is relative. */
export function isHttpUrl(value: string, base?: string): boolean {
  try {
    return /^https?:$/.test(new URL(value, base).protocol);
  } catch {
    return false;
  }
}

/** The path of a request URL, absolute or (a request without Host) the path alone, without parsing the whole URL. */
export function pathOf(url: string): string {
  const scheme = url.startsWith("/") ? -1 : url.indexOf("://");
  const start = scheme < 0 ? (url.startsWith("/") ? 0 : -1) : url.indexOf("/", scheme + 3);
  if (start < 0) return "/";
  const end = url.slice(start).search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}

/** The query parameters of a request URL; like `pathOf`, whether or not the URL has an origin. */
export function searchParamsOf(url: string): URLSearchParams {
  const start = url.indexOf("?");
  if (start < 0) return new URLSearchParams();
  const end = url.indexOf("#", start);
  return new URLSearchParams(url.slice(start + 1, end < 0 ? undefined : end));
}

/** The shareable booking page of an event type, `{origin}/book/{slug}`; null without a slug. */
export function bookingUrlOf(origin: string, slug: string | null): string | null {
  // Slugs are lowercase letters, digits and hyphens: nothing in them needs escaping.
  return slug === null ? null : `${origin}/book/${slug}`;
}

/** A visitor's link to reschedule or cancel: the booking page with `?reservation={uuid}`; null without a slug. */
export function manageUrlOf(origin: string, slug: string | null, reservationUuid: string): string | null {
  const page = bookingUrlOf(origin, slug);
  return page === null ? null : `${page}?reservation=${reservationUuid}`;
}

/** The calendar script's unversioned URL, which embed snippets carry; it keeps working, revalidated after a few minutes. */
export const CALENDAR_PATH = "/embed/booking-calendar.js";

/**
 * The HTML a site pastes to embed an event type's calendar: the script tag and the element, with the
 * event type's publishable link token, never its API token (which is for servers and kept secret).
 * `api-base` is spelled out, as the element would otherwise take the script's origin without the
 * path prefix `origin` may have.
 */
export function embedSnippet(origin: string, linkToken: string): string {
  const base = escapeHtml(origin);
  return `<script src="${base}${CALENDAR_PATH}" defer></script>\n<booking-calendar token="${escapeHtml(linkToken)}" api-base="${base}"></booking-calendar>`;
}
