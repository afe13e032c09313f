import { defineConfig } from "vitest/config";

/** Checks of the whole tree that belong to no package: its imports (the rules of `.dependency-cruiser.cjs`) and its docs (`npm run test:imports`; `npm run test:docs` the docs alone). */
export default defineConfig({
  test: {
    include: ["*.test.ts"],
  },
});
