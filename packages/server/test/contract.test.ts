import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { describe, expect, it } from "vitest";
import { setup } from "./utils.ts";

const PUBLIC_ROUTES: [string, string][] = [
  ["GET", "/time-slots?from=2026-11-23&until=2026-11-24"],
  ["GET", "/configuration"],
  ["POST", "/event-types/init"],
  ["GET", "/timezones"],
];

/** A route as the router lists it, with the `params` schema it declares. */
interface ListedRoute {
  method: string;
  path: string;
  hooks?: { params?: unknown };
}

/**
 * What is wrong with the routes' path parameters: a `:name` in a path that the route's `params`
 * schema does not declare (its handler would get an unchecked string, and the document a bare
 * string), a declared parameter the path does not have, or one without a description.
 */
function pathParamProblems(routes: readonly ListedRoute[]): string[] {
  return routes.flatMap((r) => {
    const declared = (r.hooks?.params as { properties?: Record<string, { description?: string }> } | undefined)?.properties ?? {};
    const named = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    return [
      ...named.filter((name) => !declared[name]).map((name) => `${r.method} ${r.path}: :${name} is not declared in params`),
      ...Object.keys(declared)
        .filter((name) => !named.includes(name))
        .map((name) => `${r.method} ${r.path}: params declares ${name}, which the path does not name`),
      ...Object.entries(declared)
        .filter(([name, schema]) => named.includes(name) && !schema.description)
        .map(([name]) => `${r.method} ${r.path}: :${name} has no description`),
    ];
  });
}

function expectErrorBody(body: any, status: number, code: string) {
  expect(body).toMatchObject({ success: false, status, code });
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  expect(typeof body.hint).toBe("string");
  expect(body.docs).toMatch(new RegExp(`/docs#error-${code}$`));
}

describe("headers on every response", () => {
  it("sends Service-Api-Version, a unique apigw-requestid and the four rate limit headers on successes and errors alike", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const answers = [
      await call("GET", "/configuration", { token }),
      await call("GET", "/timezones"),
      await call("GET", "/configuration"),
      await call("GET", "/no-such-path"),
      await call("DELETE", "/configuration", { token }),
      await call("POST", "/event-types/init", { token, rawBody: "{", headers: { "content-type": "application/json" } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 405, 400]);
    const ids = new Set<string>();
    for (const a of answers) {
      expect(a.headers.get("service-api-version")).toBe("1");
      expect(a.headers.get("content-type")).toMatch(/^application\/json/);
      const id = a.headers.get("apigw-requestid");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(id!);
      expect(a.headers.get("ratelimit-policy")).toBe("60;w=60");
      expect(a.headers.get("ratelimit")).toMatch(/^limit=60, remaining=\d+, reset=\d+$/);
      expect(a.headers.get("x-ratelimit-limit")).toBe("60");
      expect(a.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    }
    expect(ids.size).toBe(answers.length);
  });

  it("counts remaining requests down per token and reports the seconds left in the window", async () => {
    const { call, eventType, clock } = await setup({ now: "2026-11-23T07:00:15Z" });
    const { token } = await eventType();
    const first = await call("GET", "/configuration", { token });
    const second = await call("GET", "/configuration", { token });
    expect(first.headers.get("x-ratelimit-remaining")).toBe("59");
    expect(second.headers.get("x-ratelimit-remaining")).toBe("58");
    expect(second.headers.get("ratelimit")).toBe("limit=60, remaining=58, reset=45");
    clock.advance(1);
    const nextWindow = await call("GET", "/configuration", { token });
    expect(nextWindow.headers.get("x-ratelimit-remaining")).toBe("59");
  });
});

describe("rate limiting", () => {
  it("answers the 61st request of a token in one window with 429 rate_limited and Retry-After", async () => {
    const { call, eventType } = await setup({ now: "2026-11-23T07:00:20Z" });
    const { token } = await eventType();
    for (let i = 0; i < 60; i++) expect((await call("GET", "/configuration", { token })).status).toBe(200);
    const limited = await call("GET", "/configuration", { token });
    expect(limited.status).toBe(429);
    expectErrorBody(limited.body, 429, "rate_limited");
    expect(limited.headers.get("retry-after")).toBe("40");
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("service-api-version")).toBe("1");
  });

  it("keeps separate budgets for two tokens and for callers without a token", async () => {
    const { call, eventType } = await setup();
    const a = await eventType({ title: "A" });
    const b = await eventType({ title: "B" });
    for (let i = 0; i < 60; i++) await call("GET", "/configuration", { token: a.token });
    expect((await call("GET", "/configuration", { token: a.token })).status).toBe(429);
    expect((await call("GET", "/configuration", { token: b.token })).status).toBe(200);
    expect((await call("GET", "/timezones")).status).toBe(200);
  });

  it("lets a token book again once the window has turned", async () => {
    const { call, eventType, clock } = await setup({ now: "2026-11-23T07:00:59Z" });
    const { token } = await eventType();
    for (let i = 0; i < 60; i++) await call("GET", "/configuration", { token });
    expect((await call("GET", "/configuration", { token })).headers.get("retry-after")).toBe("1");
    clock.set("2026-11-23T07:01:00Z");
    expect((await call("GET", "/configuration", { token })).status).toBe(200);
  });
});

describe("authentication", () => {
  it.each(PUBLIC_ROUTES.filter(([, p]) => p !== "/timezones"))("answers %s %s without a token with 401 unauthenticated", async (method, path) => {
    const { call } = await setup();
    const r = await call(method, path);
    expect(r.status).toBe(401);
    expectErrorBody(r.body, 401, "unauthenticated");
  });

  it.each(["Bearer nope", "Basic dXNlcjpwYXNz", "Bearer ", "bearer\tx", `Bearer ${"x".repeat(600)}`, "Bearer tok\u00e9n"])(
    "answers 401 unauthenticated for the Authorization header %j",
    async (header) => {
      const { call } = await setup();
      const r = await call("GET", "/configuration", { headers: { authorization: header } });
      expect(r.status).toBe(401);
      expectErrorBody(r.body, 401, "unauthenticated");
    },
  );

  it("scopes a token to its own event type", async () => {
    const { call, eventType } = await setup();
    const a = await eventType({ title: "Alpha call" });
    const b = await eventType({ title: "Beta call", durationMinutes: 45 });
    const configA = await call("GET", "/configuration", { token: a.token });
    const configB = await call("GET", "/configuration", { token: b.token });
    expect(configA.body.data.configuration.title).toBe("Alpha call");
    expect(configB.body.data.configuration.title).toBe("Beta call");
    expect(configB.body.data.configuration.durationMinutes).toBe(45);
  });

  it("answers a disabled event type with 403 event_type_disabled except on init", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType({ disabled: true });
    for (const [method, path] of PUBLIC_ROUTES.filter(([, p]) => p !== "/timezones" && p !== "/event-types/init")) {
      const r = await call(method, path, { token });
      expect(r.status).toBe(403);
      expectErrorBody(r.body, 403, "event_type_disabled");
    }
    const init = await call("POST", "/event-types/init", { token });
    expect(init.status).toBe(200);
    expect(init.body.data.disabled).toBe(true);
  });

  it("checks the token before the query, so a bad query without a token is still 401", async () => {
    const { call } = await setup();
    const r = await call("GET", "/time-slots?from=nonsense");
    expect(r.status).toBe(401);
  });

  it("answers a disabled event type with 403 even when the query is also invalid", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType({ disabled: true });
    const r = await call("GET", "/time-slots?from=nonsense", { token });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("event_type_disabled");
  });

  it("answers every route under /admin with 401 unauthenticated without credentials, before it reads the body or query", async () => {
    const { app, call } = await setup();
    const organizer = app.routes.filter((r) => r.path.startsWith("/admin/") && r.method !== "HEAD");
    // Each feature mounts its own organizer routes: all of them, not some, must be behind the guard.
    expect(organizer.length).toBeGreaterThan(40);
    const answered: string[] = [];
    for (const route of organizer) {
      // A query and a body that no route accepts: a route that checked them before the credentials would answer 422.
      const path = `${route.path.replace(/:(\w+)/g, (_, name: string) => (name === "uuid" || name === "sessionId" ? crypto.randomUUID() : "1"))}?from=nonsense&limit=0`;
      const r = await call(route.method, path, route.method === "GET" || route.method === "DELETE" ? {} : { body: { unknown: true } });
      answered.push(`${r.status} ${r.body?.code} ${route.method} ${route.path}`);
    }
    expect(answered.filter((line) => !line.startsWith("401 unauthenticated "))).toEqual([]);
  });

  it("answers an event type token on the admin API with 403 forbidden", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const r = await call("GET", "/admin/event-types", { token });
    expect(r.status).toBe(403);
    expectErrorBody(r.body, 403, "forbidden");
    expect(r.body.hint).toContain("BOOKING_ADMIN_KEY");
  });
});

describe("errors are JSON", () => {
  it("answers an unknown path with 404 not_found as JSON even without an Accept header", async () => {
    const { call } = await setup();
    const r = await call("GET", "/wp-admin/index.php");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expectErrorBody(r.body, 404, "not_found");
  });

  it("answers a wrong method with 405 method_not_allowed and an Allow header", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const r = await call("PUT", "/time-slots", { token });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET");
    expectErrorBody(r.body, 405, "method_not_allowed");
    const alias = await call("GET", "/booking-api/event-types/init", { token });
    expect(alias.status).toBe(405);
    expect(alias.headers.get("allow")).toBe("POST");
  });

  it.each([
    ["a truncated object", '{"reservationUuid": '],
    ["plain text", "hello"],
    ["a trailing comma", '{"a":1,}'],
  ])("answers %s as body with 400 bad_request", async (_name, raw) => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const r = await call("POST", "/event-types/init", { token, rawBody: raw, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expectErrorBody(r.body, 400, "bad_request");
  });

  it("answers a body that is not UTF-8 with 400 bad_request", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const r = await call("POST", "/event-types/init", {
      token,
      rawBody: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("bad_request");
  });

  it("answers a body over 64 KiB with 413 payload_too_large", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const big = JSON.stringify({ reservationUuid: "x".repeat(70 * 1024) });
    const r = await call("POST", "/event-types/init", { token, rawBody: big, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(413);
    expectErrorBody(r.body, 413, "payload_too_large");
  });

  it("answers a body of the wrong JSON type with 422 validation_failed", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    for (const body of [[1, 2], "text", 42, { reservationUuid: 12 }, { reservationUuid: "not-a-uuid" }]) {
      const r = await call("POST", "/event-types/init", { token, body });
      expect(r.status).toBe(422);
      expectErrorBody(r.body, 422, "validation_failed");
      expect(typeof r.body.errors).toBe("object");
      expect(Object.keys(r.body.errors).length).toBeGreaterThan(0);
    }
  });

  it("refuses unknown keys in a JSON body with 422, so a misspelt field never goes missing silently", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const r = await call("POST", "/event-types/init", { token, body: { reservationUUID: "9b2c0f5e-6f4a-4d3b-9c1e-2f3a4b5c6d7e" } });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toContain("reservationUUID");
  });

  it("ignores unknown query parameters such as cache busters", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const plain = await call("GET", "/time-slots?from=2026-11-24&until=2026-11-24", { token });
    const busted = await call("GET", "/time-slots?from=2026-11-24&until=2026-11-24&_=1732170000&utm_source=x", { token });
    expect(busted.status).toBe(200);
    expect(busted.body).toEqual(plain.body);
  });

  it("keys validation errors by field", async () => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const r = await call("POST", "/event-types/init", { token, body: { reservationUuid: "123" } });
    expect(Object.keys(r.body.errors)).toEqual(["reservationUuid"]);
    expect(r.body.errors.reservationUuid[0]).toEqual(expect.any(String));
  });

  it("answers an unexpected failure with 500 internal_error without leaking internals, and logs it with the request id", async () => {
    const { call, eventType, store, logs } = await setup();
    const { token } = await eventType();
    store.eventTypes.byTokenHash = async () => {
      throw new Error("disk on fire at /var/secret/path");
    };
    const r = await call("GET", "/configuration", { token });
    expect(r.status).toBe(500);
    expectErrorBody(r.body, 500, "internal_error");
    expect(r.text).not.toContain("disk on fire");
    expect(r.text).not.toContain("/var/secret");
    expect(r.text).not.toMatch(/at .*\.ts/);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.requestId).toBe(r.headers.get("apigw-requestid"));
  });
});

describe("path parameters", () => {
  it("answers an id that is not one with the route's 404 and the same sentence as an unknown id, never a 422 or a 500", async () => {
    const { admin } = await setup();
    const cases: [string, string, string][] = [
      ["GET", "/admin/event-types/abc", "No event type with id abc."],
      ["GET", "/admin/event-types/999", "No event type with id 999."],
      ["GET", "/admin/event-types/1e3", "No event type with id 1e3."],
      ["GET", "/admin/event-types/-1", "No event type with id -1."],
      ["GET", "/admin/event-types/1234567890123", "No event type with id 1234567890123."],
      ["GET", "/admin/hosts/0x10", "No host with id 0x10."],
      ["GET", "/admin/busy-sources/seven", "No busy source with id seven."],
      ["GET", "/admin/event-types/abc/reservations?from=2026-12-01&until=2026-12-02", "No event type with id abc."],
      // A segment that does not even decode names nothing either.
      ["GET", "/admin/hosts/%ZZ", "No host with this id."],
      ["DELETE", "/admin/sessions/not-a-session", "No live console session with this id."],
    ];
    for (const [method, path, message] of cases) {
      const r = await admin(method, path);
      expect(r.status, path).toBe(404);
      expectErrorBody(r.body, 404, "not_found");
      expect(r.body.message, path).toBe(message);
    }
    // The path is judged before the body: a malformed id with a wrong body is still unknown.
    const both = await admin("PATCH", "/admin/event-types/abc", { title: 5 });
    expect([both.status, both.body.message]).toEqual([404, "No event type with id abc."]);
    // Of two malformed segments, the first in the path is named.
    const retry = await admin("POST", "/admin/event-types/abc/deliveries/xyz/retry");
    expect([retry.status, retry.body.message]).toEqual([404, "No event type with id abc."]);
  });

  it("gives the handler the id as the number it names, leading zeros and all", async () => {
    const { admin } = await setup();
    const created = await admin("POST", "/admin/event-types", { title: "Intro call" });
    const id: number = created.body.data.id;
    const r = await admin("GET", `/admin/event-types/00${id}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id, title: "Intro call" });
  });

  it("answers a booking's malformed uuid with 404 naming it and its event type", async () => {
    const { admin } = await setup();
    const created = await admin("POST", "/admin/event-types", { title: "Intro call" });
    const id: number = created.body.data.id;
    for (const path of [
      `/admin/event-types/${id}/reservations/not-a-uuid`,
      `/admin/event-types/${id}/reservations/not-a-uuid/time-slots?from=2026-12-01&until=2026-12-02`,
    ]) {
      const r = await admin("GET", path);
      expect(r.status, path).toBe(404);
      expect(r.body.message, path).toBe(`No reservation not-a-uuid of event type ${id}.`);
    }
  });

  it("checks the caller before the path: a malformed id without credentials is 401", async () => {
    const { call } = await setup();
    const r = await call("GET", "/admin/event-types/abc");
    expect(r.status).toBe(401);
    expectErrorBody(r.body, 401, "unauthenticated");
  });
});

describe("API version pinning", () => {
  it("accepts Service-Api-Version: 1", async () => {
    const { call } = await setup();
    expect((await call("GET", "/timezones", { headers: { "service-api-version": "1" } })).status).toBe(200);
  });

  it.each(["2", "0", "1.0", "v1", "", "1; drop table"])("answers the pinned version %j with 400 unsupported_api_version", async (version) => {
    const { call } = await setup();
    const r = await call("GET", "/timezones", { headers: { "service-api-version": version } });
    expect(r.status).toBe(400);
    expectErrorBody(r.body, 400, "unsupported_api_version");
  });
});

describe("the /booking-api alias", () => {
  it.each(PUBLIC_ROUTES)("serves %s %s under /booking-api with the same answer", async (method, path) => {
    const { call, eventType } = await setup();
    const { token } = await eventType();
    const direct = await call(method, path, { token });
    const alias = await call(method, `/booking-api${path}`, { token });
    expect(direct.status).toBe(200);
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual(direct.body);
  });

  it("answers unknown paths under the alias with 404 not_found", async () => {
    const { call } = await setup();
    const r = await call("GET", "/booking-api/nothing-here");
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
  });

  it("serves the alias under a configured prefix", async () => {
    const { call, eventType } = await setup({ config: { aliasPrefix: "/api/booking" } });
    const { token } = await eventType();
    expect((await call("GET", "/api/booking/configuration", { token })).status).toBe(200);
    expect((await call("GET", "/booking-api/configuration", { token })).status).toBe(404);
  });
});

describe("documentation", () => {
  it("has every route declare its answers and describe itself, and documents each once", async () => {
    const { app, call } = await setup();
    const routes = app.routes.filter((r) => !r.path.startsWith("/booking-api"));
    expect(routes.length).toBeGreaterThan(80);
    const undeclared = routes.filter((r) => {
      const response = r.hooks?.response as Record<string, unknown> | undefined;
      const detail = r.hooks?.detail as { operationId?: string; summary?: string; description?: string } | undefined;
      return !response?.[200] || !response[500] || !detail?.operationId || !detail.summary || !detail.description || detail.description.length < 20;
    });
    expect(undeclared.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    const document = (await call("GET", "/openapi.json")).body;
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`).sort());
  });

  it("has every path parameter declared, with a description, in its route's params", async () => {
    const { app } = await setup();
    const withParams = app.routes.filter((r) => r.path.includes(":"));
    expect(withParams.length).toBeGreaterThan(50);
    expect(pathParamProblems(app.routes)).toEqual([]);
  });

  it("finds a path parameter a route does not declare, one it declares in vain, and one without a description", () => {
    const routes = new Elysia()
      .get("/things/:thingId", () => "no params at all")
      .get("/things/:thingId/parts/:partId", () => "one of two", { params: t.Object({ thingId: t.String({ description: "The thing." }) }) })
      .get("/shelves/:shelfId", () => "a stale name and no description", {
        params: t.Object({ shelfId: t.String(), boxId: t.String({ description: "A box." }) }),
      })
      .get("/boxes/:boxId", () => "declared", { params: t.Object({ boxId: t.String({ description: "The box." }) }) }).routes;
    expect(pathParamProblems(routes)).toEqual([
      "GET /things/:thingId: :thingId is not declared in params",
      "GET /things/:thingId/parts/:partId: :partId is not declared in params",
      "GET /shelves/:shelfId: params declares boxId, which the path does not name",
      "GET /shelves/:shelfId: :shelfId has no description",
    ]);
  });

  it("serves every endpoint the console calls, with the method it names", async () => {
    const { app } = await setup();
    // The console's client is typed from this app's routes (packages/console/src/api.ts), so a call of a
    // route that is not there fails the type check. This holds the types to what the app serves: a route
    // whose type outlives it (a cast, a conditional mount) must fail here, not the console at run time.
    const sources = new Bun.Glob("**/*.ts").scan({ cwd: new URL("../../console/src", import.meta.url).pathname, absolute: true });
    const called = new Set<string>();
    for await (const file of sources) {
      for (const m of (await Bun.file(file).text()).matchAll(/"((?:GET|POST|PUT|PATCH|DELETE) \/(?:admin|console)[^"\s]*)"/g)) called.add(m[1]!);
    }
    expect(called.size).toBeGreaterThan(30);
    const served = new Set(app.routes.map((r) => `${r.method} ${r.path}`));
    expect([...called].filter((e) => !served.has(e))).toEqual([]);
  });

  it("fails a test whose answer its route does not declare", async () => {
    const { app } = await setup();
    // A route that answers a status it does not declare, as a new route written in haste would.
    const health = app.routes.find((r) => r.path === "/health")!;
    const response = health.hooks.response as Record<number, unknown>;
    const declared200 = response[200];
    delete response[200];
    try {
      await expect(app.handle(new Request("http://localhost/health"))).rejects.toThrow(/\/health declares no answer with status 200/);
    } finally {
      response[200] = declared200;
    }
    // An answer of the declared status in another shape.
    const configuration = app.routes.find((r) => r.path === "/timezones")!;
    const answers = configuration.hooks.response as Record<number, unknown>;
    const real = answers[200];
    // Marked like every declared answer, so that only the tests' check looks at it.
    answers[200] = { ...Type.Object({ success: Type.Literal(true), data: Type.Array(Type.Integer()) }), noValidate: true };
    try {
      await expect(app.handle(new Request("http://localhost/timezones"))).rejects.toThrow(/does not match the declared schema: \/data\/0/);
    } finally {
      answers[200] = real;
    }
  });

  it("serves an OpenAPI 3.1 document with every public operation", async () => {
    const { call } = await setup();
    const r = await call("GET", "/openapi.json");
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe("3.1.0");
    const ids = Object.values(r.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) =>
      Object.values(p).map((o) => o.operationId),
    );
    expect(ids).toEqual(
      expect.arrayContaining([
        "adminAddBusySource",
        "adminAddHostBusySource",
        "adminCancelReservation",
        "adminCreateHost",
        "adminCreateSchedule",
        "adminDeleteHost",
        "adminDeleteSchedule",
        "adminGetBusySource",
        "adminGetHost",
        "adminGetReservation",
        "adminGetSchedule",
        "adminListBusySourceCalendars",
        "adminListBusySources",
        "adminListHostBusySources",
        "adminListHostEventTypes",
        "adminListHostReservations",
        "adminListHosts",
        "adminListRescheduleTimeSlots",
        "adminListSchedules",
        "adminListSessions",
        "adminRemoveBusySource",
        "adminRescheduleReservation",
        "adminRevokeSession",
        "adminRotateHostFeedToken",
        "adminSearchReservations",
        "adminSendHostSignInLink",
        "adminStopWritingBookings",
        "adminSyncBusySource",
        "adminTestHostBusySource",
        "adminUpdateHost",
        "adminUpdateSchedule",
        "adminWriteBookingsToCalendar",
        "cancelReservation",
        "confirmReservation",
        "consoleGetSession",
        "consoleSignIn",
        "consoleSignOut",
        "createReservation",
        "createReservationPayment",
        "findFirstFreeDay",
        "getEventTypeConfiguration",
        "initEventType",
        "listTimeSlots",
        "listTimezones",
        "prepareReservation",
        "refreshReservation",
        "rescheduleReservation",
        // The event types' own routes, documented since the document is built from the routes.
        "adminListEventTypes",
        "adminCreateEventType",
        "adminGetEventType",
        "adminUpdateEventType",
        "adminDeleteEventType",
        "adminDisableEventType",
        "adminEnableEventType",
        "adminRotateFeedToken",
        "adminRegenerateToken",
        "adminRotateWebhookSecret",
        "adminListWebhookDeliveries",
        "adminTestBusySource",
        "adminListDeliveries",
        "adminListEventTypeReservations",
        "adminRetryDelivery",
      ]),
    );
    expect(new Set(ids).size).toBe(ids.length);
    // The organizer's calendar routes are documented behind the admin key or the console's cookie, never the event type's token.
    const ADMIN_SECURITY = [{ adminKey: [] }, { consoleSession: [] }];
    expect(r.body.paths["/admin/event-types/{id}/busy-sources"].post.security).toEqual(ADMIN_SECURITY);
    expect(r.body.components.securitySchemes.consoleSession).toMatchObject({ type: "apiKey", in: "cookie", name: "booking_console" });
    expect(r.body.paths["/admin/event-types/{id}/busy-sources"].post.requestBody.content["application/json"].schema.properties).toHaveProperty(
      "freshnessMinutes",
    );
    expect(r.body.paths["/admin/busy-sources/{sourceId}/write-bookings"].put.security).toEqual(ADMIN_SECURITY);
    expect(r.body.paths["/admin/busy-sources/{sourceId}"].get.responses["200"].content["application/json"].schema.properties.data.properties).toHaveProperty(
      "writeCalendar",
    );
    // Hosts and schedules: their admin routes, with the wire's own schemas.
    expect(r.body.paths["/admin/hosts"].post.requestBody.content["application/json"].schema.required).toEqual(["name", "email"]);
    expect(r.body.paths["/admin/hosts/{hostId}"].patch.security).toEqual(ADMIN_SECURITY);
    expect(r.body.paths["/admin/hosts/{hostId}/reservations"].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      "hostId",
      "from",
      "until",
      "status",
      "timezone",
    ]);
    expect(r.body.paths["/admin/schedules/{scheduleId}"].patch.requestBody.content["application/json"].schema.properties).toHaveProperty("availability");
    expect(
      r.body.paths["/admin/hosts/{hostId}/busy-sources"].get.responses["200"].content["application/json"].schema.properties.data.items.properties,
    ).toHaveProperty("hostId");
    // The console's routes: its session, its sessions, and what a host's session may reach, with their refusals.
    expect(r.body.paths["/console/session"].post.security).toEqual([]);
    expect(r.body.paths["/console/session"].get.security).toEqual([{ consoleSession: [] }]);
    expect(Object.keys(r.body.paths["/console/session"].post.responses)).toEqual(expect.arrayContaining(["200", "401", "403", "429"]));
    expect(r.body.paths["/admin/sessions/{sessionId}"].delete.parameters[0]).toMatchObject({
      name: "sessionId",
      in: "path",
      schema: { type: "string", format: "uuid" },
    });
    expect(r.body.paths["/admin/sessions"].get.description).toContain("A host's console session: refused, 403 `forbidden`");
    const moves = r.body.paths["/admin/event-types/{id}/reservations/{uuid}/time-slots"].get;
    expect(moves.parameters.map((p: { name: string }) => p.name)).toEqual(["id", "uuid", "from", "until", "timezone"]);
    expect(Object.keys(moves.responses)).toEqual(expect.arrayContaining(["200", "401", "403", "404", "422"]));
    expect(moves.responses["404"]).toEqual({ $ref: "#/components/responses/E404" });
    expect(moves.description).toMatch(/another host's booking is 404/);
    expect(moves.responses["200"].content["application/json"].schema.properties.data.items.properties).toHaveProperty("available_seats");
    expect(
      r.body.paths["/admin/busy-sources/{sourceId}/calendars"].get.responses["200"].content["application/json"].schema.properties.data.items.properties,
    ).toHaveProperty("writing");
    expect(r.body.paths["/admin/reservations"].get.parameters.map((p: { name: string }) => p.name)).toContain("cursor");
    expect(r.body.paths["/admin/event-types/{id}/reservations/{uuid}/reschedule"].post.requestBody.content["application/json"].schema.required).toEqual([
      "start",
      "end",
    ]);
    expect(r.body.paths["/time-slots"].get.responses["429"]).toEqual({ $ref: "#/components/responses/E429" });
    expect(r.body.components.schemas.TimeSlot.properties).toHaveProperty("available_seats");
    expect(r.body.servers).toContainEqual({ url: "/booking-api", description: expect.any(String) });
  });

  it("serves a self-contained HTML reference that loads nothing from elsewhere", async () => {
    const { call } = await setup();
    const r = await call("GET", "/docs");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/html/);
    expect(r.text).toContain("GET</span> <code>/time-slots</code>");
    // The admin routes of hosts and schedules, behind the admin key.
    expect(r.text).toContain('<section id="adminCreateHost">');
    expect(r.text).toContain("PATCH</span> <code>/admin/schedules/{scheduleId}</code>");
    expect(r.text).toMatch(/id="adminListHostReservations">[\s\S]*?BOOKING_ADMIN_KEY[\s\S]*?<h4>Query<\/h4>/);
    expect(r.text).toContain('id="error-rate_limited"');
    // The console's session and a booking's free times for moving it, with what a host's session gets.
    expect(r.text).toContain("POST</span> <code>/console/session</code>");
    expect(r.text).toMatch(/id="adminListRescheduleTimeSlots">[\s\S]*?A host&#39;s console session: its own bookings only/);
    expect(r.text).not.toMatch(/<script|<link|https?:\/\/(?!localhost)/);
    expect(r.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("links every error body to the docs anchor of its code", async () => {
    const { call } = await setup({ config: { publicUrl: "https://book.example.com" } });
    const r = await call("GET", "/configuration");
    expect(r.body.docs).toBe("https://book.example.com/docs#error-unauthenticated");
    const page = await call("GET", "/docs");
    expect(page.text).toContain('id="error-unauthenticated"');
  });
});
