import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DateTime } from "luxon";
import { createApp } from "../src/app.ts";
import { configFromEnv } from "../src/config.ts";
import { isValidHost, publicOrigin } from "../src/lib/links.ts";
import { offsetInstant } from "../src/lib/time.ts";
import { connectOverHttp, failure, success } from "./mcp-utils.ts";
import { startServerProcess, SERVER_DIR, type ServerProcess } from "./server-process.ts";
import { ADMIN_KEY, ENGINE, openTestStore, setup } from "./utils.ts";

// The clock of setup() starts on Monday 2026-11-23T07:00:00Z, 08:00 in Prague.
const TUE_0900 = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
const THU_1000 = { start: "2026-11-26T10:00:00+01:00", end: "2026-11-26T10:30:00+01:00" };
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };
const weekdays = (ranges: { start: string; end: string }[]) => ({
  monday: ranges,
  tuesday: ranges,
  wednesday: ranges,
  thursday: ranges,
  friday: ranges,
  saturday: [],
  sunday: [],
});
const OPEN = { availability: { weekly: weekdays([{ start: "09:00", end: "17:00" }]) }, rescheduleNoticeMinutes: 0, cancelNoticeMinutes: 0 };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An answer read off the wire. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Sends `request` as written (no client fixes up its Host) and reads the whole answer; the server closes after it. */
function rawRequest(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const split = raw.indexOf("\r\n\r\n");
      const [statusLine, ...lines] = raw.slice(0, split).split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine?.split(" ")[1]), headers, text: raw.slice(split + 4) });
    });
    setTimeout(() => socket.destroy(new Error(`no complete answer to ${JSON.stringify(request.slice(0, 60))}`)), 10_000).unref();
  });
}

/** A request with the given Host header line (or none), closed after the answer. */
function withHost(method: string, path: string, host: string | null, extra: { token?: string; body?: string; version?: string } = {}): string {
  const lines = [`${method} ${path} HTTP/${extra.version ?? "1.1"}`];
  if (host !== null) lines.push(`Host: ${host}`);
  if (extra.token) lines.push(`Authorization: Bearer ${extra.token}`);
  if (extra.body !== undefined) lines.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(extra.body)}`);
  lines.push("Connection: close");
  return `${lines.join("\r\n")}\r\n\r\n${extra.body ?? ""}`;
}

/** Asserts the spec's JSON error body with `status` and `code`, and nothing of an HTML page. */
function expectJsonError(answer: RawAnswer, status: number, code: string): void {
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  expect(answer.text).not.toMatch(/<html|<!doctype/i);
  const body = JSON.parse(answer.text);
  expect({ status: answer.status, body }).toMatchObject({ status, body: { success: false, status, code } });
  expect(body.docs).toMatch(/^https?:\/\/[^/\s]+(\/[^\s]*)?\/docs#error-/);
}

/** A deeply nested array as JSON text: `depth` brackets open, then close. */
const nested = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);

describe("deeply nested JSON", () => {
  const DEPTH = 30_000;

  it("is refused with the JSON 400 within a second on every route that reads a body, without holding up other requests", async () => {
    const w = await setup({ config: NO_RATE_LIMIT });
    const created = await w.admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", slug: "intro-call", ...OPEN });
    const et = created.body.data as { id: number; token: string; linkToken: string };
    const booked = await w.call("POST", "/reservations", { token: et.token, body: { ...TUE_0900, email: "ada@example.com" } });
    const uuid = booked.body.data.uuid as string;
    const deep = nested(DEPTH);
    // A custom field's value is where a deep value could hide inside a valid-looking booking.
    const deepField = JSON.stringify({ ...THU_1000, email: "eve@example.com", customFields: [{ id: crypto.randomUUID(), value: 0 }] }).replace(
      '"value":0',
      `"value":${deep}`,
    );
    const attacks: { name: string; method: string; path: string; token: string; body: string; headers?: Record<string, string> }[] = [
      { name: "create, link token", method: "POST", path: "/reservations", token: et.linkToken, body: deep },
      { name: "prepare, link token", method: "POST", path: "/reservations/prepare", token: et.linkToken, body: deep },
      { name: "init, link token", method: "POST", path: "/event-types/init", token: et.linkToken, body: deep },
      { name: "reschedule, link token", method: "PUT", path: `/reservations/${uuid}`, token: et.linkToken, body: deep },
      { name: "reschedule, API token", method: "PUT", path: `/reservations/${uuid}`, token: et.token, body: deep },
      { name: "create through the alias", method: "POST", path: "/booking-api/reservations", token: et.linkToken, body: deep },
      { name: "admin PATCH", method: "PATCH", path: `/admin/event-types/${et.id}`, token: ADMIN_KEY, body: `{"settings":${deep}}` },
      {
        name: "Idempotency-Key, deep custom field",
        method: "POST",
        path: "/reservations",
        token: et.linkToken,
        body: deepField,
        headers: { "idempotency-key": "deep-1" },
      },
      {
        name: "refresh with Idempotency-Key",
        method: "POST",
        path: `/reservations/${uuid}/refresh`,
        token: et.token,
        body: deep,
        headers: { "idempotency-key": "deep-2" },
      },
    ];
    for (const attack of attacks) {
      const headers = { "content-type": "application/json", ...attack.headers };
      const started = performance.now();
      const timed = async <T>(p: Promise<T>) => {
        const value = await p;
        return { value, ms: performance.now() - started };
      };
      // An ordinary visitor's request sent at the same moment must not wait for the hostile one.
      const [hostile, ordinary] = await Promise.all([
        timed(w.call(attack.method, attack.path, { token: attack.token, rawBody: attack.body, headers })),
        timed(w.call("GET", "/configuration", { token: et.linkToken })),
      ]);
      expect({ attack: attack.name, status: hostile.value.status, body: hostile.value.body }).toMatchObject({
        attack: attack.name,
        status: 400,
        body: { success: false, status: 400, code: "bad_request", message: expect.stringContaining("deeper than 32 levels") },
      });
      expect(ordinary.value.status).toBe(200);
      // Generous bounds for a loaded machine: before the fix each took seconds and held up the other.
      expect(hostile.ms, attack.name).toBeLessThan(1500);
      expect(ordinary.ms, attack.name).toBeLessThan(1500);
    }
    // Nothing was booked, changed or remembered by any of them.
    const list = await w.call("GET", `/admin/event-types/${et.id}/reservations?from=2026-11-23&until=2026-11-30`, { token: ADMIN_KEY });
    expect(list.body.data).toEqual([expect.objectContaining({ uuid, status: "confirmed", startIso8601: "2026-11-24T08:00:00Z" })]);
    const retry = await w.call("POST", "/reservations", {
      token: et.linkToken,
      body: { ...THU_1000, email: "eve@example.com" },
      headers: { "idempotency-key": "deep-1" },
    });
    expect(retry.body).toMatchObject({ success: true });
  });

  it("still reads the nesting the API's own shapes need, and strings full of brackets", async () => {
    const w = await setup({ config: NO_RATE_LIMIT });
    const et = (await w.admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", ...OPEN })).body.data as { token: string };
    const brackets = "[{".repeat(200);
    const booked = await w.call("POST", "/reservations", {
      token: et.token,
      body: { ...TUE_0900, email: "ada@example.com", firstname: brackets.slice(0, 400), lastname: '\\"[[[' },
    });
    expect(booked.body).toMatchObject({ success: true });
    // 32 levels pass the reader and meet the schema: a 422 on the field, not a 400.
    const deepest = JSON.stringify({ ...THU_1000, email: "eve@example.com", guests: 0 }).replace('"guests":0', `"guests":${nested(31)}`);
    const refused = await w.call("POST", "/reservations", { token: et.token, rawBody: deepest, headers: { "content-type": "application/json" } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: "validation_failed", errors: { "guests.0": [expect.any(String)] } });
    // A message quotes what was found, but never the whole of a large value.
    const large = await w.call("POST", "/reservations", { token: et.token, body: { ...THU_1000, email: ["x".repeat(20_000)] } });
    expect(large.body).toMatchObject({ code: "validation_failed", errors: { email: [expect.any(String)] } });
    expect(large.body.errors.email[0].length).toBeLessThanOrEqual(200);
  });
});

describe("bad Host headers on a listening server", () => {
  /** The app of setup() listening on a free loopback port. */
  async function listening(config: Record<string, unknown> = {}) {
    const w = await setup({ config: { ...NO_RATE_LIMIT, ...config } });
    w.app.listen({ port: 0, hostname: "127.0.0.1" });
    cleanups.push(() => w.app.stop(true));
    return { ...w, port: w.app.server!.port! };
  }

  const BAD_HOSTS = ["x:99999", "a b", "x:0", "evil.example@good.example", "exa mple.com:80"];

  it("answers each with the spec's JSON, never Bun's HTML page", async () => {
    const w = await listening();
    const et = (await w.admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", slug: "intro-call", ...OPEN })).body.data as {
      token: string;
    };
    for (const host of BAD_HOSTS) {
      for (const [method, path] of [
        ["GET", "/nope"],
        ["GET", "/configuration"],
        ["GET", "/health"],
        ["GET", "/book/intro-call"],
        ["GET", "/"],
        ["POST", "/reservations"],
      ] as const) {
        const answer = await rawRequest(w.port, withHost(method, path, host, { token: et.token, body: method === "POST" ? "{}" : undefined }));
        expect({ host, path, ...answer.headers }).toMatchObject({ host, path, "apigw-requestid": expect.any(String), "service-api-version": "1" });
        expectJsonError(answer, 400, "bad_request");
      }
    }
  });

  it("routes by the whole path whatever the length of the Host, so a short Host never turns /zz/admin into /admin", async () => {
    const w = await listening();
    const et = (await w.admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", slug: "intro-call", ...OPEN })).body.data as {
      id: number;
      token: string;
    };
    for (const host of ["z", "ab", "abc", "a:1", "z:80"]) {
      const shifted = await rawRequest(w.port, withHost("GET", "/zz/admin/event-types", host, { token: ADMIN_KEY }));
      expectJsonError(shifted, 404, "not_found");
      expect(JSON.parse(shifted.text).message, host).toContain("/zz/admin/event-types");
      const admin = await rawRequest(w.port, withHost("GET", "/admin/event-types", host, { token: ADMIN_KEY }));
      expect({ host, status: admin.status }).toEqual({ host, status: 200 });
      expect(JSON.parse(admin.text).data).toEqual([expect.objectContaining({ id: et.id })]);
      // The admin API sends no CORS headers, however it is reached.
      expect(admin.headers["access-control-allow-origin"], host).toBeUndefined();
      const parameterized = await rawRequest(w.port, withHost("GET", `/zz/admin/event-types/${et.id}`, host, { token: ADMIN_KEY }));
      expectJsonError(parameterized, 404, "not_found");
      const config = await rawRequest(w.port, withHost("GET", "/configuration", host, { token: et.token }));
      // Its links are built on the whole path too: the page's address on the origin the request came to.
      expect({ host, status: config.status, bookingUrl: JSON.parse(config.text).data?.configuration?.bookingUrl }).toEqual({
        host,
        status: 200,
        bookingUrl: `${new URL(`http://${host}`).origin}/book/intro-call`,
      });
      expectJsonError(await rawRequest(w.port, withHost("GET", "/c/configuration", host, { token: et.token })), 404, "not_found");
    }
  });

  it("serves a request without Host (HTTP/1.0) with links to the configured origin, and its errors as JSON", async () => {
    const w = await listening();
    const et = (await w.admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", slug: "intro-call", ...OPEN })).body.data as {
      token: string;
    };
    expectJsonError(await rawRequest(w.port, withHost("GET", "/nope", null, { version: "1.0" })), 404, "not_found");
    expectJsonError(await rawRequest(w.port, withHost("GET", "/configuration", null, { version: "1.0" })), 401, "unauthenticated");
    const config = await rawRequest(w.port, withHost("GET", "/configuration", null, { version: "1.0", token: et.token }));
    expect(config.status).toBe(200);
    expect(JSON.parse(config.text).data.configuration.bookingUrl).toBe(`http://localhost:3000/book/intro-call`);
    const page = await rawRequest(w.port, withHost("GET", "/book/intro-call?reservation=00000000-0000-4000-8000-000000000000", null, { version: "1.0" }));
    expect(page.status).toBe(200);
    expect(page.text).toContain('reservation-uuid="00000000-0000-4000-8000-000000000000"');
    const idempotent = await rawRequest(
      w.port,
      withHost("POST", "/reservations", null, { version: "1.0", token: et.token, body: JSON.stringify({ ...TUE_0900, email: "ada@example.com" }) }).replace(
        "Connection: close",
        "Idempotency-Key: h10",
      ),
    );
    expect(JSON.parse(idempotent.text)).toMatchObject({
      success: true,
      data: { manageUrl: expect.stringMatching(/^http:\/\/localhost:3000\/book\/intro-call\?reservation=/) },
    });
  });

  it("keeps a forged Host out of booking and manage links and webhooks when BOOKING_PUBLIC_URL is set", async () => {
    const w = await listening({ publicUrl: "https://book.example.com" });
    const et = (
      await w.admin("POST", "/admin/event-types", {
        title: "Intro call",
        timezone: "Europe/Prague",
        slug: "intro-call",
        webhookUrl: "http://127.0.0.1:9/hooks",
        ...OPEN,
      })
    ).body.data as { id: number; token: string; linkToken: string };
    const forged = "evil.example";
    const config = await rawRequest(w.port, withHost("GET", "/configuration", forged, { token: et.linkToken }));
    expect(JSON.parse(config.text).data.configuration.bookingUrl).toBe("https://book.example.com/book/intro-call");
    const booked = JSON.parse(
      (
        await rawRequest(
          w.port,
          withHost("POST", "/reservations", forged, { token: et.linkToken, body: JSON.stringify({ ...TUE_0900, email: "ada@example.com" }) }),
        )
      ).text,
    );
    const manage = `https://book.example.com/book/intro-call?reservation=${booked.data.uuid}`;
    expect(booked.data.manageUrl).toBe(manage);
    const moved = JSON.parse(
      (await rawRequest(w.port, withHost("PUT", `/reservations/${booked.data.uuid}`, forged, { token: et.linkToken, body: JSON.stringify(THU_1000) }))).text,
    );
    expect(moved.data.manageUrl).toBe(manage);
    const page = await rawRequest(w.port, withHost("GET", "/book/intro-call", forged));
    expect(page.text).toContain('api-base="https://book.example.com"');
    expect(page.text).not.toContain(forged);
    expectJsonError(await rawRequest(w.port, withHost("GET", "/nope", forged)), 404, "not_found");
    expect(JSON.parse((await rawRequest(w.port, withHost("GET", "/nope", forged))).text).docs).toBe("https://book.example.com/docs#error-not_found");
    const payloads = (await w.store.webhooks.recent(et.id, 10)).map((d) => d.payload);
    expect(payloads.length).toBeGreaterThanOrEqual(2);
    for (const payload of payloads) {
      expect(payload).not.toContain(forged);
      expect(JSON.parse(payload).data.manageUrl).toBe(manage);
    }
  });
});

describe("an error while answering an error", () => {
  it("still gets the spec's JSON 500 from a listening server, never Bun's HTML page", async () => {
    const store = await openTestStore();
    // A log that fails, as a full disk would make it: the error handler's own logging throws.
    const app = createApp({
      store,
      config: { adminKey: ADMIN_KEY },
      log: () => {
        throw new Error("the log is gone");
      },
    });
    app.listen({ port: 0, hostname: "127.0.0.1" });
    cleanups.push(() => app.stop(true));
    await store.close();
    const answer = await rawRequest(app.server!.port!, withHost("GET", "/configuration", "localhost", { token: "bk_anything" }));
    expectJsonError(answer, 500, "internal_error");
  });
});

describe("the origin of links", () => {
  it("takes a request's origin only from a well-formed host, else the local server", () => {
    for (const host of ["localhost", "localhost:3000", "book.example.com", "127.0.0.1:8080", "[::1]:3000", "my_service:80", "example.com."])
      expect({ host, ok: isValidHost(host) }).toEqual({ host, ok: true });
    for (const host of ["", "a b", "x:99999", "x:0", "x:", "evil@host", "host/path", "[::1", "-x-.com", "a..b"])
      expect({ host, ok: isValidHost(host) }).toEqual({ host, ok: false });
    const config = { publicUrl: null, port: 3000 };
    expect(publicOrigin(config, "http://book.example.com:8080/x?y")).toBe("http://book.example.com:8080");
    for (const url of ["/nope", "http://x:99999/nope", "http://a b/nope", "garbage"]) expect(publicOrigin(config, url)).toBe("http://localhost:3000");
    expect(publicOrigin({ publicUrl: "https://book.example.com", port: 3000 }, "http://evil.example/")).toBe("https://book.example.com");
  });

  it("requires BOOKING_PUBLIC_URL in production, as an http(s) address, and says so at start", () => {
    for (const env of [{ BOOKING_ENV: "production" }, { NODE_ENV: "production" }]) {
      expect(() => configFromEnv(env)).toThrow("BOOKING_PUBLIC_URL must be set in production");
    }
    expect(configFromEnv({ BOOKING_ENV: "production", BOOKING_PUBLIC_URL: "https://book.example.com/", BOOKING_SECRET_KEY: "0".repeat(64) }).publicUrl).toBe(
      "https://book.example.com",
    );
    expect(configFromEnv({ BOOKING_PUBLIC_URL: "https://example.com/booking/" }).publicUrl).toBe("https://example.com/booking");
    for (const bad of [
      "book.example.com",
      "ftp://book.example.com",
      "https://user:pw@book.example.com",
      "https://book.example.com/?a=1",
      "javascript:alert(1)",
    ]) {
      expect(() => configFromEnv({ BOOKING_PUBLIC_URL: bad })).toThrow("BOOKING_PUBLIC_URL must be an http(s) address");
    }
    expect(configFromEnv({}).publicUrl).toBeNull();
  });
});

// Processes of `npm start` do not depend on the suite's engine: run once, on SQLite.
describe.skipIf(ENGINE === "postgres")("npm start in production", () => {
  async function start(env: Record<string, string>): Promise<ServerProcess> {
    const dir = mkdtempSync(join(tmpdir(), "booking-hostile-"));
    const server = await startServerProcess({ BOOKING_DB: join(dir, "booking.sqlite"), ...env });
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    cleanups.push(() => server.stop());
    return server;
  }

  it("refuses to start without BOOKING_PUBLIC_URL, saying why", async () => {
    const proc = Bun.spawn([process.execPath, "src/main.ts"], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH ?? "", PORT: "0", BOOKING_ENV: "production", BOOKING_DB: ":memory:" },
      stdout: "pipe",
      stderr: "pipe",
    });
    // Were it to start after all, it must not outlive the test.
    cleanups.push(() => proc.kill());
    expect(await proc.exited).toBe(1);
    expect(await new Response(proc.stderr).text()).toContain("BOOKING_PUBLIC_URL must be set in production");
  });

  it("runs Elysia in production mode with BOOKING_ENV alone, and answers bad Host headers and deep bodies with the spec's JSON", async () => {
    const server = await start({ BOOKING_ENV: "production", BOOKING_PUBLIC_URL: "https://book.example.com", BOOKING_SECRET_KEY: "0".repeat(64) });
    expect(server.output()).toMatch(/listening on \S+ \(production;/);
    const port = Number(new URL(server.base).port);
    for (const host of ["x:99999", "a b"]) expectJsonError(await rawRequest(port, withHost("GET", "/nope", host)), 400, "bad_request");
    const noHost = await rawRequest(port, withHost("GET", "/nope", null, { version: "1.0" }));
    expectJsonError(noHost, 404, "not_found");
    expect(JSON.parse(noHost.text).docs).toBe("https://book.example.com/docs#error-not_found");
    const deep = await rawRequest(port, withHost("POST", "/reservations", "localhost", { token: "bcl_nope", body: nested(30_000) }));
    expectJsonError(deep, 400, "bad_request");
  });
});

/** A Content-Security-Policy header as directive name to its sources. */
function policyOf(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy();
  return Object.fromEntries(
    header!
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe("the server's HTML pages", () => {
  it("send a Content-Security-Policy that allows scripts from the server and Stripe.js only, and no framing", async () => {
    const w = await setup({
      config: {
        ...NO_RATE_LIMIT,
        publicUrl: "https://book.example.com",
        stripe: { secretKey: "sk_test_x", publishableKey: "pk_test_x", webhookSecret: null, apiBase: "http://127.0.0.1:12111" },
      },
    });
    await w.eventType({ title: "Intro call", slug: "intro-call" });
    for (const path of ["/book/intro-call", `/book/intro-call?reservation=${crypto.randomUUID()}`, "/book/unknown", "/"]) {
      const r = await w.call("GET", path);
      expect(r.headers.get("content-type"), path).toMatch(/^text\/html/);
      const policy = policyOf(r.headers.get("content-security-policy"));
      expect(policy["default-src"], path).toEqual(["'self'"]);
      expect(policy["script-src"], path).toEqual(expect.arrayContaining(["'self'", "https://js.stripe.com"]));
      expect(policy["script-src"], path).not.toContain("'unsafe-inline'");
      expect(policy["script-src"], path).not.toContain("'unsafe-eval'");
      expect(policy["frame-ancestors"], path).toEqual(["'none'"]);
      expect(policy["object-src"], path).toEqual(["'none'"]);
      expect(policy["base-uri"], path).toEqual(["'none'"]);
      // The element calls the API at BOOKING_PUBLIC_URL; the Stripe.js stand-in calls the stand-in.
      expect(policy["connect-src"], path).toEqual(
        expect.arrayContaining(["'self'", "https://book.example.com", "https://api.stripe.com", "http://127.0.0.1:12111"]),
      );
      expect(policy["frame-src"], path).toEqual(expect.arrayContaining(["https://js.stripe.com", "https://hooks.stripe.com"]));
      expect(r.headers.get("x-frame-options"), path).toBe("DENY");
      // Every inline script the page carries is allowed by its hash, and nothing else inline.
      const inline = [...r.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash("sha256").update(m[1]!).digest("base64")}'`);
      expect(policy["script-src"]!.filter((s) => s.startsWith("'sha256-")).sort(), path).toEqual(inline.sort());
    }
    expect(policyOf((await w.call("GET", "/")).headers.get("content-security-policy"))["script-src"]!.some((s) => s.startsWith("'sha256-"))).toBe(true);
  });

  it("include the API docs, which load nothing and may not be framed either", async () => {
    const w = await setup();
    const r = await w.call("GET", "/docs");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    const policy = policyOf(r.headers.get("content-security-policy"));
    expect(policy["default-src"]).toEqual(["'none'"]);
    expect(policy["frame-ancestors"]).toEqual(["'none'"]);
    expect(r.headers.get("x-frame-options")).toBe("DENY");
  });

  it("allow Vite's dev server under npm run dev", async () => {
    const w = await setup({ config: { devCalendarUrl: "http://127.0.0.1:5173/" } });
    await w.eventType({ title: "Intro call", slug: "intro-call" });
    for (const path of ["/", "/book/intro-call"]) {
      const policy = policyOf((await w.call("GET", path)).headers.get("content-security-policy"));
      expect(policy["script-src"], path).toContain("http://127.0.0.1:5173");
      expect(policy["connect-src"], path).toEqual(expect.arrayContaining(["http://127.0.0.1:5173", "ws://127.0.0.1:5173"]));
    }
  });

  it("leave disabled event types, those without a booking page, and their link tokens off the demo page", async () => {
    const w = await setup();
    const open = await w.eventType({ title: "Open call", slug: "open-call" });
    const paused = await w.eventType({ title: "Paused workshop", slug: "paused-workshop", disabled: true });
    // An event type booked only through the API: its link token is published nowhere.
    const apiOnly = await w.eventType({ title: "API-only call" });
    const later = await w.eventType({ title: "Later call", slug: "later-call" });
    const tokenOf = async (id: number) => (await w.store.eventTypes.byId(id))!.linkToken;
    for (const path of ["/", "/?event=0", "/?event=1", "/?event=2", "/?event=3", "/?event=9"]) {
      const r = await w.call("GET", path);
      expect(r.status, path).toBe(200);
      for (const hidden of [paused, apiOnly]) {
        expect(r.text, path).not.toContain(hidden.id === paused.id ? "Paused workshop" : "API-only call");
        expect(r.text, path).not.toContain(await tokenOf(hidden.id));
      }
    }
    expect((await w.call("GET", "/")).text).toContain(`token="${await tokenOf(open.id)}"`);
    expect((await w.call("GET", "/?event=1")).text).toContain(`token="${await tokenOf(later.id)}"`);
  });
});

describe("offsets in date-times", () => {
  it("are read alike by the public API and the assistant server, which both refuse +99:00", async () => {
    const w = await setup({ config: NO_RATE_LIMIT });
    const et = (await w.admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", slug: "intro-call", ...OPEN })).body.data as {
      id: number;
      token: string;
    };
    const uuid = (await w.call("POST", "/reservations", { token: et.token, body: { ...TUE_0900, email: "ada@example.com" } })).body.data.uuid as string;
    // +99:00 read as luxon alone reads it is Thursday 09:00 in Prague: a free slot.
    const outOfRange = { start: "2026-11-30T11:00:00+99:00", end: "2026-11-30T11:30:00+99:00" };
    const http = await w.call("PUT", `/reservations/${uuid}`, { token: et.token, body: outOfRange });
    expect(http.status).toBe(422);
    const client = await connectOverHttp(w.app, ADMIN_KEY);
    cleanups.push(() => client.close());
    for (const start of [outOfRange.start, "2026-11-26T09:00:00+24:00", "2026-11-26T09:00:00+01:60"]) {
      expect(failure(await client.callTool({ name: "reschedule_reservation", arguments: { uuid, start } })), start).toMatch(/start: ".*" is not a date-time/);
    }
    expect((await w.call("GET", `/admin/event-types/${et.id}/reservations?from=2026-11-23&until=2026-12-06`, { token: ADMIN_KEY })).body.data).toEqual([
      expect.objectContaining({ uuid, startIso8601: "2026-11-24T08:00:00Z" }),
    ]);
    // The edges of the range still read.
    expect(offsetInstant("2026-11-26T09:00:00+23:59")).toBe(Date.parse("2026-11-25T09:01:00Z"));
    expect(offsetInstant("2026-11-26T09:00:00-23:59")).toBe(Date.parse("2026-11-27T08:59:00Z"));
    success(await client.callTool({ name: "reschedule_reservation", arguments: { uuid, start: "2026-11-26T10:00:00+01:00" } }));
  });
});

describe("instants with an offset", () => {
  it("reads each as luxon reads it whole, the first time and again when its date and time of day were read before", () => {
    const samples = [
      "2026-12-01T09:00:00Z",
      "2026-12-01T09:00Z",
      "2026-12-01t09:00:00z",
      "2026-02-30T09:00:00Z",
      "2024-02-29T12:00+00:00",
      "2023-02-29T12:00+00:00",
      "2026-13-01T00:00Z",
      "2026-02-28T24:00:00Z",
      "2026-02-28T24:01Z",
      "2026-02-28T25:00Z",
      "2026-02-28T23:60Z",
      "2026-02-28T23:59:60Z",
      "2026-02-28T23:59:59.999999999+05:30",
      "2026-02-28T09:00:00.5-23:59",
      "0001-01-01T00:00Z",
      "2026-03-29T02:30:00+01:00",
      "2026-12-01T09:00:00+24:00",
      "2026-12-01 09:00:00Z",
    ];
    const luxon = (value: string) => {
      const parsed = DateTime.fromISO(value, { setZone: true });
      return parsed.isValid ? parsed.toMillis() : null;
    };
    for (const round of [1, 2]) {
      for (const value of samples) {
        const expected = value.includes("+24:00") || value.includes(" ") ? null : luxon(value);
        expect({ round, value, ms: offsetInstant(value) }).toEqual({ round, value, ms: expected });
      }
    }
    expect(offsetInstant("2026-12-01T09:00:00.5-23:59")).toBe(Date.parse("2026-12-02T08:59:00.500Z"));
  });
});
