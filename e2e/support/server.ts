import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ADMIN_KEY } from "./fixtures.ts";
import { freePorts } from "../../packages/booking-calendar/test/browser.ts";

const repo = resolve(import.meta.dirname, "../..");

/** A server of a spec file's own: started as `npm start` starts it, on a fresh SQLite file, with settings of its own. */
export interface OwnServer {
  origin: string;
  /** Its SQLite file. */
  database: string;
  /** Where its log goes (kept with the test artefacts, for a failure's server-side story). */
  log: string;
  stop(): void;
}

/** Starts `packages/server/src/main.ts` on a free port and a fresh SQLite file with the tests' admin key and `env` besides; ready when /health answers. */
export async function startOwnServer(name: string, env: Record<string, string> = {}): Promise<OwnServer> {
  const [port] = freePorts(1);
  const origin = `http://127.0.0.1:${port}`;
  const database = join(tmpdir(), `booking-e2e-${name}-${Date.now()}-${process.pid}.sqlite`);
  const logs = join(repo, "e2e/artifacts/servers");
  mkdirSync(logs, { recursive: true });
  const log = join(logs, `${name}-${Date.now()}-${process.pid}.log`);
  const output = openSync(log, "a");
  const child: ChildProcess = spawn(join(repo, "node_modules/.bin/bun"), ["packages/server/src/main.ts"], {
    cwd: repo,
    stdio: ["ignore", output, output],
    env: { ...process.env, PORT: port!, BOOKING_DB: database, BOOKING_ADMIN_KEY: ADMIN_KEY, RATE_LIMIT_PER_MINUTE: "100000", ...env },
  });
  const stop = () => {
    child.kill();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${database}${suffix}`, { force: true });
  };
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(`${origin}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { origin, database, log, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error(`the server "${name}" did not start`);
}
