import type { EventTypeCreate } from "@booking/wire";
import type Stripe from "stripe";
import type { BusySource } from "../src/domain/busy.ts";
import { expect } from "vitest";
import { createApp } from "../src/app.ts";
import { ManualClock } from "../src/clock.ts";
import { DEFAULT_CONFIG, type ServerConfig } from "../src/config.ts";
import type { LogEntry } from "../src/context.ts";
import { EventTypeAdmin } from "../src/modules/event-types/organizer.ts";
import pg from "pg";
import { openPostgresStore } from "../src/store/postgres/index.ts";
import { openSqliteStore } from "../src/store/sqlite/index.ts";
import type { ReservationRecord } from "../src/store/reservations.ts";
import type { Store } from "../src/store/store.ts";
import type { CalendarDependencies } from "../src/services.ts";

export const ADMIN_KEY = "test-admin-key-0123456789";

/** A parsed answer of the app. */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/**
 * The engine the suite runs on: `sqlite` by default, `postgres` in the suite's PostgreSQL project
 * (vitest.config.ts), where every app gets a schema of its own on the test database.
 */
export const ENGINE: "sqlite" | "postgres" = process.env.BOOKING_TEST_ENGINE === "postgres" ? "postgres" : "sqlite";

/** The PostgreSQL database tests use (trust auth on the development and CI machines). */
export const POSTGRES_URL = process.env.BOOKING_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * Why the tests that need PostgreSQL themselves (several server processes on one database) are
 * skipped: its connection error when it cannot be reached, or null to run them. Under CI (CI=true)
 * always null, so an unreachable PostgreSQL fails those tests rather than skipping them.
 */
export async function postgresSkipReason(): Promise<string | null> {
  if (process.env.CI === "true") return null;
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const opened = new Set<Store>();
const schemas: string[] = [];
/** Where each test store keeps its data, so another instance can open the same database (`openTestStoreBeside`). */
const locations = new WeakMap<Store, { schema: string } | { path: string }>();

/** A fresh store of the suite's engine; a file path asks for SQLite on that file whatever the engine. */
export async function openTestStore(databasePath?: string, rateLimit?: { limit: number; windowSeconds: number }): Promise<Store> {
  let store: Store;
  if (ENGINE === "postgres" && databasePath === undefined) {
    const schema = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    schemas.push(schema);
    store = await openPostgresStore(POSTGRES_URL, { schema, poolSize: 4, rateLimit: rateLimit ?? DEFAULT_CONFIG.rateLimit });
    locations.set(store, { schema });
  } else {
    store = openSqliteStore(databasePath ?? ":memory:");
    if (databasePath !== undefined) locations.set(store, { path: databasePath });
  }
  const close = store.close.bind(store);
  let closed: Promise<void> | null = null;
  // Tests may close their store themselves; the suite closes whatever is left after each test.
  (store as { close: () => Promise<void> }).close = () => {
    opened.delete(store);
    closed ??= close();
    return closed;
  };
  opened.add(store);
  return store;
}

/**
 * A second store on the database of `store` (its PostgreSQL schema, or its SQLite file), as another
 * server instance opens it; closed after the test like the first. An in-memory SQLite store has none.
 */
export async function openTestStoreBeside(store: Store, rateLimit = DEFAULT_CONFIG.rateLimit): Promise<Store> {
  const at = locations.get(store);
  if (!at) throw new Error("this store's database cannot be opened twice (in-memory SQLite)");
  let second: Store;
  if ("schema" in at) second = await openPostgresStore(POSTGRES_URL, { schema: at.schema, poolSize: 4, rateLimit });
  else second = openSqliteStore(at.path);
  const close = second.close.bind(second);
  let closed: Promise<void> | null = null;
  (second as { close: () => Promise<void> }).close = () => {
    opened.delete(second);
    closed ??= close();
    return closed;
  };
  opened.add(second);
  return second;
}

/** Where a test store keeps its data (its PostgreSQL schema or SQLite file), for a test that reaches the database past the store; none for in-memory SQLite. */
export function databaseOf(store: Store): { schema: string } | { path: string } | undefined {
  return locations.get(store);
}

/** Closes every store a test left open and (PostgreSQL) drops the schemas made for it. */
export async function releaseTestStores(): Promise<void> {
  await Promise.all([...opened].map((s) => s.close()));
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    for (const schema of schemas.splice(0)) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** A fresh app on a fresh real database of the suite's engine, with a clock that stands still. */
export async function setup(
  options: {
    now?: string;
    config?: Partial<ServerConfig>;
    databasePath?: string;
    calendarScriptPath?: string;
    stripe?: Stripe;
    busy?: BusySource;
    calendars?: CalendarDependencies;
  } = {},
) {
  const store = await openTestStore(options.databasePath, options.config?.rateLimit);
  const clock = new ManualClock(options.now ?? "2026-11-23T07:00:00Z");
  const logs: LogEntry[] = [];
  const app = createApp({
    store,
    clock,
    config: { adminKey: ADMIN_KEY, ...options.config },
    log: (e) => logs.push(e),
    ...(options.calendarScriptPath ? { calendarScriptPath: options.calendarScriptPath } : {}),
    ...(options.stripe ? { stripe: options.stripe } : {}),
    ...(options.busy ? { busy: options.busy } : {}),
    ...(options.calendars ? { calendars: options.calendars } : {}),
  });

  /** Sends a request through `app.handle`, as a client would over HTTP. */
  async function call(
    method: string,
    path: string,
    init: { token?: string | null; body?: unknown; rawBody?: BodyInit; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: BodyInit | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  /** Creates an event type through the organizer service and returns its id and tokens. */
  async function eventType(input: Partial<EventTypeCreate> = {}) {
    const created = await new EventTypeAdmin(store, () => clock.now()).create({ title: "Intro call", timezone: "Europe/Prague", ...input });
    return { id: created.id, token: created.token, overrideToken: created.overrideToken };
  }

  return { app, store, clock, logs, call, eventType, admin: (method: string, path: string, body?: unknown) => call(method, path, { token: ADMIN_KEY, body }) };
}

let counter = 0;

/** The first host of an event type: whose calendars block it, and whom its bookings take. */
export async function hostOf(store: Store, eventTypeId: number): Promise<number> {
  const et = await store.eventTypes.byId(eventTypeId);
  if (!et) throw new Error(`no event type ${eventTypeId}`);
  return et.hosts[0]!.hostId;
}

/** The default host of a fresh test store (id 1 on both engines), which event types created without hosts belong to. */
export const DEFAULT_HOST_ID = 1;

/** A stored reservation for seat tests; the booking flow itself belongs to the reservation routes. */
export function reservation(eventTypeId: number, startIso: string, minutes: number, extra: Partial<ReservationRecord> = {}): ReservationRecord {
  const startMs = Date.parse(startIso);
  counter++;
  return {
    uuid: crypto.randomUUID(),
    eventTypeId,
    hostIds: [DEFAULT_HOST_ID],
    status: "confirmed",
    startMs,
    endMs: startMs + minutes * 60_000,
    heldUntilMs: null,
    email: `visitor${counter}@example.com`,
    firstname: "Ada",
    lastname: "Lovelace",
    phone: "",
    timezone: null,
    location: { type: "video-meet", value: null },
    guests: [],
    customFields: [],
    meetLink: null,
    sequence: 0,
    cancelReason: null,
    payment: null,
    confirmedAtMs: startMs - 86_400_000,
    cancelledAtMs: null,
    createdAtMs: startMs - 86_400_000,
    updatedAtMs: startMs - 86_400_000,
    ...extra,
  };
}

/** A fresh secret for a host's booking feed, for hosts a test makes through the store itself. */
export function newFeedToken(): string {
  return `bcf_${crypto.randomUUID().replaceAll("-", "")}`;
}

/** Every store-backed test closes its database. */
export async function closeAll(...stores: Store[]): Promise<void> {
  for (const s of stores) await s.close();
}

/** Asserts a refusal in the spec's JSON error: the HTTP status, JSON, success false, the status and code. */
export function expectError(r: Answer, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  expect(r.body).toMatchObject({ success: false, status, code });
}

/** A host made through the admin API (its email made from its name), by its id. */
export async function createHost(
  env: { admin: (method: string, path: string, body?: unknown) => Promise<Answer> },
  name: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const r = await env.admin("POST", "/admin/hosts", {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`,
    timezone: "Europe/Prague",
    ...extra,
  });
  expect(r.status, r.text).toBe(200);
  return r.body.data.id as number;
}

/** Asserts a business failure: HTTP 200, success false, the code. */
export function expectFailure(r: Answer, code: string): void {
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ success: false, code });
  expect(typeof r.body.message).toBe("string");
}

/** The data of a successful answer, after asserting it is one: HTTP 200, success true. */
export function dataOf(r: Answer): any {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.success, JSON.stringify(r.body)).toBe(true);
  return r.body.data;
}

/** Waits until `condition` holds, checking every 50 ms; fails after `timeoutMs`, saying `what` was awaited. */
export async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}, in vain`);
    await Bun.sleep(50);
  }
}
