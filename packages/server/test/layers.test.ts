import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The layering the code relies on, checked on the sources: services and the domain know nothing of
// HTTP (they throw domain errors the HTTP layer maps), and the payment rules know Stripe only
// through the PaymentProvider port.

const SRC = join(import.meta.dirname, "..", "src");

/** The module specifiers a source file imports from. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms)].map((m) => m[1]!);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

describe("layers", () => {
  it("no service, domain or lib file imports from src/http", () => {
    const services = readdirSync(join(SRC, "modules")).map((m) => join(SRC, "modules", m, "service.ts")).filter((f) => existsSync(f));
    const files = [...services, ...tsFiles(join(SRC, "domain")), ...tsFiles(join(SRC, "lib"))];
    expect(services.length).toBeGreaterThan(5);
    const offending = files.flatMap((f) => importsOf(f).filter((s) => /(^|\/)http\//.test(s)).map((s) => `${f.slice(SRC.length + 1)} imports ${s}`));
    expect(offending).toEqual([]);
  });

  it("the payment service does not import the stripe SDK", () => {
    expect(importsOf(join(SRC, "modules", "payments", "service.ts"))).not.toContain("stripe");
  });
});
