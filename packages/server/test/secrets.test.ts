import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { ManualClock } from "../src/clock.ts";
import { configFromEnv } from "../src/config.ts";
import { DEFAULT_SETTINGS } from "../src/domain/event-type.ts";
import { parseSecretKey, SecretBox, SecretKeyError, secretKeyOf, type SecretKey } from "../src/lib/secrets.ts";
import type { LogEntry } from "../src/context.ts";
import { WebhookWorker } from "../src/modules/webhooks/worker.ts";
import { redactUrls } from "../src/lib/redact.ts";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import { openSqliteStore } from "../src/store/sqlite/index.ts";
import type { Store } from "../src/store/store.ts";
import { SERVER_DIR, startServerProcess, type ServerProcess } from "./server-process.ts";
import { zoneRepeating } from "./hostile-calendars.ts";
import { ADMIN_KEY, ENGINE, POSTGRES_URL, setup, hostOf } from "./utils.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const newKey = (): SecretKey => secretKeyOf(randomBytes(32));

/**
 * One database of the suite's engine that a test opens, closes and opens again with other keys,
 * and reads raw, as someone holding a copy of it would.
 */
function database() {
  const dir = mkdtempSync(join(tmpdir(), "booking-secrets-"));
  const schema = `s_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const path = join(dir, "booking.sqlite");
  cleanups.push(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (ENGINE !== "postgres") return;
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });
  const open = async (secrets: SecretBox): Promise<Store> => {
    const store = ENGINE === "postgres" ? await openPostgresStore(POSTGRES_URL, { schema, poolSize: 2, secrets }) : openSqliteStore(path, { secrets });
    cleanups.push(() => store.close());
    return store;
  };
  /** Runs SQL on the database itself, bypassing the store. */
  const raw = async <R>(sql: string, params: (string | number)[] = []): Promise<R[]> => {
    if (ENGINE !== "postgres") {
      const db = new Database(path);
      try {
        return db.query(sql.replace(/\$\d+/g, "?")).all(...params) as R[];
      } finally {
        db.close();
      }
    }
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(`SET search_path TO "${schema}"`);
      return (await client.query(sql, params)).rows as R[];
    } finally {
      await client.end();
    }
  };
  const secretsStored = async () => ({
    webhook: (await raw<{ v: string }>("SELECT webhook_secret AS v FROM event_types ORDER BY id")).map((r) => r.v),
    calendar: (await raw<{ v: string | null }>("SELECT secret AS v FROM busy_sources ORDER BY id")).map((r) => r.v),
  });
  return { path, dir, open, raw, secretsStored };
}

/** An app on `store` with the admin API on, for what the organizer's answers carry. */
function appOn(store: Store) {
  const app = createApp({ store, clock: new ManualClock("2026-11-23T07:00:00Z"), config: { adminKey: ADMIN_KEY }, log: () => undefined });
  return async (method: string, path: string, body?: unknown) => {
    const response = await app.handle(
      new Request(`http://localhost${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) };
  };
}

/** A calendar feed that answers only with the organizer's password, and counts what it was sent. */
function protectedFeed(username: string, password: string) {
  const seen: (string | null)[] = [];
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => {
      seen.push(request.headers.get("authorization"));
      if (request.headers.get("authorization") !== expected) return new Response("who are you?", { status: 401 });
      return new Response("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tests//EN\r\nEND:VCALENDAR\r\n", { headers: { "content-type": "text/calendar" } });
    },
  });
  cleanups.push(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}/busy.ics`, seen };
}

/** An event type and a calendar source with a password, written through the store. */
async function eventTypeWithCalendar(store: Store, webhookSecret: string, password: string) {
  const et = await store.eventTypes.create(
    {
      disabled: false,
      tokenHash: `hash-${webhookSecret}`,
      overrideTokenHash: `override-${webhookSecret}`,
      slug: null,
      linkToken: `bcl_${webhookSecret}`,
      settings: { ...DEFAULT_SETTINGS, title: "Intro" },
      webhookSecret,
    },
    "2026-11-23T07:00:00Z",
  );
  const source = await store.busy.add(
    {
      hostId: await hostOf(store, et.id),
      kind: "caldav",
      url: "https://dav.example.com/",
      username: "organizer",
      secret: password,
      calendars: [],
      freshnessMinutes: null,
    },
    0,
  );
  return { eventTypeId: et.id, sourceId: source.id };
}

const SEALED_BY = (key: SecretKey) => new RegExp(`^enc:v1:${key.id}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$`);

describe("secrets at rest", () => {
  it("stores webhook signing secrets and calendar passwords encrypted, and opens them to sign and to fetch", async () => {
    const db = database();
    const key = newKey();
    const store = await db.open(new SecretBox(key));
    const admin = appOn(store);
    const created = await admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague" });
    expect(created.status).toBe(200);
    const webhookSecret: string = created.body.data.webhookSecret;
    expect(webhookSecret).toMatch(/^whsec_/);
    const feed = protectedFeed("organizer", "correct horse battery staple");
    const added = await admin("POST", `/admin/event-types/${created.body.data.id}/busy-sources`, {
      kind: "ical",
      url: feed.url,
      username: "organizer",
      password: "correct horse battery staple",
    });
    expect(added.status).toBe(200);

    const stored = await db.secretsStored();
    expect(stored.webhook).toEqual([expect.stringMatching(SEALED_BY(key))]);
    expect(stored.calendar).toEqual([expect.stringMatching(SEALED_BY(key))]);
    expect(JSON.stringify(stored)).not.toContain(webhookSecret.slice("whsec_".length, "whsec_".length + 12));
    expect(JSON.stringify(stored)).not.toContain("battery");

    // Opened where they are used: the record the webhook worker signs with, the source the sync fetches with.
    expect((await store.eventTypes.byId(created.body.data.id))!.webhookSecret).toBe(webhookSecret);
    // A change that gives no new secret keeps the sealed text as it is (no fresh seal on every update).
    expect((await admin("PATCH", `/admin/event-types/${created.body.data.id}`, { title: "Intro call, renamed" })).status).toBe(200);
    expect((await db.secretsStored()).webhook).toEqual(stored.webhook);
    expect((await store.eventTypes.byId(created.body.data.id))!.webhookSecret).toBe(webhookSecret);
    const synced = await admin("POST", `/admin/busy-sources/${added.body.data.id}/sync`);
    expect(synced.body.data.sync).toMatchObject({ ok: true });
    expect(feed.seen.at(-1)).toBe(`Basic ${Buffer.from("organizer:correct horse battery staple").toString("base64")}`);
  });

  it("never answers a webhook signing secret after it was issued, nor a calendar password", async () => {
    const db = database();
    const store = await db.open(new SecretBox(newKey()));
    const admin = appOn(store);
    const created = await admin("POST", "/admin/event-types", { title: "Intro call", timezone: "Europe/Prague", slug: "intro" });
    const id: number = created.body.data.id;
    const issued: string = created.body.data.webhookSecret;
    const feed = protectedFeed("organizer", "s3cret-calendar-password");
    const added = await admin("POST", `/admin/event-types/${id}/busy-sources`, {
      kind: "ical",
      url: feed.url,
      username: "organizer",
      password: "s3cret-calendar-password",
    });
    expect(added.body.data.credentialsSet).toBe(true);
    const rotated = await admin("POST", `/admin/event-types/${id}/webhook-secret`);
    const fresh: string = rotated.body.data.webhookSecret;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(issued);
    expect((await store.eventTypes.byId(id))!.webhookSecret).toBe(fresh);

    const answers = [
      added,
      await admin("GET", "/admin/event-types"),
      await admin("GET", `/admin/event-types/${id}`),
      await admin("PATCH", `/admin/event-types/${id}`, { webhookUrl: "https://hooks.example.com/booking" }),
      await admin("POST", `/admin/event-types/${id}/disable`),
      await admin("GET", `/admin/event-types/${id}/busy-sources`),
      await admin("GET", `/admin/busy-sources/${added.body.data.id}`),
      await admin("POST", `/admin/busy-sources/${added.body.data.id}/sync`),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain("whsec_");
      expect(answer.text).not.toContain("s3cret-calendar-password");
      expect(answer.text).not.toContain("enc:v1:");
    }
    expect(answers[2]!.body.data).not.toHaveProperty("webhookSecret");
    // A refused calendar does not echo its password either.
    const refused = await admin("POST", `/admin/event-types/${id}/busy-sources`, { kind: "ical", url: feed.url, password: "s3cret-calendar-password" });
    expect(refused.status).toBe(422);
    expect(refused.text).not.toContain("s3cret-calendar-password");
  });

  it("encrypts the secrets stored before encryption when the store opens", async () => {
    const db = database();
    const key = newKey();
    const { eventTypeId, sourceId } = await eventTypeWithCalendar(await db.open(new SecretBox(key)), "whsec_before", "password-before");
    await cleanups.pop()!();
    // As a database from before encryption holds them.
    await db.raw("UPDATE event_types SET webhook_secret = $1", ["whsec_plainly_stored"]);
    await db.raw("UPDATE busy_sources SET secret = $1", ["plainly-stored-password"]);

    const store = await db.open(new SecretBox(key));
    const stored = await db.secretsStored();
    expect(stored.webhook).toEqual([expect.stringMatching(SEALED_BY(key))]);
    expect(stored.calendar).toEqual([expect.stringMatching(SEALED_BY(key))]);
    expect((await store.eventTypes.byId(eventTypeId))!.webhookSecret).toBe("whsec_plainly_stored");
    expect((await store.busy.byId(sourceId))!.secret).toBe("plainly-stored-password");
  });

  it("reads what an old key sealed while it is listed beside the new one, and re-encrypts it with the new key", async () => {
    const db = database();
    const [oldKey, newer, unrelated] = [newKey(), newKey(), newKey()];
    const { eventTypeId, sourceId } = await eventTypeWithCalendar(await db.open(new SecretBox(oldKey)), "whsec_rotated", "password-rotated");
    await cleanups.pop()!();
    expect((await db.secretsStored()).webhook).toEqual([expect.stringMatching(SEALED_BY(oldKey))]);

    const rotated = await db.open(new SecretBox(newer, [oldKey]));
    expect((await rotated.eventTypes.byId(eventTypeId))!.webhookSecret).toBe("whsec_rotated");
    expect((await rotated.busy.byId(sourceId))!.secret).toBe("password-rotated");
    const stored = await db.secretsStored();
    expect(stored.webhook).toEqual([expect.stringMatching(SEALED_BY(newer))]);
    expect(stored.calendar).toEqual([expect.stringMatching(SEALED_BY(newer))]);
    await cleanups.pop()!();

    // Once re-encrypted, the old key is no longer needed...
    const after = await db.open(new SecretBox(newer));
    expect((await after.busy.byId(sourceId))!.secret).toBe("password-rotated");
    await cleanups.pop()!();
    // ...and a key that never sealed them refuses to open the store, naming the key it needs.
    const wrong = db.open(new SecretBox(unrelated));
    await expect(wrong).rejects.toThrow(SecretKeyError);
    await expect(wrong).rejects.toThrow(
      `Cannot read the webhook signing secret of event type #${eventTypeId}: it was encrypted with key ${newer.id}, which is neither BOOKING_SECRET_KEY (key ${unrelated.id}) nor listed in BOOKING_SECRET_KEYS_OLD`,
    );
  });

  it("does not open a sealed secret moved into another column, or altered", async () => {
    const box = new SecretBox(newKey());
    const sealed = box.seal("password", "calendar");
    expect(box.open(sealed, "calendar")).toBe("password");
    expect(() => box.open(sealed, "webhook")).toThrow(SecretKeyError);
    const body = sealed.slice(sealed.lastIndexOf(":") + 1);
    const altered = sealed.slice(0, sealed.lastIndexOf(":") + 1) + (body[0] === "A" ? "B" : "A") + body.slice(1);
    expect(() => box.open(altered, "calendar")).toThrow("does not decrypt");
    // A fresh nonce each time: the same secret never reads the same twice.
    expect(box.seal("password", "calendar")).not.toBe(sealed);
  });
});

describe("the secret key setting", () => {
  it("is required in production, and says how to make one", () => {
    expect(() => configFromEnv({ BOOKING_ENV: "production", BOOKING_PUBLIC_URL: "https://book.example.com" })).toThrow(
      "BOOKING_SECRET_KEY must be set in production: calendar passwords and webhook signing secrets are encrypted with it. Make one with: openssl rand -base64 32",
    );
    const key = randomBytes(32);
    const config = configFromEnv({ BOOKING_ENV: "production", BOOKING_PUBLIC_URL: "https://book.example.com", BOOKING_SECRET_KEY: key.toString("base64") });
    expect(config.secretKeys.current).toEqual(secretKeyOf(key));
    expect(configFromEnv({}).secretKeys).toEqual({ current: null, old: [] });
  });

  it("takes 32 bytes in base64 or hex, old keys comma-separated, and names a malformed one without echoing it", () => {
    const [a, b] = [randomBytes(32), randomBytes(32)];
    const config = configFromEnv({ BOOKING_SECRET_KEY: a.toString("hex"), BOOKING_SECRET_KEYS_OLD: ` ${b.toString("base64url")} , ${a.toString("base64")}` });
    expect(config.secretKeys.current!.id).toBe(secretKeyOf(a).id);
    expect(config.secretKeys.old.map((k) => k.id)).toEqual([secretKeyOf(b).id, secretKeyOf(a).id]);
    for (const bad of ["hunter2", randomBytes(16).toString("base64"), randomBytes(33).toString("hex")]) {
      let message = "";
      try {
        configFromEnv({ BOOKING_SECRET_KEY: bad });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe("BOOKING_SECRET_KEY must be 32 random bytes in base64 or hex; make one with: openssl rand -base64 32");
    }
    expect(() => configFromEnv({ BOOKING_SECRET_KEY: a.toString("base64"), BOOKING_SECRET_KEYS_OLD: "nope" })).toThrow(
      "BOOKING_SECRET_KEYS_OLD (key 1) must be 32 random bytes",
    );
    expect(parseSecretKey(a.toString("base64"), "x").id).toMatch(/^[0-9a-f]{8}$/);
  });
});

// Processes of `npm start` do not depend on the suite's engine: run once, on SQLite.
describe.skipIf(ENGINE === "postgres")("npm start and the secret key", () => {
  /** Runs `src/main.ts` until it exits (it is expected to refuse to start); its exit code and what it printed to stderr. */
  async function refusedStart(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
    const proc = Bun.spawn([process.execPath, "src/main.ts"], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH ?? "", PORT: "0", STRIPE_STANDIN: "0", ...env },
      stdout: "pipe",
      stderr: "pipe",
    });
    // Were it to start after all, it must not outlive the test.
    cleanups.push(() => proc.kill());
    return { code: await proc.exited, stderr: await new Response(proc.stderr).text() };
  }

  async function started(env: Record<string, string>): Promise<ServerProcess> {
    const server = await startServerProcess({ STRIPE_STANDIN: "0", ...env });
    cleanups.push(() => server.stop());
    return server;
  }

  it("refuses to start in production without BOOKING_SECRET_KEY, with one line saying why", async () => {
    const db = database();
    const { code, stderr } = await refusedStart({ BOOKING_ENV: "production", BOOKING_PUBLIC_URL: "https://book.example.com", BOOKING_DB: db.path });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      "Could not start: BOOKING_SECRET_KEY must be set in production: calendar passwords and webhook signing secrets are encrypted with it. Make one with: openssl rand -base64 32 (and keep a copy apart from the database's backups)",
    );
  });

  it("refuses to start with a key that did not seal the stored secrets, and starts once the old key is listed", async () => {
    const db = database();
    const [oldKey, newer] = [randomBytes(32), randomBytes(32)];
    const { eventTypeId } = await eventTypeWithCalendar(await db.open(new SecretBox(secretKeyOf(oldKey))), "whsec_started", "password-started");
    await cleanups.pop()!();

    const refused = await refusedStart({ BOOKING_DB: db.path, BOOKING_SECRET_KEY: newer.toString("base64") });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `Could not start: Cannot read the webhook signing secret of event type #${eventTypeId}: it was encrypted with key ${secretKeyOf(oldKey).id}, which is neither BOOKING_SECRET_KEY (key ${secretKeyOf(newer).id}) nor listed in BOOKING_SECRET_KEYS_OLD; set the key it was encrypted with.`,
    );

    const server = await started({ BOOKING_DB: db.path, BOOKING_SECRET_KEY: newer.toString("base64"), BOOKING_SECRET_KEYS_OLD: oldKey.toString("hex") });
    expect((await fetch(`${server.base}/health`)).status).toBe(200);
    const stored = await db.secretsStored();
    expect(stored.webhook).toEqual([expect.stringMatching(SEALED_BY(secretKeyOf(newer)))]);
    expect(stored.calendar).toEqual([expect.stringMatching(SEALED_BY(secretKeyOf(newer)))]);
  });

  it("keeps a development key beside the SQLite file when none is set, and reads with it after a restart", async () => {
    const db = database();
    const first = await started({ BOOKING_DB: db.path, BOOKING_SECRET_KEY: "" });
    await first.waitForOutput("Try: curl");
    const keyFile = join(db.dir, "secret.key");
    expect(first.output()).toContain(`encrypted with a development key written to ${keyFile}`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = parseSecretKey(await Bun.file(keyFile).text(), "the key file");
    await cleanups.pop()!();

    const second = await started({ BOOKING_DB: db.path, BOOKING_SECRET_KEY: "" });
    await second.waitForOutput("The admin API (/admin)");
    expect(second.output()).not.toContain("development key written");
    // The demo's webhook secrets, sealed by the first run with the kept key, open in the second.
    // The demo's four event types: three of the default host and the two hosts' round-robin team.
    expect((await db.secretsStored()).webhook).toEqual(Array.from({ length: 4 }, () => expect.stringMatching(SEALED_BY(key))));
    expect(existsSync(keyFile)).toBe(true);
  });
});

/** The log entries as text, errors with their message and stack, as a log sink would write them. */
const logText = (logs: LogEntry[]) =>
  JSON.stringify(
    logs.map((e) => ({ ...e, error: e.error instanceof Error ? `${e.error.message}\n${e.error.stack}` : e.error === undefined ? undefined : String(e.error) })),
  );

describe("secrets in errors and logs", () => {
  it("names a URL in a text by scheme, host and path only, leaving the sentence around it as it is", () => {
    expect(redactUrls("the answer to GET https://me:pw@cal.example.com:8443/feeds/me.ics?token=t0k3n#x is larger than 10 bytes")).toBe(
      "the answer to GET https://cal.example.com:8443/feeds/me.ics is larger than 10 bytes",
    );
    expect(redactUrls("cannot read http://127.0.0.1:8080/me.ics?key=s3cret: not iCalendar (see webcal://h.example/p?x=1).")).toBe(
      "cannot read http://127.0.0.1:8080/me.ics: not iCalendar (see webcal://h.example/p).",
    );
    expect(redactUrls("cannot read /dav/me/work/event.ics: no VEVENT")).toBe("cannot read /dav/me/work/event.ics: no VEVENT");
  });

  it("keeps calendar passwords, tokens in feed queries and webhook signing secrets out of the sources' errors and the logs after failing syncs and a webhook delivery", async () => {
    const env = await setup();
    const servers: { stop: () => unknown }[] = [];
    cleanups.push(() => {
      for (const s of servers) s.stop();
    });
    const serve = (fetch: (request: Request) => Response) => {
      const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch });
      servers.push({ stop: () => server.stop(true) });
      return `http://127.0.0.1:${server.port}`;
    };
    // A receiver that has gone away (410), at an address whose query carries a token.
    const receiver = serve(() => new Response("gone", { status: 410 }));
    const hookUrl = `${receiver}/hooks?token=hook-query-token`;
    const created = await env.admin("POST", "/admin/event-types", { title: "Intro call", slug: "intro-call", timezone: "Europe/Prague", webhookUrl: hookUrl });
    expect(created.status).toBe(200);
    const { id, token, webhookSecret } = created.body.data as { id: number; token: string; webhookSecret: string };
    expect(webhookSecret.length).toBeGreaterThan(10);

    // A feed no program writes (refused unread), and a feed and a CalDAV server whose connections
    // drop before any answer: each fails its sync with a message naming its URL.
    const notACalendar = serve(() => new Response(zoneRepeating("HOURLY"), { headers: { "content-type": "text/calendar" } }));
    const dropping = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => dropping.listen(0, "127.0.0.1", resolve));
    servers.push({ stop: () => dropping.close() });
    const droppingPort = (dropping.address() as { port: number }).port;
    const sources = [
      { kind: "ical", url: `${notACalendar}/me.ics?token=feed-query-token-1` },
      { kind: "ical", url: `http://127.0.0.1:${droppingPort}/me.ics?token=feed-query-token-2`, token: "feed-bearer-token" },
      { kind: "caldav", url: `http://127.0.0.1:${droppingPort}/dav/?token=feed-query-token-3`, username: "me", password: "calendar-password" },
    ];
    const secrets = [
      "hook-query-token",
      webhookSecret,
      "feed-query-token",
      "feed-bearer-token",
      "calendar-password",
      Buffer.from("me:calendar-password").toString("base64"),
    ];

    // A URL with credentials in it is refused, pointing to the fields.
    const inUrl = await env.admin("POST", `/admin/event-types/${id}/busy-sources`, {
      kind: "caldav",
      url: "https://me:calendar-password@dav.example.com/dav/",
    });
    expect(inUrl.status).toBe(422);
    expect(inUrl.body.errors.url).toEqual(["Send the user name and password as fields, not in the URL."]);

    const answers: unknown[] = [];
    for (const source of sources) {
      const added = await env.admin("POST", `/admin/event-types/${id}/busy-sources`, source);
      expect(added.status).toBe(200);
      const synced = await env.admin("POST", `/admin/busy-sources/${added.body.data.id}/sync`);
      expect(synced.status).toBe(200);
      expect(synced.body.data).toMatchObject({ state: "done", sync: { ok: false }, source: { status: "failing" } });
      answers.push(synced.body.data.sync.error, synced.body.data.source.lastError, synced.body.data.source.skippedObjects);
      // The error still says which calendar failed: scheme, host and path.
      expect(synced.body.data.source.lastError).toContain(new URL(source.url).host);
    }
    expect(answers[0]).toMatch(new RegExp(`cannot read ${notACalendar}/me\\.ics: `));
    expect(answers[3]).toMatch(new RegExp(`GET http://127\\.0\\.0\\.1:${droppingPort}/me\\.ics failed 3 times`));
    expect(answers[6]).toMatch(new RegExp(`PROPFIND http://127\\.0\\.0\\.1:${droppingPort}/\\S* failed 3 times`));

    const booked = await env.call("POST", "/reservations", {
      token,
      body: { start: "2026-11-24T15:00:00+01:00", end: "2026-11-24T15:30:00+01:00", email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" },
    });
    expect(booked.body.success).toBe(true);
    const worker = new WebhookWorker(env.store, env.clock, { allowPrivateAddresses: true }, (e) => env.logs.push(e));
    while ((await worker.runOnce()) > 0);
    expect(env.logs.map((e) => e.message)).toContainEqual(`webhook endpoint ${receiver}/hooks answered 410; disabled for event type ${id}`);

    const listed = await env.admin("GET", `/admin/event-types/${id}/busy-sources`);
    const shown = JSON.stringify([
      answers,
      listed.body.data.map((s: { lastError: string | null; skippedObjects: unknown }) => [s.lastError, s.skippedObjects]),
    ]);
    const logged = logText(env.logs);
    expect(env.logs.filter((e) => /failed to sync/.test(e.message))).toHaveLength(3);
    for (const secret of secrets) {
      expect(shown, `a source's error shows ${secret}`).not.toContain(secret);
      expect(logged, `the logs show ${secret}`).not.toContain(secret);
    }
  });
});
