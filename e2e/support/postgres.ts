import { randomBytes } from "node:crypto";
import { ADMIN_KEY, apiServer } from "../../packages/booking-calendar/test/browser.ts";

/** The PostgreSQL database the end-to-end run uses (trust auth on the development and CI machines). */
export const POSTGRES_URL = process.env.BOOKING_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * The booking API as `npm start` runs it, on PostgreSQL in `schema` (created on start, dropped by the
 * run's teardown), with a secret key of the run's own: without one, development keeps a key file
 * beside the SQLite path, which here would be the repository's root.
 */
export function postgresApiServer(port: string, schema: string) {
  const server = apiServer(port, ":memory:");
  process.env.E2E_PG_SECRET_KEY ??= randomBytes(32).toString("base64");
  return {
    ...server,
    env: {
      ...server.env,
      DATABASE_URL: POSTGRES_URL,
      DATABASE_SCHEMA: schema,
      BOOKING_ADMIN_KEY: ADMIN_KEY,
      BOOKING_SECRET_KEY: process.env.E2E_PG_SECRET_KEY,
    },
  };
}
