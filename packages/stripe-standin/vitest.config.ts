import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    // Bun runs worker threads; the forks pool needs Node's child-process channel.
    pool: "threads",
  },
});
