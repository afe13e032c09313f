import { defineConfig } from "vitest/config";

/** Checks of the whole tree that belong to no package: its imports (`npm run test:imports`). */
export default defineConfig({
  test: {
    include: ["*.test.ts"],
  },
});
