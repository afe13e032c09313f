import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { setup } from "./utils.ts";

const SCRIPT = `/* booking-calendar test build */ customElements.define("booking-calendar", class extends HTMLElement {});\n${"// padding\n".repeat(200)}`;

/** The version the server names a script by: 16 hex digits of its SHA-256. */
const versionOf = (source: string) => createHash("sha256").update(source).digest("hex").slice(0, 16);

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

const POPUP_PART = `/* popup part */ customElements.define("bc-booking-popup", class extends HTMLElement {});\n`;

/** A built script with the parts of its code it loads on demand beside it, as the calendar's build leaves them. */
function builtWithParts(): string {
  const path = builtScript();
  mkdirSync(join(path, "..", "parts"));
  writeFileSync(join(path, "..", "parts", "popup.js"), POPUP_PART);
  return path;
}

describe("the parts of the calendar's code it loads on demand", () => {
  it("serves a built part beside the script as JavaScript to any origin, cached like the script", async () => {
    const { call } = await setup({ calendarScriptPath: builtWithParts() });
    const r = await call("GET", "/embed/parts/popup.js", { headers: { origin: "https://customer.example" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/javascript;charset=utf-8");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    expect(r.text).toBe(POPUP_PART);
    const again = await call("GET", "/embed/parts/popup.js", { headers: { "if-none-match": r.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("serves it beside the versioned script as immutable, and beside an earlier version's URL revalidated soon", async () => {
    const { call } = await setup({ calendarScriptPath: builtWithParts() });
    const r = await call("GET", `/embed/v/${versionOf(SCRIPT)}/parts/popup.js`, { headers: { origin: "https://customer.example" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/javascript;charset=utf-8");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(r.text).toBe(POPUP_PART);
    const older = await call("GET", "/embed/v/0123456789abcdef/parts/popup.js");
    expect(older.status).toBe(200);
    expect(older.headers.get("cache-control")).toBe("public, max-age=300");
  });

  it("answers a JSON 404 for a part not built and for names that are no part file", async () => {
    const { call } = await setup({ calendarScriptPath: builtWithParts() });
    for (const path of [
      "/embed/parts/payment.js",
      "/embed/parts/..%2Fbooking-calendar.js",
      "/embed/parts/popup.json",
      "/embed/parts/Popup.js",
      `/embed/v/${versionOf(SCRIPT)}/parts/payment.js`,
    ]) {
      const r = await call("GET", path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get("content-type"), path).toContain("application/json");
      expect(r.body, path).toMatchObject({ success: false, code: "not_found" });
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
    const { call } = await setup({
      config: { stripe: { secretKey: "sk_test_x", publishableKey: "pk_test_x", webhookSecret: null, apiBase: "http://127.0.0.1:12111" } },
    });
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
    const { call } = await setup({
      config: { environment: "production", stripe: { secretKey: "sk_test_x", publishableKey: null, webhookSecret: null, apiBase: "http://127.0.0.1:1" } },
    });
    expect((await call("GET", "/")).status).toBe(404);
    expect((await call("GET", "/embed/stripe-standin.js")).status).toBe(404);
  });
});

describe("the demo page", () => {
  it("offers every event type with a booking page in a <booking-calendar> with its publishable link token, never its API token", async () => {
    const { call, eventType, store } = await setup({ calendarScriptPath: builtScript() });
    const first = await eventType({ title: "Intro <call>", slug: "intro-call" });
    await eventType({ title: "Second", slug: "second" });
    const r = await call("GET", "/");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html;charset=utf-8");
    const record = (await store.eventTypes.byId(first.id))!;
    expect(r.text).toContain(`<booking-calendar token="${record.linkToken}"></booking-calendar>`);
    expect(r.text).not.toContain(first.token);
    expect(r.text).toContain("Intro &#60;call&#62;");
    expect(r.text).toContain(`<script src="/embed/v/${versionOf(SCRIPT)}/booking-calendar.js" defer></script>`);
    const second = await call("GET", "/?event=1");
    expect(second.text).toContain(`token="${(await store.eventTypes.byId(first.id + 1))!.linkToken}"`);
  });

  it("previews every language the element has a catalog for", async () => {
    const { call, eventType } = await setup({ calendarScriptPath: builtScript() });
    await eventType({ title: "Intro", slug: "intro" });
    const page = (await call("GET", "/")).text;
    const offered = [...page.matchAll(/<option value="([a-zA-Z-]+)">/g)].map((m) => m[1]!.split("-")[0]);
    const catalogs = readdirSync(new URL("../../booking-calendar/src/i18n/locales/", import.meta.url))
      .filter((f) => f !== "index.ts")
      .map((f) => f.replace(/\.ts$/, ""));
    expect(catalogs.length).toBeGreaterThanOrEqual(10);
    for (const language of catalogs) expect(offered, language).toContain(language);
  });
});

const STANDIN = { stripe: { secretKey: "sk_test_x", publishableKey: "pk_test_x", webhookSecret: null, apiBase: "http://127.0.0.1:12111" } };
const PAID = { payment: { amount: 5000, currency: "eur", providerAccountId: "acct_1EmbedTests" } };

/** The `src` of every `<script>` in a page with its loading attributes, in order. */
function scriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!.trim());
}

describe("pages that show the element", () => {
  it("load no Stripe.js stand-in themselves: the configuration names it, and the element loads it from this server", async () => {
    const { call, eventType } = await setup({ config: STANDIN });
    const { token } = await eventType({ title: "Paid", slug: "paid-call", ...PAID });
    for (const path of ["/", "/book/paid-call"]) expect((await call("GET", path)).text, path).not.toContain("stripe-standin.js");
    const configuration = await call("GET", "/configuration", { token });
    expect(configuration.body.data.configuration.payment).toMatchObject({
      provider: "stripe",
      publishableKey: "pk_test_x",
      stripeJsUrl: "http://localhost/embed/stripe-standin.js",
    });
    // The element's init names it too.
    const init = await call("POST", "/event-types/init", { token, body: {} });
    expect(init.body.data.configuration.payment.stripeJsUrl).toBe("http://localhost/embed/stripe-standin.js");
    // The script it names is there.
    expect((await call("GET", "/embed/stripe-standin.js")).text).toContain("window.Stripe = Stripe");
  });

  it("name no Stripe.js URL when payments go to Stripe itself, or in production", async () => {
    for (const config of [
      { stripe: { secretKey: "sk_test_x", publishableKey: "pk_test_x", webhookSecret: null, apiBase: null } },
      { ...STANDIN, environment: "production" as const },
    ]) {
      const { call, eventType } = await setup({ config });
      const { token } = await eventType({ title: "Paid", ...PAID });
      const payment = (await call("GET", "/configuration", { token })).body.data.configuration.payment;
      expect(payment).toMatchObject({ provider: "stripe", amount: 5000 });
      expect(payment).not.toHaveProperty("stripeJsUrl");
    }
  });

  it("load the element from Vite's dev server under npm run dev", async () => {
    const { call } = await setup({ config: { devCalendarUrl: "http://127.0.0.1:5173/" } });
    const text = (await call("GET", "/")).text;
    expect(text).toContain('<script type="module" src="http://127.0.0.1:5173/src/embed.ts"></script>');
    expect(text).not.toContain("/embed/booking-calendar.js");
  });

  it("have no render-blocking script: every script with a src is deferred, async or a module", async () => {
    for (const config of [{}, STANDIN, { devCalendarUrl: "http://127.0.0.1:5173/" }]) {
      const { call, eventType } = await setup({ config, calendarScriptPath: builtScript() });
      await eventType({ title: "Call", slug: "call" });
      for (const path of ["/", "/book/call", "/book/no-such-page"]) {
        const tags = scriptTags((await call("GET", path)).text).filter((t) => /\bsrc=/.test(t));
        if (path !== "/book/no-such-page") expect(tags.length, path).toBeGreaterThan(0);
        for (const tag of tags) expect(tag, `${path}: ${tag}`).toMatch(/\b(defer|async)\b|type="module"/);
      }
    }
  });

  it("link the server's SVG icon, which their Content-Security-Policy allows", async () => {
    const { call, eventType } = await setup({ config: STANDIN });
    await eventType({ title: "Call", slug: "call" });
    // (The API reference at /docs stays a page that loads nothing at all.)
    for (const path of ["/", "/book/call", "/book/no-such-page"]) {
      const r = await call("GET", path);
      expect(r.text, path).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
      const imgSrc = (r.headers.get("content-security-policy") ?? "")
        .split(";")
        .map((d) => d.trim())
        .find((d) => d.startsWith("img-src"));
      expect(imgSrc, path).toMatch(/'self'/);
    }
    const icon = await call("GET", "/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(icon.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(icon.text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it("a booking page is light or dark as the event type's theme.mode says, like the calendar on it", async () => {
    const { call, eventType } = await setup();
    const cases = { light: "light", dark: "dark", auto: "light dark" } as const;
    for (const [mode, scheme] of Object.entries(cases) as Array<[keyof typeof cases, string]>) {
      await eventType({ title: mode, slug: `theme-${mode}`, theme: { mode, borderRadius: "8px", colors: {} } });
      const text = (await call("GET", `/book/theme-${mode}`)).text;
      expect(text, mode).toContain(`<meta name="color-scheme" content="${scheme}">`);
      const dark = text.includes("background: #111827");
      const followsSystem = text.includes("@media (prefers-color-scheme: dark)");
      expect({ dark, followsSystem }, mode).toEqual(
        { light: { dark: false, followsSystem: false }, dark: { dark: true, followsSystem: false }, auto: { dark: true, followsSystem: true } }[mode],
      );
    }
  });
});

describe("the versioned script URL", () => {
  it("serves the built file at /embed/v/{version}/booking-calendar.js, cached for a year as immutable", async () => {
    const { call } = await setup({ calendarScriptPath: builtScript() });
    const r = await call("GET", `/embed/v/${versionOf(SCRIPT)}/booking-calendar.js`, { headers: { origin: "https://customer.example" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/javascript;charset=utf-8");
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(r.text).toBe(SCRIPT);
    // The plain URL existing sites carry still answers the same file, revalidated soon.
    const plain = await call("GET", "/embed/booking-calendar.js");
    expect(plain.text).toBe(SCRIPT);
    expect(plain.headers.get("cache-control")).toBe("public, max-age=300");
    expect(plain.headers.get("etag")).toBe(r.headers.get("etag"));
  });

  it("leads an earlier version's URL to the current one, and answers a malformed one with a JSON 404", async () => {
    const { call } = await setup({ calendarScriptPath: builtScript() });
    const old = await call("GET", "/embed/v/0123456789abcdef/booking-calendar.js");
    expect(old.status).toBe(302);
    expect(old.headers.get("location")).toBe(`/embed/v/${versionOf(SCRIPT)}/booking-calendar.js`);
    expect(old.headers.get("cache-control")).toBe("public, max-age=300");
    for (const version of ["latest", "0123456789ABCDEF", "%3Cscript%3E"]) {
      const r = await call("GET", `/embed/v/${version}/booking-calendar.js`);
      expect(r.status, version).toBe(404);
      expect(r.body, version).toMatchObject({ success: false, code: "not_found" });
    }
  });

  it("says how to build it, as a JSON 404, while it is not built, and pages then link the plain URL", async () => {
    const { call, eventType } = await setup({ calendarScriptPath: join(tmpdir(), "no-such-dir", "booking-calendar.js") });
    const r = await call("GET", `/embed/v/${versionOf(SCRIPT)}/booking-calendar.js`);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, code: "not_found", message: expect.stringContaining("npm run build") });
    await eventType({ title: "Call", slug: "call" });
    expect((await call("GET", "/book/call")).text).toContain('<script src="/embed/booking-calendar.js" defer></script>');
  });
});
