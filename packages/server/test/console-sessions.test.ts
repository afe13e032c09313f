import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import type { ManualClock } from "../src/clock.ts";
import { ConsoleAccess, SESSION_IDLE_MS, SESSION_MAX_MS, SIGN_IN_ATTEMPTS } from "../src/modules/console/service.ts";
import { configFromEnv, type ServerConfig } from "../src/config.ts";
import type { Store } from "../src/store/store.ts";
import { ADMIN_KEY, ENGINE, POSTGRES_URL, createHost, databaseOf, openTestStoreBeside, expectError, reservation, setup, type Answer } from "./utils.ts";
import { startRadicale } from "./radicale.ts";

const ORIGIN = "http://localhost";
/** A request limit no test here reaches, so only the sign-in limit refuses. */
const MANY = { limit: 100_000, windowSeconds: 60 };

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * An app on a database that a second instance can open too (a SQLite file, or the suite's
 * PostgreSQL schema), and `secondApp`, that instance, on the same clock: two servers behind one
 * load balancer. `signIn(i, key)` sends a sign-in to the first for even `i`, the second for odd.
 * Requests through `app.handle` all come from one client address.
 */
async function twoInstances(config: Partial<ServerConfig> = {}) {
  const folder = ENGINE === "sqlite" ? mkdtempSync(join(tmpdir(), "console-sign-in-")) : null;
  if (folder) folders.push(folder);
  const first = await setup({ ...(folder ? { databasePath: join(folder, "shared.sqlite") } : {}), config: { rateLimit: MANY, ...config } });
  const secondStore = await openTestStoreBeside(first.store, MANY);
  const secondApp = createApp({ store: secondStore, clock: first.clock, config: { adminKey: ADMIN_KEY, rateLimit: MANY, ...config }, log: () => undefined });
  const signIn = async (i: number, adminKey: string): Promise<number> => {
    const request = new Request(`${ORIGIN}/console/session`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ adminKey }),
    });
    const response = await (i % 2 === 0 ? first.app : secondApp).handle(request);
    await response.arrayBuffer();
    return response.status;
  };
  return { ...first, secondStore, secondApp, signIn };
}

/** How many answers had each status. */
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/**
 * Puts the attempt counters of `store`'s database out of its reach until the returned function is
 * called: on SQLite another connection holds the file's write lock (as another process writing
 * would); on PostgreSQL their table is renamed away.
 */
async function countersOutOfReach(store: Store): Promise<() => Promise<void>> {
  const at = databaseOf(store)!;
  if ("path" in at) {
    const holder = new Database(at.path);
    holder.exec("BEGIN IMMEDIATE");
    return async () => {
      holder.exec("ROLLBACK");
      holder.close();
    };
  }
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`ALTER TABLE "${at.schema}".rate_limits RENAME TO rate_limits_away`);
  return async () => {
    await client.query(`ALTER TABLE "${at.schema}".rate_limits_away RENAME TO rate_limits`);
    await client.end();
  };
}

/** The windows of failed sign-ins `store`'s database still keeps, read past the store. */
async function signInWindows(store: Store): Promise<number> {
  const at = databaseOf(store)!;
  const query = "SELECT count(*) AS n FROM rate_limits WHERE key LIKE 'console-sign-in:%'";
  if ("path" in at) {
    const db = new Database(at.path, { readonly: true });
    try {
      return db.query<{ n: number }, []>(query).get()!.n;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return Number((await client.query(query.replace("rate_limits", `"${at.schema}".rate_limits`))).rows[0].n);
  } finally {
    await client.end();
  }
}

/** The session cookie as a browser keeps it: set and renewed by answers, gone once its Max-Age has passed. */
function browserCookie(clock: ManualClock) {
  let cookie: string | null = null;
  let endsAtMs = 0;
  return {
    /** The request headers that carry the cookie while the browser still has it. */
    headers: (): Record<string, string> => (cookie && clock.now() < endsAtMs ? { cookie } : {}),
    /** Keeps the answer's cookie; its Max-Age in seconds, or null when the answer set none. */
    take(r: Answer): number | null {
      const header = r.headers.get("set-cookie");
      if (!header) return null;
      const maxAge = Number(/; Max-Age=(\d+);/.exec(header)![1]);
      cookie = header.split(";")[0]!;
      endsAtMs = clock.now() + maxAge * 1000;
      return maxAge;
    },
  };
}

/** The session cookie's `name=value` from a sign-in answer. */
function cookieFrom(r: Answer): string {
  const header = r.headers.get("set-cookie") ?? "";
  return header.split(";")[0]!;
}

async function signedIn(t: Awaited<ReturnType<typeof setup>>, headers: Record<string, string> = {}) {
  const r = await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN, ...headers } });
  expect(r.status).toBe(200);
  return cookieFrom(r);
}

describe("signing in to the console", () => {
  it("exchanges the admin key for an HttpOnly, SameSite=Strict session cookie that the admin API accepts", async () => {
    const t = await setup();
    const r = await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ role: "admin", hostId: null, method: "key" });
    const header = r.headers.get("set-cookie")!;
    expect(header).toMatch(/^booking_console=bcs_[A-Za-z0-9_-]{40,}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    expect(header).not.toContain(ADMIN_KEY);
    const cookie = cookieFrom(r);
    const list = await t.call("GET", "/admin/event-types", { headers: { cookie } });
    expect(list.status).toBe(200);
    expect((await t.call("GET", "/console/session", { headers: { cookie } })).body.data.role).toBe("admin");
  });

  it("marks the cookie Secure with the __Host- prefix in production", async () => {
    const t = await setup({ config: { environment: "production", publicUrl: "https://book.example.com" } });
    const r = await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: "https://book.example.com" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("set-cookie")).toMatch(/^__Host-booking_console=bcs_\S+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict; Secure$/);
  });

  it("answers 401 unauthenticated for a wrong key and sets no cookie", async () => {
    const t = await setup();
    const r = await t.call("POST", "/console/session", { body: { adminKey: "wrong" }, headers: { origin: ORIGIN } });
    expectError(r, 401, "unauthenticated");
    expect(r.headers.get("set-cookie")).toBeNull();
  });

  it("refuses every sign-in of an address with 429 and Retry-After once it failed too often, and lets successful ones through", async () => {
    const t = await setup({ config: { rateLimit: { limit: 1000, windowSeconds: 60 } } });
    for (let i = 0; i < SIGN_IN_ATTEMPTS * 2; i++) {
      expect((await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN } })).status).toBe(200);
    }
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) {
      expectError(await t.call("POST", "/console/session", { body: { adminKey: `guess-${i}` }, headers: { origin: ORIGIN } }), 401, "unauthenticated");
    }
    const refused = await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN } });
    expectError(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    t.clock.advance(11);
    expect((await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN } })).status).toBe(200);
  });

  it("refuses a sign-in posted from another site (403 forbidden)", async () => {
    const t = await setup();
    expectError(await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: "https://evil.example" } }), 403, "forbidden");
    expectError(await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY } }), 403, "forbidden");
  });

  it("signs in once with a one-time link in development without a key, and the admin API then answers that session only", async () => {
    const t = await setup({ config: { adminKey: null, consoleSignInLinks: true } });
    const access = new ConsoleAccess(t.store, null, () => t.clock.now());
    const link = await access.issueLink();
    expectError(await t.call("GET", "/admin/event-types"), 401, "unauthenticated");
    const r = await t.call("POST", "/console/session", { body: { link }, headers: { origin: ORIGIN } });
    expect(r.status).toBe(200);
    expect(r.body.data.method).toBe("link");
    expect((await t.call("GET", "/admin/event-types", { headers: { cookie: cookieFrom(r) } })).status).toBe(200);
    // Used up: a second use (another browser that saw the link) gets nothing.
    expectError(await t.call("POST", "/console/session", { body: { link }, headers: { origin: ORIGIN } }), 401, "unauthenticated");
    // No key means no key sign-in either.
    expectError(await t.call("POST", "/console/session", { body: { adminKey: "anything" }, headers: { origin: ORIGIN } }), 401, "unauthenticated");
  });

  it("keeps the admin API and the console off in production without a key, and the page says how to turn it on", async () => {
    const t = await setup({ config: { adminKey: null, environment: "production", publicUrl: "https://book.example.com" } });
    expect((await t.call("GET", "/admin/event-types")).status).toBe(404);
    const page = await t.call("GET", "/console");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toContain("BOOKING_ADMIN_KEY");
    expect(page.text).not.toContain("<booking-console");
  });
});

describe("the sign-in limit", () => {
  it.each([100, 300])(
    `judges exactly ${SIGN_IN_ATTEMPTS} of %i wrong keys sent at once to two instances of one database, and refuses the rest with 429`,
    async (guesses) => {
      const t = await twoInstances();
      const statuses = await Promise.all(Array.from({ length: guesses }, (_, i) => t.signIn(i, `guess-${i}`)));
      expect(tally(statuses)).toEqual({ 401: SIGN_IN_ATTEMPTS, 429: guesses - SIGN_IN_ATTEMPTS });
      // The key itself is refused now too, by either instance.
      expect([await t.signIn(0, ADMIN_KEY), await t.signIn(1, ADMIN_KEY)]).toEqual([429, 429]);
    },
  );

  it(`signs in with the right key sent amid a burst of wrong ones and gives its slot back, so the wrong keys still get exactly ${SIGN_IN_ATTEMPTS} tries`, async () => {
    const t = await twoInstances();
    // The right key first in each instance's queue, twice: whichever instance reaches the database first checks one of them.
    const keys = [ADMIN_KEY, ADMIN_KEY, ADMIN_KEY, ADMIN_KEY, ...Array.from({ length: 100 }, (_, i) => `guess-${i}`)];
    const statuses = await Promise.all(keys.map((key, i) => t.signIn(i, key)));
    const right = statuses.slice(0, 4);
    const wrong = statuses.slice(4);
    expect(right).toContain(200);
    expect(right.every((status) => status === 200 || status === 429)).toBe(true);
    expect(wrong.every((status) => status === 401 || status === 429)).toBe(true);
    // While a right key was being checked it held a slot; had it kept it, fewer wrong keys would ever be judged.
    let judged = wrong.filter((status) => status === 401).length;
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) if ((await t.signIn(i, `later-${i}`)) === 401) judged++;
    expect(judged).toBe(SIGN_IN_ATTEMPTS);
  });

  it("counts failed sign-ins in the database, so two instances share the limit, past the store's sweep, until the window ends", async () => {
    const t = await twoInstances();
    const one = new ConsoleAccess(t.store, ADMIN_KEY, () => t.clock.now());
    const two = new ConsoleAccess(t.secondStore, ADMIN_KEY, () => t.clock.now());
    const from = (address: string) => ({ address, userAgent: "test" });
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) {
      await expect((i % 2 ? one : two).signIn({ adminKey: `guess-${i}` }, from("203.0.113.7"))).rejects.toMatchObject({ code: "unauthenticated" });
    }
    // The sweep forgets old windows, not the one still running.
    t.clock.advance(3);
    await t.store.reservations.sweep(t.clock.now());
    const refused = await two.signIn({ adminKey: ADMIN_KEY }, from("203.0.113.7"));
    expect(refused).toEqual({ retryAfterSeconds: 7 * 60 });
    expect(await one.signIn({ adminKey: ADMIN_KEY }, from("203.0.113.7"))).toEqual(refused);
    // Only failures count: another address signs in as often as it likes.
    for (let i = 0; i < 3 * SIGN_IN_ATTEMPTS; i++)
      expect(await (i % 2 ? one : two).signIn({ adminKey: ADMIN_KEY }, from("203.0.113.8"))).toHaveProperty("token");
    t.clock.advance(8);
    expect(await two.signIn({ adminKey: ADMIN_KEY }, from("203.0.113.7"))).toHaveProperty("token");
    expect(await signInWindows(t.store)).toBe(3);
    // Two windows on, the sweep forgets the first two.
    t.clock.advance(20);
    await t.secondStore.reservations.sweep(t.clock.now());
    expect(await signInWindows(t.store)).toBe(0);
  });

  it("keeps a signed-in console and the admin key working while the address is locked out of signing in", async () => {
    const t = await setup({ config: { rateLimit: MANY } });
    const cookie = await signedIn(t);
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++)
      expectError(await t.call("POST", "/console/session", { body: { adminKey: `guess-${i}` }, headers: { origin: ORIGIN } }), 401, "unauthenticated");
    expectError(await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN } }), 429, "rate_limited");
    // Someone guessing behind the organizer's address cannot end the organizer's session...
    expect((await t.call("GET", "/console/session", { headers: { cookie } })).body.data.role).toBe("admin");
    expect((await t.call("GET", "/admin/event-types", { headers: { cookie } })).status).toBe(200);
    expect((await t.call("POST", "/admin/event-types", { body: { title: "During a lockout" }, headers: { cookie, origin: ORIGIN } })).status).toBe(200);
    // ...nor stop scripts that send the key itself: they never sign in.
    expect((await t.admin("GET", "/admin/event-types")).body.data).toHaveLength(1);
    expect((await t.admin("GET", "/admin/sessions")).status).toBe(200);
  });

  it("refuses a sign-in with 503 and Retry-After while its attempt cannot be counted, rather than judge it unlimited, and serves other requests", async () => {
    const t = await twoInstances();
    const back = await countersOutOfReach(t.store);
    try {
      const refused = await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN } });
      expectError(refused, 503, "service_unavailable");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.headers.get("set-cookie")).toBeNull();
      expect((await t.call("GET", "/health")).status).toBe(200);
    } finally {
      await back();
    }
    expect((await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN } })).status).toBe(200);
  });
});

describe("a console session", () => {
  it("refuses changes without the console's Origin (CSRF) with 403 forbidden, and allows them with it", async () => {
    const t = await setup();
    const cookie = await signedIn(t);
    const body = { title: "From the console" };
    expectError(await t.call("POST", "/admin/event-types", { body, headers: { cookie } }), 403, "forbidden");
    expectError(await t.call("POST", "/admin/event-types", { body, headers: { cookie, origin: "https://evil.example" } }), 403, "forbidden");
    expectError(await t.call("POST", "/admin/event-types", { body, headers: { cookie, origin: ORIGIN, "sec-fetch-site": "cross-site" } }), 403, "forbidden");
    expect((await t.store.eventTypes.list()).length).toBe(0);
    const made = await t.call("POST", "/admin/event-types", { body, headers: { cookie, origin: ORIGIN, "sec-fetch-site": "same-origin" } });
    expect(made.status).toBe(200);
    expect(made.body.data.title).toBe("From the console");
  });

  it("ends after its idle time, and at the latest after its lifetime however much it is used", async () => {
    const t = await setup();
    const cookie = await signedIn(t);
    t.clock.advance(SESSION_IDLE_MS / 60_000 - 1);
    expect((await t.call("GET", "/admin/event-types", { headers: { cookie } })).status).toBe(200);
    // That use moved the end on.
    t.clock.advance(SESSION_IDLE_MS / 60_000 - 1);
    expect((await t.call("GET", "/admin/event-types", { headers: { cookie } })).status).toBe(200);
    t.clock.advance(SESSION_IDLE_MS / 60_000 + 1);
    expectError(await t.call("GET", "/admin/event-types", { headers: { cookie } }), 401, "unauthenticated");

    const busy = await signedIn(t);
    for (let spent = 0; spent < SESSION_MAX_MS; spent += SESSION_IDLE_MS / 2) {
      t.clock.advance(SESSION_IDLE_MS / 120_000);
      await t.call("GET", "/admin/event-types", { headers: { cookie: busy } });
    }
    expectError(await t.call("GET", "/admin/event-types", { headers: { cookie: busy } }), 401, "unauthenticated");
  });

  it("ends after the configured idle time (BOOKING_CONSOLE_IDLE_SECONDS), which the cookie's Max-Age follows", async () => {
    const t = await setup({ config: { consoleIdleSeconds: 600 } });
    const r = await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN } });
    expect(r.headers.get("set-cookie")).toContain("Max-Age=600;");
    const cookie = cookieFrom(r);
    t.clock.advance(9);
    expect((await t.call("GET", "/admin/event-types", { headers: { cookie } })).status).toBe(200);
    t.clock.advance(9);
    expect((await t.call("GET", "/admin/event-types", { headers: { cookie } })).status).toBe(200);
    t.clock.advance(11);
    expectError(await t.call("GET", "/admin/event-types", { headers: { cookie } }), 401, "unauthenticated");
    expect(configFromEnv({ BOOKING_CONSOLE_IDLE_SECONDS: "30" }).consoleIdleSeconds).toBe(30);
    expect(configFromEnv({}).consoleIdleSeconds * 1000).toBe(SESSION_IDLE_MS);
    expect(() => configFromEnv({ BOOKING_CONSOLE_IDLE_SECONDS: "soon" })).toThrow(/BOOKING_CONSOLE_IDLE_SECONDS/);
  });

  it("renews its cookie on the requests that move the session on, and only on those, so a console used every second outlasts its idle time", async () => {
    const t = await setup({ config: { consoleIdleSeconds: 5 } });
    const browser = browserCookie(t.clock);
    expect(browser.take(await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN } }))).toBe(5);
    const start = t.clock.now();
    const renewedAt: number[] = [];
    for (let second = 1; second <= 30; second++) {
      t.clock.set(new Date(start + second * 1000).toISOString());
      const r = await t.call("GET", second % 3 === 0 ? "/console/session" : "/admin/event-types", { headers: browser.headers() });
      expect(r.status, `${second} s after sign-in`).toBe(200);
      const maxAge = browser.take(r);
      if (maxAge !== null) {
        expect(maxAge).toBe(5);
        renewedAt.push(second);
      }
    }
    // Moved on once a quarter of the idle time (1.25 s) has passed since the last move.
    expect(renewedAt).toEqual(Array.from({ length: 15 }, (_, i) => 2 * (i + 1)));
    t.clock.set(new Date(start + 35_000).toISOString());
    expect(browser.headers()).toEqual({});
  });

  it("renews its cookie for no longer than what is left of its lifetime, and ends there however busy", async () => {
    const t = await setup();
    const browser = browserCookie(t.clock);
    browser.take(await t.call("POST", "/console/session", { body: { adminKey: ADMIN_KEY }, headers: { origin: ORIGIN } }));
    const hour = 60;
    const maxAges: (number | null)[] = [];
    for (let used = 11; used < SESSION_MAX_MS / 3_600_000; used += 11) {
      t.clock.advance(11 * hour);
      const r = await t.call("GET", "/admin/event-types", { headers: browser.headers() });
      expect(r.status).toBe(200);
      maxAges.push(browser.take(r));
    }
    // 165 hours in, 3 of the 7 days are left.
    expect(maxAges).toEqual([...Array<number>(14).fill(SESSION_IDLE_MS / 1000), 3 * 3600]);
    t.clock.advance(3 * hour - 1);
    const last = await t.call("GET", "/console/session", { headers: browser.headers() });
    expect(browser.take(last)).toBe(60);
    const cookie = browser.headers().cookie!;
    t.clock.advance(1);
    expect(browser.headers()).toEqual({});
    expectError(await t.call("GET", "/admin/event-types", { headers: { cookie } }), 401, "unauthenticated");
  });

  it("renews its cookie on an answer that refuses the request, and clears it instead on sign-out", async () => {
    const t = await setup({ config: { consoleIdleSeconds: 600 } });
    const hostId = await createHost(t, "Ada");
    const link = await new ConsoleAccess(t.store, ADMIN_KEY, () => t.clock.now()).issueHostLink(hostId);
    const host = cookieFrom(await t.call("POST", "/console/session", { body: { link }, headers: { origin: ORIGIN } }));
    const organizer = await signedIn(t);
    t.clock.advance(3);
    const refused = await t.call("GET", "/admin/sessions", { headers: { cookie: host } });
    expectError(refused, 403, "forbidden");
    expect(refused.headers.get("set-cookie")).toContain("; Max-Age=600;");
    expect(cookieFrom(refused)).toBe(host);
    const out = await t.call("DELETE", "/console/session", { headers: { cookie: organizer, origin: ORIGIN } });
    expect(out.headers.getSetCookie()).toEqual([expect.stringMatching(/^booking_console=; Path=\/; Max-Age=0;/)]);
  });

  it("signs out: the cookie is cleared and stops working", async () => {
    const t = await setup();
    const cookie = await signedIn(t);
    const out = await t.call("DELETE", "/console/session", { headers: { cookie, origin: ORIGIN } });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    expectError(await t.call("GET", "/admin/event-types", { headers: { cookie } }), 401, "unauthenticated");
  });

  it("is listed without its secret and can be revoked from another session or with the key", async () => {
    const t = await setup();
    const first = await signedIn(t, { "user-agent": "Laptop" });
    const second = await signedIn(t, { "user-agent": "Phone" });
    const list = await t.call("GET", "/admin/sessions", { headers: { cookie: second } });
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { userAgent: string }) => s.userAgent).sort()).toEqual(["Laptop", "Phone"]);
    expect(list.text).not.toContain(first.split("=")[1]);
    expect(list.text).not.toMatch(/tokenHash|token_hash/);
    const laptop = list.body.data.find((s: { userAgent: string }) => s.userAgent === "Laptop");
    expect((await t.call("DELETE", `/admin/sessions/${laptop.id}`, { headers: { cookie: second, origin: ORIGIN } })).status).toBe(200);
    expectError(await t.call("GET", "/admin/event-types", { headers: { cookie: first } }), 401, "unauthenticated");
    expect((await t.call("GET", "/admin/event-types", { headers: { cookie: second } })).status).toBe(200);
    expectError(await t.admin("DELETE", `/admin/sessions/${laptop.id}`), 404, "not_found");
  });

  it("ends when the server is started with another admin key", async () => {
    const t = await setup();
    const cookie = await signedIn(t);
    const token = cookie.split("=")[1]!;
    expect(await new ConsoleAccess(t.store, ADMIN_KEY, () => t.clock.now()).sessionOf(token)).not.toBeNull();
    expect(await new ConsoleAccess(t.store, "another-key-0123456789", () => t.clock.now()).sessionOf(token)).toBeNull();
  });
});

describe("the organizer's bookings across event types", () => {
  it("pages through them by cursor with filters on event type, status, dates and name or email", async () => {
    const t = await setup();
    const a = await t.eventType({ title: "Alpha" });
    const b = await t.eventType({ title: "Beta" });
    const records = [];
    for (let i = 0; i < 25; i++) {
      records.push(
        reservation(i % 2 ? a.id : b.id, `2026-12-${String(1 + (i % 20)).padStart(2, "0")}T10:00:00Z`, 30, {
          email: `guest${i}@example.com`,
          firstname: i === 7 ? "Grace" : "Ada",
          ...(i % 5 === 0 ? { status: "cancelled", cancelledAtMs: Date.parse("2026-11-23T07:00:00Z") } : {}),
        }),
      );
    }
    await t.store.reservations.insertMany(records);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: Answer = await t.admin("GET", `/admin/reservations?limit=10${cursor ? `&cursor=${cursor}` : ""}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.items.map((x: { uuid: string }) => x.uuid));
      cursor = r.body.data.next;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(25);
    const starts = records
      .map((r) => [r.startMs, r.uuid] as const)
      .sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1))
      .map((x) => x[1]);
    expect(seen).toEqual(starts);

    const onlyA = (await t.admin("GET", `/admin/reservations?eventTypeId=${a.id}&limit=200`)).body.data.items;
    expect(onlyA.length).toBe(12);
    expect(onlyA.every((x: { eventTypeId: number; eventTypeTitle: string }) => x.eventTypeId === a.id && x.eventTypeTitle === "Alpha")).toBe(true);
    const cancelled = (await t.admin("GET", "/admin/reservations?status=cancelled&limit=200")).body.data.items;
    expect(cancelled.length).toBe(5);
    const grace = (await t.admin("GET", "/admin/reservations?q=GRACE")).body.data.items;
    expect(grace.map((x: { email: string }) => x.email)).toEqual(["guest7@example.com"]);
    const byMail = (await t.admin("GET", "/admin/reservations?q=guest1")).body.data.items;
    expect(byMail.length).toBe(11);
    const days = (await t.admin("GET", "/admin/reservations?from=2026-12-02&until=2026-12-03&order=desc")).body.data.items;
    expect(days.length).toBe(4);
    expect(days[0].startIso8601 >= days.at(-1).startIso8601).toBe(true);
    expectError(await t.admin("GET", "/admin/reservations?cursor=bm9wZQ"), 422, "validation_failed");
    expectError(await t.admin("GET", "/admin/reservations?from=2026-12-05&until=2026-12-01"), 422, "validation_failed");
  });

  it("lists upcoming bookings from now, soonest first, and past ones before now, most recent first, each paged by cursor", async () => {
    const t = await setup({ now: "2026-12-10T12:00:00Z" });
    const et = await t.eventType({ title: "Alpha" });
    const hours = [-50, -30, -20, -5, -1, 1, 3, 24, 48, 72];
    const records = hours.map((h, i) =>
      reservation(et.id, new Date(Date.parse("2026-12-10T12:00:00Z") + h * 3_600_000).toISOString(), 30, { email: `when${i}@example.com` }),
    );
    await t.store.reservations.insertMany(records);
    const startsOf = async (q: string) => {
      const starts: string[] = [];
      let cursor: string | null = null;
      do {
        const r: Answer = await t.admin("GET", `/admin/reservations?limit=2${q}${cursor ? `&cursor=${cursor}` : ""}`);
        expect(r.status).toBe(200);
        starts.push(...r.body.data.items.map((x: { startIso8601: string }) => x.startIso8601));
        cursor = r.body.data.next;
      } while (cursor);
      return starts;
    };
    const iso = (h: number) => new Date(Date.parse("2026-12-10T12:00:00Z") + h * 3_600_000).toISOString().replace(".000Z", "Z");
    const upcoming = await startsOf("&when=upcoming");
    expect(upcoming.map((s) => new Date(s).toISOString().replace(".000Z", "Z"))).toEqual([1, 3, 24, 48, 72].map(iso));
    const past = await startsOf("&when=past");
    expect(past.map((s) => new Date(s).toISOString().replace(".000Z", "Z"))).toEqual([-1, -5, -20, -30, -50].map(iso));
    // An explicit order wins; days narrow the period further.
    const pastAscending = await startsOf("&when=past&order=asc&from=2026-12-09");
    expect(pastAscending.map((s) => new Date(s).toISOString().replace(".000Z", "Z"))).toEqual([-30, -20, -5, -1].map(iso));
    expectError(await t.admin("GET", "/admin/reservations?when=tomorrow"), 422, "validation_failed");
    expectError(await t.admin("GET", "/admin/reservations?order=newest"), 422, "validation_failed");
  });

  it("cancels one as the organizer with a reason, shows it with its deliveries, and retries a delivery", async () => {
    const t = await setup({ config: { webhooks: { allowPrivateAddresses: true } } });
    const et = await t.eventType({ title: "Alpha", webhookUrl: "http://127.0.0.1:9/hook" });
    const r = reservation(et.id, "2026-11-23T09:00:00Z", 30);
    await t.store.reservations.insertMany([r]);
    const cancel = await t.admin("POST", `/admin/event-types/${et.id}/reservations/${r.uuid}/cancel`, { reason: "Double booked" });
    expect(cancel.status).toBe(200);
    const shown = await t.admin("GET", `/admin/event-types/${et.id}/reservations/${r.uuid}`);
    expect(shown.body.data).toMatchObject({ uuid: r.uuid, status: "cancelled", cancelReason: "Double booked", eventTypeTitle: "Alpha" });
    const webhook = shown.body.data.deliveries.find((d: { channel: string }) => d.channel === "webhook");
    expect(webhook).toMatchObject({ kind: "reservation.cancelled", status: "pending" });
    // Pending and due later: made due now.
    expect((await t.admin("POST", `/admin/event-types/${et.id}/deliveries/${webhook.id}/retry`)).status).toBe(200);
    expectError(await t.admin("POST", `/admin/event-types/${et.id}/deliveries/999999/retry`), 404, "not_found");
    expectError(await t.admin("GET", `/admin/event-types/${et.id}/reservations/${crypto.randomUUID()}`), 404, "not_found");
  });
});

describe("trying a calendar before it is stored", () => {
  it("reads a Radicale calendar without storing it, and answers a wrong password as the URL's error", async () => {
    const radicale = await startRadicale();
    try {
      const calendar = await radicale.makeCalendar("work");
      await radicale.put(
        calendar,
        "busy.ics",
        [
          "BEGIN:VCALENDAR",
          "VERSION:2.0",
          "PRODID:-//t//EN",
          "BEGIN:VEVENT",
          "UID:busy-1",
          "DTSTAMP:20261101T000000Z",
          "DTSTART:20261124T100000Z",
          "DTEND:20261124T110000Z",
          "END:VEVENT",
          "END:VCALENDAR",
          "",
        ].join("\r\n"),
      );
      const t = await setup();
      const et = await t.eventType();
      const good = await t.admin("POST", `/admin/event-types/${et.id}/busy-sources/test`, {
        kind: "caldav",
        url: calendar,
        username: radicale.user,
        password: radicale.password,
      });
      expect(good.status).toBe(200);
      expect(good.body.data).toEqual({ ok: true, objects: 1 });
      const bad = await t.admin("POST", `/admin/event-types/${et.id}/busy-sources/test`, {
        kind: "caldav",
        url: calendar,
        username: radicale.user,
        password: "wrong",
      });
      expectError(bad, 422, "validation_failed");
      expect(bad.body.errors.url[0]).toMatch(/could not be read.*401/);
      expect(bad.text).not.toContain("wrong");
      expectError(await t.admin("POST", `/admin/event-types/${et.id}/busy-sources/test`, { kind: "caldav", url: "ftp://x" }), 422, "validation_failed");
      // The same through the host the calendar would belong to (what the console's calendars page asks).
      const hostId = (await t.store.eventTypes.byId(et.id))!.hosts[0]!.hostId;
      const byHost = await t.admin("POST", `/admin/hosts/${hostId}/busy-sources/test`, {
        kind: "caldav",
        url: calendar,
        username: radicale.user,
        password: radicale.password,
      });
      expect(byHost.status).toBe(200);
      expect(byHost.body.data).toEqual({ ok: true, objects: 1 });
      expectError(
        await t.admin("POST", `/admin/hosts/${hostId}/busy-sources/test`, { kind: "caldav", url: calendar, username: radicale.user, password: "wrong" }),
        422,
        "validation_failed",
      );
      expectError(await t.admin("POST", "/admin/hosts/999999/busy-sources/test", { kind: "caldav", url: calendar }), 404, "not_found");
      expect(await t.store.busy.list(hostId)).toEqual([]);
    } finally {
      await radicale.stop();
    }
  });
});
