import type { ServerConfig } from "../config.ts";

/**
 * How long a browser keeps to HTTPS for this server's host once told to: a year, the value browsers'
 * preload lists and common guidance take as the minimum worth sending, so a visitor who came once
 * over HTTPS is not downgraded by a network on a later visit long after.
 */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

/**
 * The `Strict-Transport-Security` value every answer carries, or null for none: sent only in
 * production with an https BOOKING_PUBLIC_URL, the address visitors reach through the TLS proxy.
 * A development server (localhost) or a plain http address must never pin a host to HTTPS for a year.
 * No `includeSubDomains` (nor `preload`, which requires it): the server usually runs on one name of
 * a domain (book.example.com) and cannot speak for the domain's other hosts (docs/production.md).
 */
export function strictTransportSecurity(config: Pick<ServerConfig, "environment" | "publicUrl">): string | null {
  if (config.environment !== "production" || !config.publicUrl?.startsWith("https://")) return null;
  return `max-age=${HSTS_MAX_AGE_SECONDS}`;
}
