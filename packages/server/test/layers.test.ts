import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The layering the code relies on: services, the domain, lib and the stores answer with domain
// results and errors, never with an HTTP status, so the routes alone decide what goes on the wire.
// Which layer may import which is declared in .dependency-cruiser.cjs at the repository root
// (`npm run test:imports`).

const SRC = join(import.meta.dirname, "..", "src");

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The files below HTTP: every module's service, the domain, lib and the stores. */
function innerFiles(): string[] {
  const services = readdirSync(join(SRC, "modules"))
    .map((m) => join(SRC, "modules", m, "service.ts"))
    .filter((f) => existsSync(f));
  expect(services.length).toBeGreaterThan(5);
  return [...services, ...tsFiles(join(SRC, "domain")), ...tsFiles(join(SRC, "lib")), ...tsFiles(join(SRC, "store"))];
}

describe("layers", () => {
  it("no service, domain, lib or store file answers with an HTTP status (the routes map their results)", () => {
    const files = innerFiles();
    expect(files.filter((f) => f.includes("/store/postgres/")).length).toBeGreaterThan(5);
    const offending = files.flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .flatMap((line, i) => (/\bstatus\??:\s*[1-5]\d\d\b/.test(line) ? [`${f.slice(SRC.length + 1)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });
});
