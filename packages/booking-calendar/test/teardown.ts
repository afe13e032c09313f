import { rmSync } from "node:fs";

/**
 * Global teardown of the browser test runs: removes the run's SQLite file and its journal files.
 * Playwright stops the servers after this; where an open file cannot be removed (Windows), it stays.
 */
export default function teardown(): void {
  const file = process.env.BROWSER_TEST_DB;
  if (!file) return;
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      rmSync(`${file}${suffix}`, { force: true });
    } catch {
      // Still open by the server.
    }
  }
}
