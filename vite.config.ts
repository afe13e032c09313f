import { defineConfig } from "vitest/config";

/** Workspace-wide test set-up: each package under packages/ is a Vitest project of its own. */
export default defineConfig({
  test: {
    projects: ["packages/*"],
  },
});
