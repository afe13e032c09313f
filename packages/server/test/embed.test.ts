import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { setup } from "./utils.ts";

const SCRIPT = `/* booking-calendar test build */ customElements.define("booking-calendar", class extends HTMLElement {});\n${"// padding\n".repeat(200)}`;

function builtScript(): string {
  const path = join(mkdtempSync(join(tmpdir(), "embed-")), "booking-calendar.js");
  writeFileSync(path, SCRIPT);
  return path;
}

const GERMAN = JSON.stringify({ loading: "Wird geladen…", freeTimes: { one: "{count} freier Termin", other: "{count} freie Termine" } });

/** A built script with its German texts beside it, as the calendar's build leaves them. */
function builtWithCatalogs(): string {
  const path = builtScript();
  mkdirSync(join(path, "..", "locales"));
  writeFileSync(join(path, "..", "locales", "de.json"), GERMAN);
  return path;
}

describe("the calendar's texts in other languages", () => {
  it("serves a built language beside the script as JSON to any origin, cached like the script", async () => {
    const { call } = await setup({ calendarScriptPath: builtWithCatalogs() });
    const r = await call("GET", "/embed/locales/de.json", { headers: { origin: "https://customer.example" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    expect(r.text).toBe(GERMAN);
    const again = await call("GET", "/embed/locales/de.json", { headers: { "if-none-match": r.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("answers a JSON 404 for a language not built and for names that are no language file", async () => {
    const { call } = await setup({ calendarScriptPath: builtWithCatalogs() });
    for (const path of ["/embed/locales/sv.json", "/embed/locales/..%2Fbooking-calendar.js", "/embed/locales/de.js", "/embed/locales/DE.json"]) {
      const r = await call("GET", path);
      expect(r.status, path).toBe(404);
      expect(r.body).toMatchObject({ success: false, code: "not_found" });
    }
  });
});

describe("the calendar's script-tag file", () => {
  it("serves the built file as JavaScript to any origin, with an ETag", async () => {
    const { call } = await setup({ calendarScriptPath: builtScript() });
    const r = await call("GET", "/embed/booking-calendar.js", { headers: { origin: "https://customer.example" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/javascript;charset=utf-8");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    expect(r.headers.get("etag")).toMatch(/^"[\w-]{22}"$/);
    expect(r.text).toBe(SCRIPT);
  });

  it("answers 304 when the browser holds the same version", async () => {
    const { call } = await setup({ calendarScriptPath: builtScript() });
    const first = await call("GET", "/embed/booking-calendar.js");
    const again = await call("GET", "/embed/booking-calendar.js", { headers: { "if-none-match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("compresses it for clients that accept gzip", async () => {
    const { app } = await setup({ calendarScriptPath: builtScript() });
    const response = await app.handle(new Request("http://localhost/embed/booking-calendar.js", { headers: { "accept-encoding": "gzip" } }));
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(new Uint8Array(await response.arrayBuffer())).toString("utf8")).toBe(SCRIPT);
  });

  it("says how to build it, as a JSON 404, while it is not built", async () => {
    const { call } = await setup({ calendarScriptPath: join(tmpdir(), "no-such-dir", "booking-calendar.js") });
    const r = await call("GET", "/embed/booking-calendar.js");
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, code: "not_found", message: expect.stringContaining("npm run build") });
  });
});

describe("the Stripe.js stand-in and the demo page", () => {
  it("serves the Stripe.js stand-in pointed at the Stripe stand-in when payments go there", async () => {
    const { call } = await setup({ config: { stripe: { secretKey: "sk_test_x", publishableKey: "pk_test_x", webhookSecret: null, apiBase: "http://127.0.0.1:12111" } } });
    const r = await call("GET", "/embed/stripe-standin.js");
    expect(r.status).toBe(200);
    expect(r.text).toContain('var API = "http://127.0.0.1:12111"');
    expect(r.text).toContain("window.Stripe = Stripe");
  });

  it("has no Stripe.js stand-in when payments go to Stripe itself", async () => {
    const { call } = await setup();
    expect((await call("GET", "/embed/stripe-standin.js")).status).toBe(404);
  });

  it("serves neither the demo page nor the stand-in in production", async () => {
    const { call } = await setup({ config: { environment: "production", stripe: { secretKey: "sk_test_x", publishableKey: null, webhookSecret: null, apiBase: "http://127.0.0.1:1" } } });
    expect((await call("GET", "/")).status).toBe(404);
    expect((await call("GET", "/embed/stripe-standin.js")).status).toBe(404);
  });
});

describe("the demo page", () => {
  it("offers every event type in a <booking-calendar> with its publishable link token, never its API token", async () => {
    const { call, eventType, store } = await setup();
    const first = await eventType({ title: "Intro <call>" });
    await eventType({ title: "Second" });
    const r = await call("GET", "/");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html;charset=utf-8");
    const record = (await store.eventTypes.byId(first.id))!;
    expect(r.text).toContain(`<booking-calendar token="${record.linkToken}"></booking-calendar>`);
    expect(r.text).not.toContain(first.token);
    expect(r.text).toContain("Intro &#60;call&#62;");
    expect(r.text).toContain('<script src="/embed/booking-calendar.js"></script>');
    const second = await call("GET", "/?event=1");
    expect(second.text).toContain(`token="${(await store.eventTypes.byId(first.id + 1))!.linkToken}"`);
  });
});

describe("pages that show the element", () => {
  it("load the Stripe.js stand-in before the element where payments go to the stand-in", async () => {
    const { call, eventType } = await setup({ config: { stripe: { secretKey: "sk_test_x", publishableKey: "pk_test_x", webhookSecret: null, apiBase: "http://127.0.0.1:12111" } } });
    await eventType({ title: "Paid", slug: "paid-call" });
    for (const path of ["/", "/book/paid-call"]) {
      const text = (await call("GET", path)).text;
      const standin = text.indexOf('<script src="/embed/stripe-standin.js"></script>');
      expect(standin, path).toBeGreaterThan(-1);
      expect(text.indexOf('<script src="/embed/booking-calendar.js"></script>'), path).toBeGreaterThan(standin);
    }
  });

  it("load the element from Vite's dev server under npm run dev", async () => {
    const { call } = await setup({ config: { devCalendarUrl: "http://127.0.0.1:5173/" } });
    const text = (await call("GET", "/")).text;
    expect(text).toContain('<script type="module" src="http://127.0.0.1:5173/src/embed.ts"></script>');
    expect(text).not.toContain("/embed/booking-calendar.js");
  });
});
