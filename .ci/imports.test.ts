import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The import rules live in .dependency-cruiser.cjs. This runs dependency-cruiser with them on the
// repository, where nothing may break them, and on a small tree that breaks each of them once, where
// each must be reported: a rule that can never fail would pass here unnoticed otherwise.

const REPO = resolve(import.meta.dirname, "..");
const CONFIG = join(REPO, ".dependency-cruiser.cjs");
// dependency-cruiser runs on Bun: see the note at the top of .dependency-cruiser.cjs.
const BUN = join(REPO, "node_modules", ".bin", "bun");
const CLI = join(REPO, "node_modules", "dependency-cruiser", "bin", "dependency-cruiser.mjs");

/** The parts of dependency-cruiser's JSON result read here. */
interface Cruise {
  modules: { source: string; dependencies: { resolved: string; dependencyTypes: string[] }[] }[];
  summary: { violations: { type: string; from: string; to: string; cycle?: { name: string }[]; rule: { name: string } }[] };
}

/** dependency-cruiser's result for `paths` under `cwd`, with the repository's rules. */
function cruise(cwd: string, paths: string[]): Cruise {
  const run = spawnSync(BUN, [CLI, "--config", CONFIG, "--output-type", "json", ...paths], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  if (run.status !== 0 && !run.stdout.startsWith("{")) throw new Error(`dependency-cruiser failed (${run.status}):\n${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout) as Cruise;
}

/** The violations as lines to read: the rule, then the import that breaks it, then what the rule is for. */
function readable(result: Cruise): string[] {
  const comments = new Map<string, string>(
    createRequire(import.meta.url)(CONFIG).forbidden.map((rule: { name: string; comment: string }) => [rule.name, rule.comment]),
  );
  return result.summary.violations.map(
    (v) => `${v.rule.name}: ${[v.from, ...(v.cycle?.map((step) => step.name) ?? [v.to])].join(" -> ")}\n  ${comments.get(v.rule.name) ?? ""}`,
  );
}

/** The violations of each rule, as `from -> to`, sorted. */
function byRule(result: Cruise): Record<string, string[]> {
  const rules: Record<string, string[]> = {};
  for (const v of result.summary.violations) (rules[v.rule.name] ??= []).push(`${v.from} -> ${v.to}`);
  for (const list of Object.values(rules)) list.sort();
  return rules;
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A temporary tree of `files` (path: source) with `links` (node_modules name: folder of the tree); answers its folder. */
function tree(files: Record<string, string>, links: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), "imports-"));
  folders.push(folder);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), source);
  }
  for (const [name, target] of Object.entries(links)) {
    mkdirSync(dirname(join(folder, "node_modules", name)), { recursive: true });
    symlinkSync(join(folder, target), join(folder, "node_modules", name), "dir");
  }
  return folder;
}

const manifest = (name: string) => JSON.stringify({ name, type: "module", exports: { ".": "./src/index.ts" } });

describe("import rules", () => {
  it("holds on the repository: no file of the packages, benchmarks, end-to-end tests or checks breaks one", () => {
    const result = cruise(REPO, ["packages", "bench", "e2e", ".ci", "vite.config.ts"]);
    const sources = new Set(result.modules.map((m) => m.source));
    // The cruise must have read the TypeScript sources and followed the workspace links, or an empty graph would pass.
    expect(sources.size).toBeGreaterThan(300);
    expect(
      [...sources].filter(
        (s) => s === "packages/server/src/config.ts" || s === "packages/stripe-standin/browser/stripe.js" || s === "packages/console/src/api.ts",
      ),
    ).toHaveLength(3);
    const edges = result.modules.flatMap((m) => m.dependencies);
    expect(edges.some((d) => d.resolved === "packages/wire/src/index.ts" && d.dependencyTypes.includes("type-only"))).toBe(true);
    expect(readable(result)).toEqual([]);
  });

  it("reports each rule broken in a small tree, and lets the imports the rules allow through", () => {
    const folder = tree(
      {
        "packages/wire/package.json": manifest("@booking/wire"),
        "packages/wire/src/index.ts": 'import type { Charge } from "@booking/stripe-standin";\nexport type Shape = { id: string; charge?: Charge };\n',
        "packages/stripe-standin/package.json": manifest("@booking/stripe-standin"),
        "packages/stripe-standin/src/index.ts": "export type Charge = { amount: number };\n",
        "packages/server/package.json": manifest("@booking/server"),
        "packages/server/src/index.ts": 'export { app } from "./app.ts";\n',
        "packages/server/src/app.ts":
          'import { book } from "./modules/reservations/service.ts";\nexport const app = { book };\nexport type App = typeof app;\n',
        "packages/server/src/config.ts": "export const config = { port: 3000 };\n",
        "packages/server/src/domain/errors.ts": "export class DomainError extends Error {}\n",
        "packages/server/src/domain/slots.ts": [
          'import { DateTime } from "luxon";',
          'import type { Shape } from "@booking/wire";',
          'import { DomainError } from "./errors.ts";',
          'import { config } from "../config.ts";',
          'import type { Store } from "../store/store.ts";',
          "export const slots = (s: Shape, store: Store) => [DateTime, DomainError, config, s, store];",
        ].join("\n"),
        "packages/server/src/store/store.ts": "export interface Store { name: string }\n",
        "packages/server/src/store/sqlite/claim.ts":
          'import { book } from "../../modules/reservations/service.ts";\nimport { NotFound } from "../../http/errors.ts";\nexport const claim = [book, NotFound];\n',
        "packages/server/src/http/errors.ts": "export class NotFound extends Error {}\n",
        "packages/server/src/lib/links.ts": 'import { NotFound } from "../http/errors.ts";\nexport const links = NotFound;\n',
        "packages/server/src/lib/a.ts": 'import type { B } from "./b.ts";\nexport type A = { b?: B };\n',
        "packages/server/src/lib/b.ts": 'import type { A } from "./a.ts";\nexport type B = { a?: A };\n',
        "packages/server/src/lib/old.ts": 'export { gone } from "./gone.ts";\n',
        "packages/server/src/modules/reservations/service.ts":
          'import { slots } from "../../domain/slots.ts";\nimport { NotFound } from "../../http/errors.ts";\nexport const book = [slots, NotFound];\n',
        "packages/server/src/modules/reservations/index.ts":
          'import { NotFound } from "../../http/errors.ts";\nimport { book } from "./service.ts";\nexport const routes = [NotFound, book];\n',
        "packages/server/src/modules/payments/service.ts": 'import Stripe from "stripe";\nexport const pay = Stripe;\n',
        "packages/server/src/modules/payments/stripe.ts": 'import Stripe from "stripe";\nexport const provider = Stripe;\n',
        "packages/server/test/utils.ts": "export type Harness = { url: string };\n",
        "packages/booking-calendar/src/api.ts":
          'import type { App } from "@booking/server";\nimport type { Shape } from "@booking/wire";\nexport type Api = { app?: App; shape?: Shape };\n',
        "packages/booking-calendar/src/views/list.ts": 'import { consoleApi } from "../../../console/src/api.ts";\nexport const list = consoleApi;\n',
        "packages/booking-calendar/test/site-server.ts": 'import { config } from "../../server/src/config.ts";\nexport const site = config;\n',
        "packages/console/src/api.ts": [
          'import type { App } from "../../server/src/app.ts";',
          'import { app } from "@booking/server";',
          'import type { Harness } from "../../server/test/utils.ts";',
          "export const consoleApi = { app } as { app: App; harness?: Harness };",
        ].join("\n"),
        "node_modules/luxon/package.json": JSON.stringify({ name: "luxon", main: "index.js" }),
        "node_modules/luxon/index.js": "export const DateTime = {};\n",
        "node_modules/stripe/package.json": JSON.stringify({ name: "stripe", main: "index.js" }),
        "node_modules/stripe/index.js": "export default class Stripe {}\n",
      },
      { "@booking/wire": "packages/wire", "@booking/server": "packages/server", "@booking/stripe-standin": "packages/stripe-standin" },
    );

    expect(byRule(cruise(folder, ["packages"]))).toEqual({
      "no-circular": ["packages/server/src/lib/a.ts -> packages/server/src/lib/b.ts"],
      "domain-imports-only-domain": [
        "packages/server/src/domain/slots.ts -> packages/server/src/config.ts",
        "packages/server/src/domain/slots.ts -> packages/server/src/store/store.ts",
      ],
      "store-not-modules-or-http": [
        "packages/server/src/store/sqlite/claim.ts -> packages/server/src/http/errors.ts",
        "packages/server/src/store/sqlite/claim.ts -> packages/server/src/modules/reservations/service.ts",
      ],
      "inner-layers-not-http": [
        "packages/server/src/lib/links.ts -> packages/server/src/http/errors.ts",
        "packages/server/src/modules/reservations/service.ts -> packages/server/src/http/errors.ts",
        "packages/server/src/store/sqlite/claim.ts -> packages/server/src/http/errors.ts",
      ],
      "payment-service-not-stripe-sdk": ["packages/server/src/modules/payments/service.ts -> node_modules/stripe/index.js"],
      "element-not-server-or-console": [
        "packages/booking-calendar/src/api.ts -> packages/server/src/index.ts",
        "packages/booking-calendar/src/views/list.ts -> packages/console/src/api.ts",
      ],
      "console-not-server-runtime": ["packages/console/src/api.ts -> packages/server/src/index.ts"],
      "console-server-types-from-src": ["packages/console/src/api.ts -> packages/server/test/utils.ts"],
      "wire-imports-no-workspace-package": ["packages/wire/src/index.ts -> packages/stripe-standin/src/index.ts"],
      "relative-import-resolves": ["packages/server/src/lib/old.ts -> ./gone.ts"],
    });
  });
});
