import { LIMITS } from "@booking/wire";
import { isAtOrUnder, PAGE_ROOTS } from "./page-paths.ts";
import { parseSecretKey, type SecretKey } from "./lib/secrets.ts";

/** Settings of one server instance; every one has an environment variable (docs/configuration.md). */
export interface ServerConfig {
  /** TCP port of `npm start`. */
  port: number;
  /** SQLite file, or `:memory:`. */
  databasePath: string;
  /** `postgres://...`: use PostgreSQL instead of the SQLite file (several instances on one database). */
  databaseUrl: string | null;
  /** PostgreSQL schema for the tables (created when missing); the connection's default when null. */
  databaseSchema: string | null;
  /** Bearer key of the organizer admin API; `/admin` answers 404 while unset. */
  adminKey: string | null;
  /**
   * The organizer console signs in with one-time links besides the admin key: `npm start` in
   * development without BOOKING_ADMIN_KEY turns it on and prints a link, so the admin API answers
   * console sessions (and only them) without a key. Never on in production.
   */
  consoleSignInLinks: boolean;
  /** Seconds a console session may go unused before it ends (BOOKING_CONSOLE_IDLE_SECONDS; 12 hours by default). */
  consoleIdleSeconds: number;
  /** Path prefix under which the public API is served a second time. */
  aliasPrefix: string;
  /** Public origin of the server as visitors reach it, for absolute links; required in production, null derives it from the request (development). */
  publicUrl: string | null;
  rateLimit: { limit: number; windowSeconds: number };
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  /** Take the client's address from the last `X-Forwarded-For` entry, the one your own proxy added (only behind one you run). */
  trustProxy: boolean;
  /** Platform Stripe keys; `apiBase` points the SDK at another host (the local stand-in). */
  stripe: { secretKey: string | null; publishableKey: string | null; webhookSecret: string | null; apiBase: string | null };
  /** Base of generated video meeting links: a room name is appended. */
  meetBaseUrl: string;
  /** `npm run dev`: origin of the Vite dev server the demo page loads the element from (hot reload); null serves the built file. */
  devCalendarUrl: string | null;
  /**
   * `production` turns off what only suits a trial run: the demo seed of an empty database and the
   * local Stripe stand-in.
   */
  environment: "development" | "production";
  /** Webhook delivery: whether receivers on loopback, link-local or private addresses are allowed. */
  webhooks: { allowPrivateAddresses: boolean };
  /**
   * The organizer's calendars (busy sources): minutes a sync stays fresh unless a source sets its
   * own, and whether calendars on loopback, link-local or private addresses may be fetched.
   */
  calendars: { freshnessMinutes: number; allowPrivateAddresses: boolean };
  /**
   * Confirmation emails: `smtpUrl` (SMTP_URL, `smtp://` or `smtps://`) is where they are sent;
   * without it, development logs each one instead and production sends none. `from` (MAIL_FROM) is
   * the sender, `Name <address>` or an address.
   */
  mail: { smtpUrl: string | null; from: string };
  /**
   * Keys that encrypt calendar passwords and webhook signing secrets in the database:
   * BOOKING_SECRET_KEY seals, BOOKING_SECRET_KEYS_OLD (comma-separated) still open what older keys
   * sealed. Required in production; in development without one, a key is kept in `secret.key`
   * beside the SQLite file.
   */
  secretKeys: { current: SecretKey | null; old: SecretKey[] };
}

/** Defaults for a local development server. */
export const DEFAULT_CONFIG: ServerConfig = {
  port: 3000,
  databasePath: "./data/booking.sqlite",
  databaseUrl: null,
  databaseSchema: null,
  adminKey: null,
  consoleSignInLinks: false,
  consoleIdleSeconds: 12 * 3600,
  aliasPrefix: "/booking-api",
  publicUrl: null,
  rateLimit: { limit: 60, windowSeconds: 60 },
  maxBodyBytes: LIMITS.maxBodyBytes,
  trustProxy: false,
  stripe: { secretKey: null, publishableKey: null, webhookSecret: null, apiBase: null },
  meetBaseUrl: "https://meet.jit.si/",
  devCalendarUrl: null,
  environment: "development",
  webhooks: { allowPrivateAddresses: true },
  calendars: { freshnessMinutes: 15, allowPrivateAddresses: true },
  mail: { smtpUrl: null, from: "Booking Calendar <bookings@localhost>" },
  secretKeys: { current: null, old: [] },
};

function smtpUrl(value: string | undefined): string | null {
  if (!value) return null;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (!url || !/^smtps?:$/.test(url.protocol) || !url.hostname)
    throw new Error("SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587");
  return value;
}

/** MAIL_FROM, or a no-reply address at the public host (localhost without one). */
function mailFrom(value: string | undefined, publicUrl: string | null): string {
  const given = value?.trim();
  if (given) {
    // `Name <address>` or a bare address; nothing that could add a header.
    if (/[\r\n]/.test(given) || !/^(?:[^<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(given)) {
      throw new Error(`MAIL_FROM must be an address or "Name <address>", got "${given}"`);
    }
    return given;
  }
  const host = publicUrl ? new URL(publicUrl).hostname : "localhost";
  return `Booking Calendar <bookings@${host}>`;
}

function databaseUrl(value: string | undefined): string | null {
  if (!value) return null;
  if (!/^postgres(ql)?:\/\//.test(value)) throw new Error("DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite store)");
  return value;
}

/**
 * BOOKING_PUBLIC_URL as links are built from it (no trailing slash). Links to visitors and in signed
 * webhooks must not come from a request's Host header in production, so there it is required.
 */
function publicUrl(value: string | undefined, environment: ServerConfig["environment"]): string | null {
  if (!value) {
    if (environment === "production") {
      throw new Error(
        "BOOKING_PUBLIC_URL must be set in production (e.g. https://book.example.com): visitors' links and webhooks are built from it, never from a request's Host header",
      );
    }
    return null;
  }
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash || !/^https?:\/\//i.test(value)) {
    throw new Error(`BOOKING_PUBLIC_URL must be an http(s) address like https://book.example.com, got "${value}"`);
  }
  // A path stays: behind a proxy that serves the app under a prefix, links carry it.
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** BOOKING_SECRET_KEY and BOOKING_SECRET_KEYS_OLD; production refuses to start without the first. */
function secretKeys(current: string | undefined, old: string | undefined, environment: ServerConfig["environment"]): ServerConfig["secretKeys"] {
  if (!current && environment === "production") {
    throw new Error(
      "BOOKING_SECRET_KEY must be set in production: calendar passwords and webhook signing secrets are encrypted with it. Make one with: openssl rand -base64 32 (and keep a copy apart from the database's backups)",
    );
  }
  const oldKeys = (old ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "")
    .map((k, i) => parseSecretKey(k, `BOOKING_SECRET_KEYS_OLD (key ${i + 1})`));
  return { current: current ? parseSecretKey(current, "BOOKING_SECRET_KEY") : null, old: oldKeys };
}

/** Reads the configuration from environment variables, failing loudly on malformed numbers. */
export function configFromEnv(env: Record<string, string | undefined>): ServerConfig {
  const int = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, got "${raw}"`);
    return Number(raw);
  };
  const alias = env.BOOKING_ALIAS_PREFIX ?? DEFAULT_CONFIG.aliasPrefix;
  if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(alias)) throw new Error(`BOOKING_ALIAS_PREFIX must look like /booking-api, got "${alias}"`);
  // API calls under a page's path would be served beside the pages and counted in their budget.
  const page = PAGE_ROOTS.find((root) => isAtOrUnder(alias, root));
  if (page) throw new Error(`BOOKING_ALIAS_PREFIX must not be ${page} or lie under it (the server's own pages are there), got "${alias}"`);
  const environment = env.BOOKING_ENV === "production" || env.NODE_ENV === "production" ? "production" : "development";
  return {
    port: int("PORT", DEFAULT_CONFIG.port),
    databasePath: env.BOOKING_DB || DEFAULT_CONFIG.databasePath,
    databaseUrl: databaseUrl(env.DATABASE_URL),
    databaseSchema: env.DATABASE_SCHEMA || null,
    adminKey: env.BOOKING_ADMIN_KEY || null,
    consoleSignInLinks: false,
    consoleIdleSeconds: Math.max(1, int("BOOKING_CONSOLE_IDLE_SECONDS", DEFAULT_CONFIG.consoleIdleSeconds)),
    aliasPrefix: alias,
    publicUrl: publicUrl(env.BOOKING_PUBLIC_URL, environment),
    rateLimit: { limit: int("RATE_LIMIT_PER_MINUTE", DEFAULT_CONFIG.rateLimit.limit), windowSeconds: 60 },
    maxBodyBytes: DEFAULT_CONFIG.maxBodyBytes,
    trustProxy: env.BOOKING_TRUST_PROXY === "1" || env.BOOKING_TRUST_PROXY === "true",
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY || null,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY || null,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET || null,
      apiBase: env.STRIPE_API_BASE || null,
    },
    meetBaseUrl: env.BOOKING_MEET_BASE_URL || DEFAULT_CONFIG.meetBaseUrl,
    devCalendarUrl: environment === "production" ? null : env.BOOKING_DEV_CALENDAR_URL || null,
    environment,
    // Private receivers are for local development and tests; production refuses them unless told.
    webhooks: { allowPrivateAddresses: env.BOOKING_WEBHOOK_ALLOW_PRIVATE ? env.BOOKING_WEBHOOK_ALLOW_PRIVATE === "1" : environment !== "production" },
    calendars: {
      freshnessMinutes: Math.max(1, int("BOOKING_CALENDAR_FRESHNESS_MINUTES", DEFAULT_CONFIG.calendars.freshnessMinutes)),
      allowPrivateAddresses: env.BOOKING_CALENDAR_ALLOW_PRIVATE ? env.BOOKING_CALENDAR_ALLOW_PRIVATE === "1" : environment !== "production",
    },
    mail: { smtpUrl: smtpUrl(env.SMTP_URL), from: mailFrom(env.MAIL_FROM, publicUrl(env.BOOKING_PUBLIC_URL, environment)) },
    secretKeys: secretKeys(env.BOOKING_SECRET_KEY, env.BOOKING_SECRET_KEYS_OLD, environment),
  };
}
