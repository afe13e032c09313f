import type { ServerConfig } from "../config.ts";

/**
 * The origin visitors reach the server at, for absolute links: BOOKING_PUBLIC_URL when set, else the
 * origin the request came to, else (no request: the stdio assistant server) the local server that
 * `npm start` runs on the configured port.
 */
export function publicOrigin(config: Pick<ServerConfig, "publicUrl" | "port">, requestUrl?: string | null): string {
  if (config.publicUrl) return config.publicUrl;
  if (requestUrl) return new URL(requestUrl).origin;
  return `http://localhost:${config.port}`;
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
