import { defineConfig } from "vitest/config";

/** The console's unit tests (`npm test -w @booking/console`): plain modules under Node; the pages are tested end to end (e2e/). */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
  },
});
