import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * `npm run example:html|react|vue`: the booking API (as `npm start` runs it, on a fresh SQLite file
 * seeded with the demo) and the embedding site of the end-to-end tests (`e2e/site/server.ts`: the
 * plain HTML page, and the React and Vue apps as `vite build` left them) with one command. It prints
 * two addresses: the demo's free "Intro call" and its "Paid consultation", which is paid by card (to
 * the local Stripe stand-in `npm start` runs without a Stripe key), so the example shows the whole
 * element, payment step included. Each carries the API origin and the event type's link token (the one
 * pages carry), read from the server's first-start output. Ctrl-C stops both servers and removes the
 * database file.
 * Ports: `EXAMPLE_API_PORT` (default 3100) and `EXAMPLE_SITE_PORT` (default 3101), apart from `npm start`'s 3000.
 */
const example = process.argv[2] ?? "";
if (!["html", "react", "vue"].includes(example)) {
  console.error("usage: bun e2e/support/example.ts html|react|vue");
  process.exit(2);
}
const repo = resolve(import.meta.dirname, "../..");
const bun = process.execPath;
const apiPort = process.env.EXAMPLE_API_PORT ?? "3100";
const sitePort = process.env.EXAMPLE_SITE_PORT ?? "3101";
const api = `http://127.0.0.1:${apiPort}`;
const database = join(tmpdir(), `booking-example-${process.pid}.sqlite`);
const children: ChildProcess[] = [];

function stop(code: number): never {
  for (const child of children) child.kill("SIGTERM");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${database}${suffix}`, { force: true });
  process.exit(code);
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

function start(script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(bun, [script], { cwd: repo, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  // One server gone means the example no longer works: stop the other too.
  child.on("exit", (code) => {
    console.error(`${script} stopped (${code ?? "signal"})`);
    stop(code || 1);
  });
  children.push(child);
  return child;
}

/** Resolves with the first match of `pattern` in the child's output, which is passed through. */
function waitFor(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((done) => {
    let seen = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        done(match);
        seen = "";
      }
    });
  });
}

const server = start("packages/server/src/main.ts", { PORT: apiPort, BOOKING_DB: database });
// The seed prints each event type's tokens on the first start of an empty database; a page carries
// the publishable link token, never the API token.
const linkToken = (title: string) => `${title}\\s+API token:\\s+\\S+\\s+override token:\\s+\\S+\\s+link token:\\s+(bcl_\\S+)`;
const [, introToken, paidToken] = await waitFor(server, new RegExp(`${linkToken("Intro call")}[\\s\\S]*?${linkToken("Paid consultation")}`));
const site = start("e2e/site/server.ts", { E2E_SITE_PORT: sitePort, E2E_API_ORIGIN: api });
const [, siteUrl] = await waitFor(site, /customer site on (\S+)/);

/** The example's address for the event type of this link token. */
function addressOf(token: string): string {
  const query = new URLSearchParams(example === "html" ? { attrs: JSON.stringify({ token }) } : { api, token });
  return `${siteUrl!.replace(/\/$/, "")}/${example === "html" ? "" : `${example}/`}?${query}`;
}
console.log(`\nThe ${example === "html" ? "plain HTML" : example === "react" ? "React" : "Vue"} example books the demo's event types:

  Intro call (free): ${addressOf(introToken!)}
  Paid consultation (card payment): ${addressOf(paidToken!)}

Without STRIPE_SECRET_KEY card payments go to the local Stripe stand-in (no money moves): card
4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined. Ctrl-C stops the API and the site.`);
