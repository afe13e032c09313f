/**
 * The import rules of the repository, checked by dependency-cruiser (`npm run test:imports`, part of
 * `npm test`; `.ci/imports.test.ts` runs it and proves each rule on a tree that breaks it).
 *
 * Paths are relative to the repository root. Workspace packages (`@booking/wire`, ...) resolve
 * through their `node_modules` links and `exports` to the files under `packages/`, so a rule on
 * `^packages/server/` also catches `import ... from "@booking/server"`. Type-only imports count like
 * any other, except where a rule says otherwise.
 *
 * TypeScript 7 has no JavaScript API, so the sources are parsed with swc (`options.parser`); run the
 * check with Bun, whose Node.js version dependency-cruiser supports.
 */
/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Files import each other, directly or through others. Break the loop: move what both need into a third file (type-only imports count too).",
      from: {},
      to: { circular: true },
    },
    {
      name: "domain-imports-only-domain",
      severity: "error",
      comment: "packages/server/src/domain is pure: it imports itself, @booking/wire and libraries (luxon), nothing else of the server or the workspace.",
      from: { path: "^packages/server/src/domain/" },
      to: { path: "^packages/", pathNot: ["^packages/server/src/domain/", "^packages/wire/"] },
    },
    {
      name: "store-not-modules-or-http",
      severity: "error",
      comment: "The stores sit below the feature modules and HTTP: packages/server/src/store imports neither src/modules nor src/http.",
      from: { path: "^packages/server/src/store/" },
      to: { path: "^packages/server/src/(modules|http)/" },
    },
    {
      name: "inner-layers-not-http",
      severity: "error",
      comment: "Services, the domain, lib and the stores know nothing of HTTP: they throw domain errors and return results that the routes map.",
      from: { path: "^packages/server/src/(modules/[^/]+/service\\.ts$|domain/|lib/|store/)" },
      to: { path: "^packages/server/src/http/" },
    },
    {
      name: "payment-service-not-stripe-sdk",
      severity: "error",
      comment: "The payment rules know Stripe only through the PaymentProvider port: the payments service does not import the stripe SDK.",
      from: { path: "^packages/server/src/modules/payments/service\\.ts$" },
      to: { path: "(^|/)node_modules/stripe/" },
    },
    {
      name: "element-not-server-or-console",
      severity: "error",
      comment: "The element (packages/booking-calendar) ships alone: its code imports neither the server nor the console (shapes come from @booking/wire).",
      from: { path: "^packages/booking-calendar/(src|types)/" },
      to: { path: "^packages/(server|console)/" },
    },
    {
      name: "console-not-server-runtime",
      severity: "error",
      comment:
        "The console carries no server code: it may import types from packages/server/src with `import type` (a typed client of the server's app), never a value.",
      from: { path: "^packages/console/src/" },
      to: { path: "^packages/server/", dependencyTypesNot: ["type-only", "type-import"] },
    },
    {
      name: "console-server-types-from-src",
      severity: "error",
      comment: "The console's type-only imports of the server come from packages/server/src, nothing else of that package.",
      from: { path: "^packages/console/src/" },
      to: { path: "^packages/server/", pathNot: "^packages/server/src/" },
    },
    {
      name: "wire-imports-no-workspace-package",
      severity: "error",
      comment: "packages/wire holds the shapes every other package shares: it imports no other workspace package.",
      from: { path: "^packages/wire/" },
      to: { path: "^packages/", pathNot: "^packages/wire/" },
    },
    {
      name: "relative-import-resolves",
      severity: "error",
      comment: "A relative import names a file that is not there, so no rule could see where it leads: name the file with its own extension (`./x.ts`).",
      from: {},
      to: { couldNotResolve: true, path: "^\\.\\.?/" },
    },
  ],
  options: {
    parser: "swc",
    doNotFollow: { path: "(^|/)node_modules/" },
    // Vue single-file components are left out: swc reads TypeScript, not their template wrapping.
    exclude: { path: ["\\.vue$", "(^|/)dist/", "(^|/)test-results/", "(^|/)playwright-report/"] },
    moduleSystems: ["es6", "cjs"],
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".jsx", ".vue", ".d.ts"],
      mainFields: ["module", "main", "types"],
    },
    skipAnalysisNotInRules: true,
  },
};
