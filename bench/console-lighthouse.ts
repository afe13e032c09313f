/**
 * First load of the organizer console measured by Lighthouse on its default mobile profile
 * (a mid-range phone, simulated slow 4G and 4x CPU slowdown) in Debian's Chromium
 * (`CHROMIUM_PATH` overrides): the sign-in page as a newcomer first opens it, and the bookings
 * page of a signed-in session (its cookie sent with the load). Starts the server as `npm start`
 * does, on a fresh SQLite file and a free port. Run: `bun bench/console-lighthouse.ts`
 * (`npm run bench:console-lighthouse`), after `npm run build`.
 */
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const repo = new URL("..", import.meta.url).pathname;
const ADMIN_KEY = "lighthouse-bench-admin-key";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "console-lighthouse-"));
const port = await freePort();
const server = spawn(process.execPath, [join(repo, "packages/server/src/main.ts")], {
  cwd: repo,
  stdio: "ignore",
  env: { ...process.env, PORT: String(port), BOOKING_DB: join(dir, "db.sqlite"), BOOKING_ADMIN_KEY: ADMIN_KEY, STRIPE_STANDIN: "0" },
});
const base = `http://127.0.0.1:${port}`;
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--disable-gpu", ...(process.getuid?.() === 0 ? ["--no-sandbox"] : [])],
});
try {
  for (
    let waited = 0;
    !(await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    ));
    waited += 100
  ) {
    if (waited > 30_000) throw new Error("the server did not start");
    await Bun.sleep(100);
  }
  const signIn = await fetch(`${base}/console/session`, {
    method: "POST",
    headers: { origin: base, "content-type": "application/json" },
    body: JSON.stringify({ adminKey: ADMIN_KEY }),
  });
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
  const runs: [string, Record<string, string>][] = [
    ["sign-in page (first visit)", {}],
    ["bookings page (signed in)", { Cookie: cookie }],
  ];
  for (const [name, headers] of runs) {
    const result = await lighthouse(`${base}/console`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      extraHeaders: headers,
    });
    const lhr = result!.lhr;
    const ms = (id: string) => Math.round(lhr.audits[id]!.numericValue ?? 0);
    const bytes = lhr.audits["total-byte-weight"]!.numericValue ?? 0;
    console.log(
      `${name}: performance ${Math.round((lhr.categories.performance!.score ?? 0) * 100)}, accessibility ${Math.round((lhr.categories.accessibility!.score ?? 0) * 100)}; ` +
        `FCP ${ms("first-contentful-paint")} ms, LCP ${ms("largest-contentful-paint")} ms, TBT ${ms("total-blocking-time")} ms, CLS ${lhr.audits["cumulative-layout-shift"]!.numericValue?.toFixed(3)}, ` +
        `transferred ${(bytes / 1024).toFixed(1)} KB (mobile profile, simulated throttling, Lighthouse ${lhr.lighthouseVersion})`,
    );
  }
} finally {
  await chrome.kill();
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}
