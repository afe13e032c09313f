/**
 * Shared parts of the load benchmarks: a fresh database of either engine, the server started as its own process
 * (`src/main.ts`, the `npm start` code path), and wrk driving it over loopback.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import pg from "pg";
import { openPostgresStore } from "../packages/server/src/store/postgres/index.ts";
import { openSqliteStore } from "../packages/server/src/store/sqlite/index.ts";
import { SecretBox } from "../packages/server/src/lib/secrets.ts";
import type { Store } from "../packages/server/src/store/store.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const seconds = Number(process.env.BENCH_SECONDS ?? 10);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** One wrk run's figures. */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** What the Lua script counted, if it counted anything (e.g. successful bookings). */
  counted: Record<string, number>;
}

/** The engine measured: `BENCH_ENGINE=postgres` runs on the PostgreSQL at BENCH_DATABASE_URL. */
export const engine = process.env.BENCH_ENGINE === "postgres" ? "postgres" : "sqlite";
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** The key the seeding stores of this process encrypt secrets with; the servers started on their database get it too. */
const SECRET_KEY = SecretBox.forThisProcess().current.bytes.toString("base64");

/** A fresh database of the engine: a store to seed it, the server's environment for it, and its removal. */
export async function scratch(): Promise<{ open: () => Promise<Store>; env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (engine === "postgres") {
    const schema = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    return {
      open: () => openPostgresStore(POSTGRES_URL, { schema }),
      env: { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, BOOKING_SECRET_KEY: SECRET_KEY },
      cleanup: async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "booking-bench-"));
  const dbPath = join(dir, "bench.sqlite");
  return {
    open: async () => openSqliteStore(dbPath),
    env: { BOOKING_DB: dbPath, BOOKING_SECRET_KEY: SECRET_KEY },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** How many emails of the scratch database with `env` are still to be sent (pending, due now): what its mail worker has yet to do. */
export async function emailsPending(env: Record<string, string>): Promise<number> {
  const sql = "SELECT COUNT(*) AS n FROM webhook_events WHERE channel = 'email' AND status = 'pending'";
  if (env.DATABASE_SCHEMA) {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      return Number((await client.query(sql.replace("webhook_events", `"${env.DATABASE_SCHEMA}".webhook_events`))).rows[0].n);
    } finally {
      await client.end();
    }
  }
  const { Database } = await import("bun:sqlite");
  const db = new Database(env.BOOKING_DB!, { readonly: true });
  try {
    return db.query<{ n: number }, []>(sql).get()!.n;
  } finally {
    db.close();
  }
}

/**
 * Starts the server on the scratch database with the rate limit out of the way; resolves once it answers.
 * `extraEnv` adds settings (e.g. production mode); `quiet` drops the server's log (a line per email in development).
 */
export async function startServer(databaseEnv: Record<string, string>, port: number, extraEnv: Record<string, string> = {}, quiet = false) {
  // BENCH_PROFILE=dir writes a CPU profile of the server (markdown) into dir.
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof-md", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  // process.execPath is the Bun binary itself, so kill() reaches the server and not a wrapper script.
  const proc = Bun.spawn([process.execPath, ...profile, "src/main.ts"], {
    cwd: join(import.meta.dir, "../packages/server"),
    env: {
      ...process.env,
      ...databaseEnv,
      PORT: String(port),
      RATE_LIMIT_PER_MINUTE: "1000000000",
      BOOKING_ADMIN_KEY: "",
      STRIPE_SECRET_KEY: "",
      STRIPE_STANDIN: "0",
      ...extraEnv,
    },
    stdout: "ignore",
    stderr: quiet ? "ignore" : "inherit",
  });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) {
        return {
          stop: async () => {
            proc.kill();
            await proc.exited;
          },
        };
      }
    } catch {
      // not up yet
    }
    await Bun.sleep(100);
  }
  proc.kill();
  throw new Error("server did not start");
}

/**
 * Runs wrk (one thread) against a URL after a 2 s warm-up and reads requests/s and latency
 * percentiles from its report. A Lua script may shape requests and print `counted <name> <n>` lines.
 */
export async function load(
  url: string,
  headers: Record<string, string>,
  options: { lua?: string; warmUp?: boolean; seconds?: number } = {},
): Promise<LoadResult> {
  let scriptPath: string | null = null;
  if (options.lua) {
    // A name of its own: loads started in the same millisecond (two instances at once) once shared
    // a file, so both wrk processes ran the last script written and booked the same slots.
    scriptPath = join(tmpdir(), `bench-${process.pid}-${crypto.randomUUID()}.lua`);
    writeFileSync(scriptPath, options.lua);
  }
  const run = async (duration: number): Promise<LoadResult> => {
    const args = [
      "wrk",
      "-t1",
      `-c${connections}`,
      `-d${duration}s`,
      "--latency",
      ...(scriptPath ? ["-s", scriptPath] : []),
      ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
      url,
    ];
    const proc = Bun.spawn(args, { stdout: "pipe", stderr: "inherit" });
    const out = await new Response(proc.stdout).text();
    if (process.env.BENCH_DEBUG) console.log(out);
    if ((await proc.exited) !== 0) throw new Error(`wrk failed:\n${out}`);
    if (/Non-2xx or 3xx responses/.test(out) || /Socket errors/.test(out)) throw new Error(`${url}: errors under load\n${out}`);
    const ms = (label: string) => {
      const m = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)`, "m").exec(out);
      if (!m) throw new Error(`no ${label}% latency in wrk output:\n${out}`);
      return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
    };
    const counted = Object.fromEntries([...out.matchAll(/^counted (\S+) (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
    return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)![1]), p50: ms("50"), p99: ms("99"), counted };
  };
  if (options.warmUp !== false) await run(2);
  return run(options.seconds ?? seconds);
}

/**
 * The wrk Lua script of the booking benchmarks: each request books the next slot of `slotSeconds`
 * from `first` (Unix seconds) as a new visitor, and the answers are printed as `counted` lines for
 * `load`: `ok` (a confirmed booking), `other` (anything else) and `locked` (`slot_locked`). With
 * `tokens`, requests carry them in turn and set their own headers; without, they carry wrk's headers.
 */
export function bookingScript(first: number, slotSeconds: number, tokens?: string[]): string {
  return `
-- Counters are globals of each thread's Lua state; done() runs elsewhere and reads them per thread.
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) n = 0; ok = 0; other = 0; locked = 0 end
local first = ${first}
${tokens ? `local tokens = { ${tokens.map((t) => `"${t}"`).join(", ")} }\n` : ""}request = function()
  local start = first + n * ${slotSeconds}
${tokens ? "  local token = tokens[(n % #tokens) + 1]\n" : ""}  n = n + 1
  local body = string.format('{"start":"%s","end":"%s","email":"visitor%d@example.com","firstname":"Load","lastname":"Test"}',
    os.date("!%Y-%m-%dT%H:%M:00Z", start), os.date("!%Y-%m-%dT%H:%M:00Z", start + ${slotSeconds}), n)
  return wrk.format("POST", "/reservations", ${tokens ? '{ ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }' : "nil"}, body)
end
response = function(status, headers, body)
  if string.find(body, '"success":true', 1, true) then ok = ok + 1 else other = other + 1 end
  if string.find(body, '"slot_locked"', 1, true) then locked = locked + 1 end
end
done = function(summary, latency, requests)
  local o, x, l = 0, 0, 0
  for _, t in ipairs(threads) do o = o + t:get("ok"); x = x + t:get("other"); l = l + t:get("locked") end
  io.write(string.format("counted ok %d\\ncounted other %d\\ncounted locked %d\\n", o, x, l))
end
`;
}

/** One line of a result table. */
export function line(name: string, r: LoadResult, bare: LoadResult, rate = r.rps): string {
  return `  ${name.padEnd(38)} ${rate.toFixed(0).padStart(7)} /s   ratio ${(rate / bare.rps).toFixed(2)}   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`;
}

/**
 * An SMTP server on loopback that accepts every message, reads it and keeps nothing (`onMessage` is
 * told of each): where the benches' emails go.
 */
export async function smtpSink(onMessage: () => void = () => undefined): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    closeTimeout: 100,
    onData(stream, _session, callback) {
      stream.on("data", () => undefined);
      stream.on("end", () => {
        onMessage();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}?tls=ignore`, port, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
