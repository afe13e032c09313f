import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The layering the code relies on, checked on the sources: services, the domain and the stores know
// nothing of HTTP (they throw domain errors and return domain results the HTTP layer maps), and the
// payment rules know Stripe only through the PaymentProvider port.

const SRC = join(import.meta.dirname, "..", "src");

/** The module specifiers a source file imports from. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms)].map((m) => m[1]!);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** The files below HTTP: every module's service, the domain, lib and the stores. */
function innerFiles(): string[] {
  const services = readdirSync(join(SRC, "modules")).map((m) => join(SRC, "modules", m, "service.ts")).filter((f) => existsSync(f));
  expect(services.length).toBeGreaterThan(5);
  return [...services, ...tsFiles(join(SRC, "domain")), ...tsFiles(join(SRC, "lib")), ...tsFiles(join(SRC, "store"))];
}

describe("layers", () => {
  it("no service, domain, lib or store file imports from src/http", () => {
    const files = innerFiles();
    expect(files.filter((f) => f.includes("/store/postgres/")).length).toBeGreaterThan(5);
    const offending = files.flatMap((f) => importsOf(f).filter((s) => /(^|\/)http\//.test(s)).map((s) => `${f.slice(SRC.length + 1)} imports ${s}`));
    expect(offending).toEqual([]);
  });

  it("no service, domain, lib or store file answers with an HTTP status (the routes map their results)", () => {
    const offending = innerFiles().flatMap((f) =>
      readFileSync(f, "utf8").split("\n").flatMap((line, i) => (/\bstatus\??:\s*[1-5]\d\d\b/.test(line) ? [`${f.slice(SRC.length + 1)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });

  it("the payment service does not import the stripe SDK", () => {
    expect(importsOf(join(SRC, "modules", "payments", "service.ts"))).not.toContain("stripe");
  });
});
