import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codeFilesUnder, describeCycle, importCycles, importGraph, importsOf } from "./import-cycles.ts";

const REPO = resolve(import.meta.dirname, "..");

/** The project's code: the packages (sources, the stand-in's browser script, tests, dev tools), benchmarks and end-to-end tests. */
function projectFiles(): string[] {
  return ["packages", "bench", "e2e"].flatMap((folder) => codeFilesUnder(join(REPO, folder)));
}

let folders: string[] = [];
afterEach(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

/** A temporary tree of `files` (path: source); answers its folder. */
function tree(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), "import-cycles-"));
  folders.push(folder);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), source);
  }
  return folder;
}

/** The loops of a temporary tree, read from all its files, as lines. */
function cyclesOf(files: Record<string, string>): string[] {
  const folder = tree(files);
  return importCycles(importGraph(codeFilesUnder(folder))).map((cycle) => describeCycle(cycle, folder));
}

describe("import cycles", () => {
  it("finds no cycle between the files of the project", () => {
    const files = projectFiles();
    const graph = importGraph(files);
    // The scan must have reached the packages and read their imports, or an empty graph would pass.
    expect(files.filter((file) => file.endsWith("/packages/server/src/config.ts") || file.endsWith("/packages/stripe-standin/browser/stripe.js"))).toHaveLength(2);
    expect([...graph.values()].flat().length).toBeGreaterThan(files.length);
    expect(importCycles(graph).map((cycle) => describeCycle(cycle, REPO))).toEqual([]);
  });

  it("reports two files that import each other, with the line of each import", () => {
    expect(cyclesOf({
      "flow.ts": 'import { emptyDraft } from "./draft.ts";\nimport type { DoneState } from "./views.ts";\n',
      "views.ts": 'import type { SlotFlow } from "./flow.ts";\n',
      "draft.ts": "export const emptyDraft = {};\n",
    })).toEqual(["flow.ts:2 -> views.ts:1 -> flow.ts"]);
  });

  it("reports a loop through three folders once, by its shortest way", () => {
    expect(cyclesOf({
      "config.ts": 'import { PAGE_ROOTS } from "./http/caller.ts";\n',
      "http/caller.ts": 'import { pathOf } from "../lib/links.ts";\nimport { a } from "../lib/a.ts";\n',
      "lib/links.ts": 'import type { ServerConfig } from "../config.ts";\n',
      "lib/a.ts": 'import { b } from "./links";\n',
    })).toEqual(["config.ts:1 -> http/caller.ts:1 -> lib/links.ts:1 -> config.ts"]);
  });

  it("reports a file that imports itself", () => {
    expect(cyclesOf({ "self.ts": 'export * from "./self.ts";\n' })).toEqual(["self.ts:1 -> self.ts"]);
  });

  it("follows re-exports, dynamic imports with a literal, `.js` names of `.ts` files and folders' index files", () => {
    expect(cyclesOf({ "a.ts": 'export { b } from "./b.js";\n', "b.ts": "const c = await import(\n  './c'\n);\n", "c/index.ts": 'import "../a.ts";\n' }))
      .toEqual(["a.ts:1 -> b.ts:2 -> c/index.ts:1 -> a.ts"]);
  });

  it("reports nothing for files that import one another one way only", () => {
    expect(cyclesOf({ "a.ts": 'import { b } from "./b.ts";\n', "b.ts": 'import { c } from "./c.ts";\nimport { z } from "zod";\n', "c.ts": "export const c = 1;\n" })).toEqual([]);
  });

  it("takes no import from comments, strings, template text or regular expressions", () => {
    const source = [
      '// import { x } from "./views.ts";',
      '/* export * from "./views.ts" */',
      'const page = "<script type=module>import(\'./views.ts\')</script>";',
      'const html = `import { x } from "./views.ts" ${"a" + `import("./views.ts")`}`;',
      "const quote = /[\"'`]/g; const next = 1 / 2 / 3;",
      "const options = { from: 'x' }; const moved = Array.from(list); const where = point.import('./views.ts');",
      'import { real } from "./real.ts";',
    ].join("\n");
    expect(importsOf(source)).toEqual([{ specifier: "./real.ts", line: 7 }]);
  });

  it("reads imports written across lines and type-only imports", () => {
    const source = 'import {\n  a,\n  b,\n} from "./a.ts";\nimport type { T } from "./t.ts";\nexport type { U } from "./u.ts";\ntype V = import("./v.ts").V;\n';
    expect(importsOf(source)).toEqual([
      { specifier: "./a.ts", line: 4 },
      { specifier: "./t.ts", line: 5 },
      { specifier: "./u.ts", line: 6 },
      { specifier: "./v.ts", line: 7 },
    ]);
  });
});
