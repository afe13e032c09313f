import { afterEach } from "vitest";
import { releaseTestStores } from "./utils.ts";

// Every test leaves its databases behind: closed, and on PostgreSQL their schemas dropped.
afterEach(async () => {
  await releaseTestStores();
});
