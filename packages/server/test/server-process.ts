import { fileURLToPath } from "node:url";
import { SecretBox } from "../src/lib/secrets.ts";
import { SIGN_IN_WINDOW_SECONDS } from "../src/modules/console/service.ts";

/** The server package folder, where `src/main.ts` runs from. */
export const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));

/**
 * The key this test process's stores encrypt secrets with (the default of `openSqliteStore` and
 * `openPostgresStore`), given to the servers it starts: they read what a test wrote to their database.
 */
export const PROCESS_SECRET_KEY = SecretBox.forThisProcess().current.bytes.toString("base64");

/** A running `src/main.ts` (the `npm start` code path) in its own process. */
export interface ServerProcess {
  base: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with everything printed once `pattern` is in it (the start lines after "listening" may arrive later). */
  waitForOutput(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
  /** True once the process has ended, whatever ended it. */
  exited(): boolean;
  /** Sends `signal` (SIGKILL: a crash, no shutdown code runs) and resolves once the process is gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the server as a separate process on a free port with the given environment (on top of
 * PATH, HOME and PROCESS_SECRET_KEY only, so the caller's settings do not leak in) and resolves once it listens.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const proc = Bun.spawn([process.execPath, "src/main.ts"], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0", BOOKING_SECRET_KEY: PROCESS_SECRET_KEY, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let printed = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) printed += new TextDecoder().decode(chunk);
  };
  void collect(proc.stdout);
  void collect(proc.stderr);
  const deadline = Date.now() + 15_000;
  let base: string | undefined;
  while (!(base = /listening on (http:\/\/\S+)/.exec(printed)?.[1])) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${printed}`);
    await Bun.sleep(25);
  }
  return {
    base,
    output: () => printed,
    waitForOutput: async (pattern, timeoutMs = 10_000) => {
      const until = Date.now() + timeoutMs;
      const seen = () => (typeof pattern === "string" ? printed.includes(pattern) : pattern.test(printed));
      while (!seen()) {
        if (Date.now() > until) throw new Error(`the server did not print ${String(pattern)}:\n${printed}`);
        await Bun.sleep(10);
      }
      return printed;
    },
    stop: async () => {
      proc.kill("SIGTERM");
      const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(8000).then(() => false)]);
      if (!exited) {
        proc.kill("SIGKILL");
        await proc.exited;
        throw new Error("the server did not stop within 8 s of SIGTERM");
      }
    },
    exited: () => proc.exitCode !== null || proc.signalCode !== null,
    kill: async (signal) => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await proc.exited;
    },
  };
}

/**
 * Sends `guesses` console sign-ins with wrong keys at once, spread over `servers` in turn, all from
 * one address (127.0.0.1), and answers their statuses. Started well inside a sign-in window: a burst
 * across a window's edge is rightly counted in two windows.
 */
export async function signInBurst(servers: readonly ServerProcess[], guesses: number): Promise<number[]> {
  const windowMs = SIGN_IN_WINDOW_SECONDS * 1000;
  const intoWindow = Date.now() % windowMs;
  if (intoWindow > windowMs - 5_000) await Bun.sleep(windowMs - intoWindow + 100);
  return Promise.all(
    Array.from({ length: guesses }, async (_, i) => {
      const base = servers[i % servers.length]!.base;
      const r = await fetch(`${base}/console/session`, {
        method: "POST",
        headers: { origin: base, "content-type": "application/json" },
        body: JSON.stringify({ adminKey: `guess-${i}` }),
      });
      await r.arrayBuffer();
      return r.status;
    }),
  );
}
