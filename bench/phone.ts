/**
 * How the booking page feels on a phone: starts the demo server (`src/main.ts` on a fresh SQLite file,
 * seeded with the demo event types), then runs Lighthouse's mobile profile (Moto G power class
 * screen, simulated slow 4G and a CPU 4× slower than this machine's) on `/book/intro-call` in headless
 * Chromium, and reports the performance score, total blocking time, time to interactive and the
 * longest main-thread tasks with the script they ran. Goal: total blocking time ≤ 200 ms and
 * interactive ≤ 1.5 s. Each run is reported, then the median of the runs.
 *
 * Run: `npm run bench:phone` (BENCH_RUNS=5 by default; CHROME_PATH defaults to /usr/bin/chromium).
 * Exits non-zero when the median misses the goal and BENCH_STRICT=1.
 *
 * `BENCH_COMPARE=<another checkout>` also measures that checkout's demo (its element built there
 * beforehand, its server run from there), the two alternating run by run, so a before and after are
 * taken in one run on the same load: on a shared machine the simulated figures scale with whatever
 * else runs, and only the pair is comparable.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GOAL = { tbt: 200, interactive: 1500 };
const repo = new URL("..", import.meta.url).pathname;
process.env.CHROME_PATH ??= "/usr/bin/chromium";

/** The demo server on a port of its own; resolves with its origin once it listens. */
async function startDemo(checkout = repo): Promise<{ origin: string; stop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), "booking-phone-"));
  const child = spawn("bun", ["packages/server/src/main.ts"], {
    cwd: checkout,
    env: { ...process.env, PORT: "0", BOOKING_DB: join(dir, "demo.sqlite"), NODE_ENV: "development", BOOKING_ENV: "development" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stop = () => {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", () => child.kill());
  const origin = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the demo server did not start:\n${out}`)), 60_000);
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("exit", (code) => reject(new Error(`the demo server exited (${code}):\n${out}`)));
  });
  return { origin, stop };
}

interface RunFigures {
  score: number;
  tbt: number;
  interactive: number;
  fcp: number;
  bytes: number;
  longTasks: string[];
}

async function measure(url: string): Promise<RunFigures> {
  const chrome = await chromeLauncher.launch({ chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  try {
    // The default config is the mobile profile: simulated throttling with cpuSlowdownMultiplier 4.
    const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
    const lhr = result!.lhr;
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const tasks = (lhr.audits["long-tasks"]?.details as { items?: { url: string; duration: number; startTime: number }[] } | undefined)?.items ?? [];
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      tbt: audit("total-blocking-time"),
      interactive: audit("interactive"),
      fcp: audit("first-contentful-paint"),
      bytes: audit("total-byte-weight"),
      longTasks: tasks.slice(0, 4).map((t) => `${Math.round(t.duration)} ms at ${Math.round(t.startTime)} ms (${t.url.replace(/^https?:\/\/[^/]+/, "")})`),
    };
  } finally {
    chrome.kill();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// The page loads the built script-tag file.
await new Promise<void>((resolve, reject) => {
  const build = spawn("npm", ["run", "build", "-w", "@booking/calendar"], { cwd: repo, stdio: "ignore" });
  build.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the build failed (${code})`))));
});
const compare = process.env.BENCH_COMPARE;
// Ctrl-C: the demo servers go too (the finally below does not run on a signal).
process.on("SIGINT", () => process.exit(130));
process.on("SIGTERM", () => process.exit(143));
const demos = [{ name: "this checkout", demo: await startDemo() }, ...(compare ? [{ name: compare, demo: await startDemo(compare) }] : [])];
try {
  const runs = new Map<string, RunFigures[]>(demos.map((d) => [d.name, []]));
  console.log(
    `Lighthouse mobile profile (simulated 4× CPU slowdown, slow 4G) on /book/intro-call of ${demos.map((d) => `${d.name} (${d.demo.origin})`).join(" and ")}, ${RUNS} runs each`,
  );
  for (let i = 0; i < RUNS; i++) {
    for (const { name, demo } of demos) {
      const run = await measure(`${demo.origin}/book/intro-call`);
      runs.get(name)!.push(run);
      console.log(
        `  ${name}, run ${i + 1}: performance ${run.score}, total blocking time ${Math.round(run.tbt)} ms, interactive ${(run.interactive / 1000).toFixed(2)} s, ` +
          `first contentful paint ${(run.fcp / 1000).toFixed(2)} s, ${(run.bytes / 1024).toFixed(0)} KiB` +
          (run.longTasks.length ? `\n    long tasks: ${run.longTasks.join("; ")}` : ""),
      );
    }
  }
  for (const { name } of demos) {
    const all = runs.get(name)!;
    const tbt = median(all.map((r) => r.tbt));
    const interactive = median(all.map((r) => r.interactive));
    console.log(
      `${name}, median: performance ${median(all.map((r) => r.score))}, total blocking time ${Math.round(tbt)} ms (goal ≤ ${GOAL.tbt}), ` +
        `interactive ${(interactive / 1000).toFixed(2)} s (goal ≤ ${GOAL.interactive / 1000} s), first contentful paint ${(median(all.map((r) => r.fcp)) / 1000).toFixed(2)} s`,
    );
    if (name === demos[0]!.name && process.env.BENCH_STRICT === "1" && (tbt > GOAL.tbt || interactive > GOAL.interactive)) process.exitCode = 1;
  }
} finally {
  for (const { demo } of demos) demo.stop();
}
