import { defineConfig } from "vitest/config";

/** Server tests run under Bun (`bun --bun vitest`) so they can open real `bun:sqlite` databases. */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    // Bun runs worker threads; the forks pool needs Node's child-process channel.
    pool: "threads",
  },
});
