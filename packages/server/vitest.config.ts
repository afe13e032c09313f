import pg from "pg";
import { defineConfig } from "vitest/config";

const POSTGRES_URL = process.env.BOOKING_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Null when PostgreSQL answers, else why not. */
async function postgresProblem(): Promise<string | null> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

// Tests of SQLite itself (its file locks, several processes on one file) and of pure code run once;
// everything that goes through the Store runs on both engines, one suite, not two copies.
const SQLITE_ONLY = [
  "test/slots.test.ts",
  "test/mail-dark.test.ts",
  "test/smtp-transport.test.ts",
  "test/limit-texts.test.ts",
  "test/sqlite-store.test.ts",
  "test/concurrency.test.ts",
  "test/main.test.ts",
  "test/admin-cli.test.ts",
  "test/mcp-stdio.test.ts",
  "test/postgres-*.test.ts",
  "test/pg-*.test.ts",
];

/**
 * Server tests run under Bun (`bun --bun vitest`) so they can open real `bun:sqlite` databases, in
 * two projects: `sqlite`, and `postgres` (BOOKING_TEST_ENGINE=postgres) on the PostgreSQL at
 * BOOKING_TEST_DATABASE_URL. Without a reachable PostgreSQL the second project is skipped with the
 * reason, except under CI (CI=true), where that is a failure.
 */
export default defineConfig(async () => {
  const problem = await postgresProblem();
  if (problem && process.env.CI === "true") throw new Error(`PostgreSQL at ${POSTGRES_URL.replace(/\/\/[^@]*@/, "//")} is required under CI: ${problem}`);
  if (problem) console.warn(`\nSkipping the PostgreSQL project: ${POSTGRES_URL.replace(/\/\/[^@]*@/, "//")} is unreachable (${problem}).\n`);
  const common = {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Bun runs worker threads; the forks pool needs Node's child-process channel.
    pool: "threads" as const,
    // Bun says every ES module namespace has `__esModule`, so Vitest's CommonJS interop would swap a
    // package's namespace for its default export and lose named exports (zod's `z`). Bun already
    // gives CommonJS packages their named exports, so the interop is not needed.
    deps: { interopDefault: false },
    setupFiles: ["test/setup-stores.ts"],
    // Every answer of \`app.handle\` is checked against the response its route declares (src/http/answer-check.ts).
    env: { BOOKING_CHECK_ANSWERS: "1" },
  };
  return {
    test: {
      projects: [
        { test: { ...common, name: "sqlite", include: ["test/**/*.test.ts"] } },
        ...(problem
          ? []
          : [
              {
                test: {
                  ...common,
                  name: "postgres",
                  include: ["test/**/*.test.ts"],
                  exclude: SQLITE_ONLY,
                  env: { ...common.env, BOOKING_TEST_ENGINE: "postgres", BOOKING_TEST_DATABASE_URL: POSTGRES_URL },
                },
              },
            ]),
      ],
    },
  };
});
