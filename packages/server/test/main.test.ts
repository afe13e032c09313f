import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readFences } from "../../../.ci/markdown.ts";
import { startServerProcess, type ServerProcess } from "./server-process.ts";

/** `npm start`'s code path as an operator meets it: a real process on a real port. */
const KEY = randomBytes(32).toString("base64");
const running: ServerProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), "booking-main-"));
  dirs.push(dir);
  const server = await startServerProcess({ BOOKING_DB: join(dir, "booking.sqlite"), ...env });
  running.push(server);
  return server;
}

describe("npm start", () => {
  it("seeds the demo on an empty database and prints tokens that work, with the Stripe stand-in for the paid one", async () => {
    const server = await start();
    // The demo's lines follow the "listening" line and may come in a later chunk.
    const out = await server.waitForOutput("Try: curl");
    expect(out).toContain("Demo event types created");
    expect(out).toMatch(/Stripe stand-in at http:\/\/127\.0\.0\.1:\d+ \(not Stripe/);
    const tokens = [...out.matchAll(/API token:\s+(bk_\S+)/g)].map((m) => m[1]!);
    expect(tokens).toHaveLength(4);
    const configs = await Promise.all(
      tokens.map((t) =>
        fetch(`${server.base}/configuration`, { headers: { authorization: `Bearer ${t}` } }).then(async (r) => [r.status, await r.json()] as const),
      ),
    );
    expect(configs.map(([status]) => status)).toEqual([200, 200, 403, 200]);
    // Two hosts, and a round-robin team event type of both beside Alex's own.
    expect(out).toContain("Demo hosts: Alex Demo and Sam Demo; their bookings of any event type block them in all the others.");
    expect(out).toMatch(/#4 Team intro \(round robin\)\n[\s\S]*?hosts:\s+Alex Demo, Sam Demo \(round robin: each booking goes to one free host\)/);
    expect((configs[0]![1] as any).data.configuration.title).toBe("Intro call");
    expect((configs[1]![1] as any).data.configuration.payment).toMatchObject({
      amount: 5000,
      currency: "eur",
      provider: "stripe",
      publishableKey: "pk_test_standin",
    });
    // Each demo event type has a booking page, printed with its address.
    const pages = [...out.matchAll(/booking page:\s+(http\S+)/g)].map((m) => m[1]!);
    expect(pages).toEqual([
      `${server.base}/book/intro-call`,
      `${server.base}/book/consulting`,
      `${server.base}/book/spring-workshop`,
      `${server.base}/book/team-intro`,
    ]);
    const page = await fetch(pages[0]!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<h1>Intro call</h1>");
  });

  it("prints the HTML that embeds the demo calendar with its public link token, never an API token", async () => {
    const server = await start({ STRIPE_STANDIN: "0" });
    const out = await server.waitForOutput("Try: curl");
    const linkTokens = [...out.matchAll(/link token:\s+(bcl_\S+)/g)].map((m) => m[1]!);
    expect(linkTokens).toHaveLength(4);
    const snippet = out.slice(out.indexOf('Embed "Intro call" on a site:'), out.indexOf("Try: curl"));
    expect(snippet).toContain(`<script src="${server.base}/embed/booking-calendar.js" defer></script>`);
    expect(snippet).toContain(`<booking-calendar token="${linkTokens[0]}" api-base="${server.base}"></booking-calendar>`);
    expect(snippet).not.toContain("bk_");
    expect(snippet).not.toContain("bko_");
    const config = await fetch(`${server.base}/configuration`, { headers: { authorization: `Bearer ${linkTokens[0]}` } });
    expect(config.status).toBe(200);
    expect(((await config.json()) as any).data.configuration.title).toBe("Intro call");
  });

  it("prints a one-time link to the organizer console in development without an admin key, which signs in once", async () => {
    const server = await start();
    const out = await server.waitForOutput("one-time sign-in link");
    const link = /\/console#link=(bcsl_[A-Za-z0-9_-]+)/.exec(out)?.[1];
    expect(link).toBeDefined();
    const signIn = () =>
      fetch(`${server.base}/console/session`, {
        method: "POST",
        headers: { origin: server.base, "content-type": "application/json" },
        body: JSON.stringify({ link }),
      });
    const first = await signIn();
    expect(first.status).toBe(200);
    const cookie = first.headers.get("set-cookie")!.split(";")[0]!;
    const list = await fetch(`${server.base}/admin/event-types`, { headers: { cookie } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as any).data.length).toBeGreaterThan(0);
    expect((await signIn()).status).toBe(401);
    // Without a key nothing but a console session opens the admin API.
    expect((await fetch(`${server.base}/admin/event-types`)).status).toBe(401);
  });

  it("starts bare in production: no demo, no stand-in", async () => {
    const server = await start({ BOOKING_ENV: "production", BOOKING_PUBLIC_URL: "https://book.example.com", BOOKING_SECRET_KEY: "0".repeat(64) });
    // The last start line: everything the demo or the stand-in would print comes before it.
    await server.waitForOutput("The admin API (/admin)");
    expect(server.output()).not.toContain("Demo event types");
    expect(server.output()).not.toContain("stand-in");
    expect((await fetch(`${server.base}/health`)).status).toBe(200);
  });

  it("starts as the production guide says: the admin API on with BOOKING_ADMIN_KEY, links on BOOKING_PUBLIC_URL", async () => {
    // Both keys as `openssl rand -base64 32` makes them.
    const secretKey = randomBytes(32).toString("base64");
    const server = await start({
      BOOKING_ENV: "production",
      BOOKING_PUBLIC_URL: "https://book.example.com",
      BOOKING_ADMIN_KEY: KEY,
      BOOKING_SECRET_KEY: secretKey,
    });
    const out = await server.waitForOutput("Assistant server (MCP");
    expect(out).toContain("(production;");
    const admin = (path: string, init: RequestInit = {}, key = KEY) =>
      fetch(`${server.base}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } });
    expect((await admin("/admin/event-types", {}, "wrong-key")).status).toBe(401);
    const created = await admin("/admin/event-types", {
      method: "POST",
      body: JSON.stringify({ title: "Strategy call", timezone: "Europe/Prague", slug: "strategy-call" }),
    });
    expect(created.status).toBe(200);
    const { data } = (await created.json()) as { data: { id: number } };
    const shown = (await (await admin(`/admin/event-types/${data.id}`)).json()) as { data: { feedUrl: string } };
    // Links are built from BOOKING_PUBLIC_URL, never from the address the request came to.
    expect(shown.data.feedUrl).toMatch(/^https:\/\/book\.example\.com\/feeds\/bcf_/);
  });

  it("answers the getting-started guide's curl commands: the free slots of a week, then a booking of one", async () => {
    const server = await start({ STRIPE_STANDIN: "0" });
    const out = await server.waitForOutput("Try: curl");
    const token = /Intro call\s+API token:\s+(bk_\S+)/.exec(out)![1]!;
    const guide = readFileSync(new URL("../../../docs/getting-started.md", import.meta.url), "utf8");
    const heading = guide.split("\n").indexOf("## Booking through the API by hand") + 1;
    expect(heading, 'the guide\'s heading "Booking through the API by hand"').toBeGreaterThan(0);
    const block =
      readFences(guide)
        .fences.find((fence) => fence.lang === "sh" && fence.line > heading)
        ?.lines.join("\n") ?? "";
    // The block as printed: the variables, the slot query, then (after its comment) the booking.
    const [variables, query, booking] = block.split(/^(?=curl )/m) as [string, string, string];
    expect(block.split(/^(?=curl )/m), 'the guide\'s block under "Booking through the API by hand": variables, then two curl commands').toHaveLength(3);
    const set = variables.replace('<API token of "Intro call">', token).replace("http://localhost:3000", server.base);
    const bash = (script: string) => {
      const run = Bun.spawnSync(["bash", "-c", script], { env: { PATH: process.env.PATH ?? "" } });
      expect(run.exitCode, run.stderr.toString()).toBe(0);
      return JSON.parse(run.stdout.toString()) as { data: any };
    };
    const slots = bash(set + query).data as { start: string; end: string }[];
    expect(slots.length).toBeGreaterThan(0);
    const booked = bash(set + booking.replace("<start>", slots[0]!.start).replace("<end>", slots[0]!.end)).data;
    // The answer names the host the booking is with (by id), not the visitor.
    expect(booked).toMatchObject({ uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), userId: expect.any(Number) });
    expect(booked.userEmail).not.toBe("ada@example.com");
    // The demo's Intro call has one seat: the booked slot is no longer offered.
    expect((bash(set + query).data as { start: string }[]).map((slot) => slot.start)).not.toContain(slots[0]!.start);
  });

  it("refuses a body far over the limit with the JSON 413 and every contract header, not a bare one", async () => {
    const server = await start({ STRIPE_STANDIN: "0" });
    const r = await fetch(`${server.base}/reservations`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer nope" },
      body: JSON.stringify({ email: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(r.status).toBe(413);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.headers.get("service-api-version")).toBe("1");
    expect(r.headers.get("ratelimit")).toMatch(/^limit=60, remaining=\d+, reset=\d+$/);
    expect(await r.json()).toMatchObject({ success: false, status: 413, code: "payload_too_large" });
  });

  it("fails fast with a clear message on a malformed setting", async () => {
    const proc = Bun.spawn([process.execPath, "src/main.ts"], {
      cwd: new URL("..", import.meta.url).pathname,
      env: { PATH: process.env.PATH ?? "", PORT: "not-a-port" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stderr).text()).toContain('PORT must be a whole number, got "not-a-port"');
  });
});
