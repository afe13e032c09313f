import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { promisify } from "node:util";
import { createServer, type Server } from "node:http";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { parseSync } from "vite";
import { continueToPayment, createEventType, payWithCard, reservationsOf, PAID } from "./fixtures.ts";

/*
 * The package as a site owner installs it: `npm pack` of the built package, installed from the
 * tarball into a fresh React app and a fresh Vue app, each type-checked with `skipLibCheck: false`
 * by the repository's TypeScript and by the latest TypeScript 5 (the React app also by 5.0, the
 * oldest the README names), so every type file the package ships must resolve without anything
 * unpublished of this repository, whichever DOM lib the site's TypeScript brings. The same apps are
 * then built by Vite, as a site builds them, and book a paid event type in Chromium against the real
 * server and its Stripe stand-in: a part of the element the site's bundler dropped (the payment step,
 * once) shows as a missing card form. npm fetches React, Vue, Vite and TypeScript from the registry
 * (hence the long timeout).
 */
const run = promisify(execFile);
const pkgDir = resolve(import.meta.dirname, "..");
const repo = resolve(pkgDir, "../..");

// The versions the repository's own example apps use, so the check matches what the repo builds with.
const e2e = JSON.parse(readFileSync(join(repo, "e2e/package.json"), "utf8")).devDependencies as Record<string, string>;
const root = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).devDependencies as Record<string, string>;

const tsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "bundler",
    lib: ["ES2023", "DOM", "DOM.Iterable"],
    jsx: "react-jsx",
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    types: [],
  },
  include: ["src"],
};

// The apps read the API's origin and the link token from the page's query (`?api=…&token=…`), and
// show the booking the element reports in the page's status line.
const reactApp = `import "@booking/calendar";
import type {} from "@booking/calendar/react";
import type { BookingCalendar, BookingCalendarEventMap } from "@booking/calendar";

type Confirmed = BookingCalendarEventMap["booking-reservation-confirmed"]["detail"];

const query = new URLSearchParams(location.search);

export function App(props: { onBooked: (booking: Confirmed) => void }) {
  return (
    <booking-calendar
      token={query.get("token") ?? ""}
      api-base={query.get("api") ?? ""}
      reservation-uuid={query.get("reservation") ?? ""}
      theme="dark"
      email="visitor@example.com"
      onbooking-reservation-confirmed={(event) => props.onBooked(event.detail)}
    />
  );
}

export const element: BookingCalendar | null = document.querySelector("booking-calendar");
`;

// The pages' entries sit beside src/, outside what TypeScript checks: they only mount the apps.
const reactMain = `import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./src/app.tsx";

const status = document.querySelector("#status");
createRoot(document.querySelector("#app")).render(createElement(App, { onBooked: (booking) => (status.textContent = "booked " + booking.uuid) }));
`;

const vueApp = `import { defineComponent, h } from "vue";
import "@booking/calendar";
import { setDefaultApiBase, type BookingCalendarEventMap } from "@booking/calendar";
import type { BookingCalendarProps } from "@booking/calendar/vue";

const query = new URLSearchParams(location.search);
setDefaultApiBase(query.get("api") ?? "");

export default defineComponent({
  setup() {
    const props: BookingCalendarProps = {
      token: query.get("token") ?? "",
      locale: "en-GB",
      "onBooking-reservation-confirmed": (event: BookingCalendarEventMap["booking-reservation-confirmed"]) => {
        document.querySelector("#status")!.textContent = \`booked \${event.detail.uuid}\`;
      },
    };
    return () => h("booking-calendar", props);
  },
});
`;

const vueMain = `import { createApp } from "vue";
import App from "./src/app.ts";

createApp(App).mount("#app");
`;

/** The page Vite builds an app from: the element's mount point, a status line, and the app's entry. */
const indexHtml = (entry: string) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Site</title></head>
  <body><main><div id="app"></div><p role="status" id="status">Nothing booked yet</p></main><script type="module" src="./${entry}"></script></body>
</html>
`;

/** Older TypeScripts installed beside the repository's under these names; the apps are checked by each. */
const OLDER_TYPESCRIPTS = { latest5: "typescript-5@npm:typescript@5", oldest: "typescript-5.0@npm:typescript@5.0" };

/** A fresh app in `dir`: `src/<file>` (type-checked) and the page's entry `<entry>` (only built), with the tarball and `deps` installed; then type-checked by each TypeScript. */
async function typeCheck(
  dir: string,
  tarball: string,
  deps: string[],
  older: string[],
  app: { file: string; source: string; entry: string; main: string },
): Promise<void> {
  const { file, source } = app;
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "site", private: true, type: "module" }));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  writeFileSync(join(dir, "src", file), source);
  writeFileSync(join(dir, app.entry), app.main);
  writeFileSync(join(dir, "index.html"), indexHtml(app.entry));
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, ...deps, ...older], { cwd: dir });
  const compilers = [join(dir, "node_modules/.bin/tsc"), ...older.map((alias) => join(dir, "node_modules", alias.slice(0, alias.indexOf("@npm:")), "bin/tsc"))];
  const failures: string[] = [];
  for (const tsc of compilers) {
    try {
      await run(process.execPath, [tsc, "-p", "."], { cwd: dir });
    } catch (error) {
      const { stdout, stderr } = error as { stdout: string; stderr: string };
      const { stdout: version } = await run(process.execPath, [tsc, "-v"], { cwd: dir });
      failures.push(`tsc ${version.trim()} in the ${file} app failed:\n${stdout}${stderr}`);
    }
  }
  if (failures.length) throw new Error(failures.join("\n"));
}

/** Builds the app in `dir` with its own Vite for serving under `/<name>/`, as a site's production build. */
async function buildWithVite(dir: string, name: string): Promise<void> {
  await run(process.execPath, [join(dir, "node_modules/vite/bin/vite.js"), "build", "--base", `/${name}/`, "--logLevel", "warn"], { cwd: dir });
  expect(existsSync(join(dir, "dist/index.html"))).toBe(true);
}

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json" };

/** Serves each app's `dist/` under `/<app>/` on a free loopback port: the site, on another origin than the API. */
async function serveApps(work: string, apps: string[]): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const [, app = "", ...rest] = new URL(request.url!, "http://site").pathname.split("/");
    const file = apps.includes(app) && !rest.includes("..") ? join(work, app, "dist", rest.join("/") || "index.html") : "";
    if (!file || !existsSync(file)) return void response.writeHead(404).end();
    response.writeHead(200, { "Content-Type": TYPES[file.slice(file.lastIndexOf("."))] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return { origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

/** Books a new paid event type in the app at `url` through the card form, and checks the reservation is confirmed and the app heard of it. */
async function bookPaidInApp(page: Page, request: APIRequestContext, url: string, app: string): Promise<void> {
  const { id, linkToken } = await createEventType(request, { ...PAID, title: `Paid ${app} session` });
  const email = `${app}-tarball@example.com`;
  await page.goto(`${url}?${new URLSearchParams({ api: test.info().project.use.baseURL!, token: linkToken })}`);
  await continueToPayment(page, email);
  await expect(page.getByLabel("Card number"), `the ${app} app's card form`).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
  await payWithCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
  const [reservation] = await reservationsOf(request, id);
  expect(reservation).toMatchObject({ status: "confirmed", email });
  await expect(page.getByRole("status").filter({ hasText: "booked" })).toHaveText(`booked ${reservation!.uuid}`);
  if (app !== "react") return;
  // The app opened on the booking (as its account page would): the manage screens, a chunk of their own the bundler kept, with their rules.
  await page.goto(`${url}?${new URLSearchParams({ api: test.info().project.use.baseURL!, token: linkToken, reservation: reservation!.uuid as string })}`);
  await expect(page.getByRole("heading", { name: "Your booking" })).toBeVisible();
  await expect(page.locator('[part="change-rules"]')).toContainText("You can reschedule or cancel online until");
  await expect(page.getByRole("button", { name: "Cancel booking" })).toBeVisible();
}

/**
 * Module specifiers of a type file: `from "x"`, `import("x")`, `import "x"` and `/// <reference types="x" />`,
 * outside comments (a doc comment may show an import to copy).
 */
function specifiersOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:/])\/\/(?!\/\s*<reference).*$/gm, "$1");
  return [...code.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|<reference\s+types=)"([^"]+)"/g)].map((m) => m[1]!);
}

/** The package a bare specifier names (`@scope/name` or `name`); null for a relative one. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The type file a relative specifier of `from` (both inside the package) stands for. */
function typeFileOf(from: string, specifier: string): string {
  const path = join(dirname(from), specifier);
  return /\.(ts|js)$/.test(path) ? path.replace(/(\.d)?\.(ts|js)$/, ".d.ts") : `${path}.d.ts`;
}

test.describe("the npm package", () => {
  test.setTimeout(600_000);

  test("is publishable, its packed tarball type-checks in a fresh React and Vue app with skipLibCheck false, and both apps built by Vite book a paid event type", async ({
    page,
    request,
  }) => {
    const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
    expect(manifest.private).toBeUndefined();
    // `npm pack` and `npm publish` build first, so a clean clone never packs a missing or stale dist.
    expect(manifest.scripts.prepack).toBe("npm run build");

    const work = mkdtempSync(join(tmpdir(), "booking-calendar-pack-"));
    try {
      // The package is built by the test script before Playwright runs; packing without the prepack
      // build keeps the files other tests are serving in place.
      const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--pack-destination", work, "--json"], { cwd: pkgDir });
      const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
      const paths = packed!.files.map((f) => f.path);
      for (const file of [
        "README.md",
        "LICENSE",
        "package.json",
        "custom-elements.json",
        "dist/npm/index.js",
        "dist/npm/index.d.ts",
        "dist/embed/booking-calendar.js",
        "types/react.d.ts",
        "types/vue.d.ts",
      ])
        expect(paths).toContain(file);
      const tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz"))!);

      // The tarball as a site receives it: an MIT license, and type files that need nothing else.
      const unpacked = join(work, "unpacked");
      mkdirSync(unpacked);
      await run("tar", ["-xzf", tarball, "-C", unpacked]);
      const shipped = join(unpacked, "package");
      const packedManifest = JSON.parse(readFileSync(join(shipped, "package.json"), "utf8"));
      expect(packedManifest.license).toBe("MIT");
      const license = readFileSync(join(shipped, "LICENSE"), "utf8");
      expect(license).toMatch(/^MIT License\s+Copyright \(c\) 2026 The booking calendar contributors\s+Permission is hereby granted, free of charge/);
      // A type file may name the package itself (its own exports) besides what a site installs with it.
      const installed = new Set([
        packedManifest.name,
        ...Object.keys(packedManifest.dependencies ?? {}),
        ...Object.keys(packedManifest.peerDependencies ?? {}),
      ]);
      const typeFiles = paths.filter((f) => f.endsWith(".d.ts"));
      expect(typeFiles).toContain("dist/npm/i18n/field-errors.d.ts");
      const unresolved: string[] = [];
      for (const file of typeFiles) {
        for (const specifier of specifiersOf(readFileSync(join(shipped, file), "utf8"))) {
          const name = packageOf(specifier);
          if (specifier.startsWith("@booking/wire") || (name !== null && !installed.has(name))) unresolved.push(`${file}: "${specifier}"`);
          if (name === null && !paths.includes(typeFileOf(file, specifier))) unresolved.push(`${file}: "${specifier}" (not in the tarball)`);
        }
      }
      expect(unresolved).toEqual([]);

      const typescript = `typescript@${root.typescript}`;
      // Both apps finish before the directory goes, and both apps' errors are reported.
      const results = await Promise.allSettled([
        typeCheck(
          join(work, "react"),
          tarball,
          [`react@${e2e.react}`, `react-dom@${e2e["react-dom"]}`, `@types/react@${e2e["@types/react"]}`, `vite@${e2e.vite}`, typescript],
          [OLDER_TYPESCRIPTS.latest5, OLDER_TYPESCRIPTS.oldest],
          { file: "app.tsx", source: reactApp, entry: "main.js", main: reactMain },
        ),
        // Vue's own types need TypeScript 5.4 or later.
        typeCheck(join(work, "vue"), tarball, [`vue@${e2e.vue}`, `vite@${e2e.vite}`, typescript], [OLDER_TYPESCRIPTS.latest5], {
          file: "app.ts",
          source: vueApp,
          entry: "main.ts",
          main: vueMain,
        }),
      ]);
      const failures = results.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : []));
      expect(failures.join("\n")).toBe("");

      // The same apps, built by their Vite and opened on another origin than the API, book a paid event type.
      await Promise.all([buildWithVite(join(work, "react"), "react"), buildWithVite(join(work, "vue"), "vue")]);
      const site = await serveApps(work, ["react", "vue"]);
      try {
        await bookPaidInApp(page, request, `${site.origin}/react/`, "react");
        await bookPaidInApp(page, request, `${site.origin}/vue/`, "vue");
      } finally {
        site.server.close();
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test("names every module that runs code on import in sideEffects, so no bundler drops a part", () => {
    const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { sideEffects: string[] };
    const globs = manifest.sideEffects.map((glob) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`));
    const listed = (path: string) => globs.some((glob) => glob.test(path));

    // In the source: a module with a top-level statement other than an import, an export or a declaration.
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
      );
    const DECLARATIONS = new Set([
      "ImportDeclaration",
      "ExportNamedDeclaration",
      "ExportAllDeclaration",
      "ExportDefaultDeclaration",
      "FunctionDeclaration",
      "ClassDeclaration",
      "VariableDeclaration",
      "TSInterfaceDeclaration",
      "TSTypeAliasDeclaration",
      "TSModuleDeclaration",
      "TSGlobalDeclaration",
      "TSEnumDeclaration",
    ]);
    const runsOnImport = (file: string) =>
      parseSync(file, readFileSync(file, "utf8"), { lang: "ts" }).program.body.some((statement) => !DECLARATIONS.has(statement.type));
    const effectful = sources(join(pkgDir, "src"))
      .filter(runsOnImport)
      .map((file) => `./${relative(pkgDir, file).split(sep).join("/")}`);
    expect(effectful).toContain("./src/parts/payment.ts");
    expect(effectful.filter((file) => !listed(file))).toEqual([]);

    // In the npm build (made by the test script): every chunk that defines an element, the payment step's included.
    const npm = join(pkgDir, "dist/npm");
    const defining = readdirSync(npm).filter((file) => file.endsWith(".js") && readFileSync(join(npm, file), "utf8").includes("customElements.define"));
    const payment = defining.filter((file) => readFileSync(join(npm, file), "utf8").includes('customElements.define("bc-payment-step"'));
    expect(payment).toHaveLength(1);
    expect(defining.map((file) => `./dist/npm/${file}`).filter((file) => !listed(file))).toEqual([]);
  });
});
