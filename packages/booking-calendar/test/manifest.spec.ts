import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, SITE, test } from "./fixtures.ts";

/*
 * The Custom Elements Manifest (`custom-elements.json`, made by `npm run build` from the element's
 * class comment) held to the element itself: every attribute the running element observes, every
 * event its source dispatches to the page, every part and named slot its templates name and every
 * custom property its styles read must be described, so one added without documenting it fails here.
 * The expected names come from the code and the running element, never from a list kept here.
 */
const pkgDir = resolve(import.meta.dirname, "..");
const src = join(pkgDir, "src");

interface Named {
  name: string;
  description?: string;
}
interface Declaration {
  kind: string;
  name: string;
  tagName?: string;
  customElement?: boolean;
  attributes?: Named[];
  events?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
  slots?: Named[];
}
interface Manifest {
  schemaVersion: string;
  modules: { path: string; declarations?: Declaration[]; exports?: { kind: string; name: string; declaration: { name: string } }[] }[];
}

/** The element's sources. `popup/` is left out: the popup and the floating button are elements of their own. */
function elementSources(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(src, "popup") ? [] : elementSources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every match of `pattern`'s first group across `files` (by default the element's sources). */
function named(pattern: RegExp, files = elementSources()): Set<string> {
  return new Set(files.flatMap((file) => [...readFileSync(file, "utf8").matchAll(pattern)].map((m) => m[1]!)));
}

/**
 * The sources that render into the element's own shadow root: all but the sub-views, which are
 * elements of their own (their slots are filled by the element, not by a page).
 */
function ownTemplates(): string[] {
  return elementSources().filter((file) => file.endsWith("booking-calendar.component.ts") || !/\bextends LitElement\b/.test(readFileSync(file, "utf8")));
}

/** Part names of `part="a b"`, `part=${x ? "a b" : "a"}` and `exportparts="a, inner:b"` (the name outside). */
function partNames(): Set<string> {
  const names = new Set<string>();
  for (const file of elementSources()) {
    const text = readFileSync(file, "utf8");
    for (const [, quoted, expression] of text.matchAll(/\bpart=(?:"([^"]*)"|\$\{([^}]*)\})/g)) {
      const values = quoted !== undefined ? [quoted] : [...expression!.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
      for (const value of values) for (const name of value.split(/\s+/)) if (name) names.add(name);
    }
    for (const [, list] of text.matchAll(/\bexportparts="([^"]*)"/g)) {
      for (const entry of list!.split(",")) names.add(entry.split(":").pop()!.trim());
    }
  }
  return names;
}

function element(): { manifest: Manifest; declaration: Declaration; module: Manifest["modules"][number] } {
  const manifest = JSON.parse(readFileSync(join(pkgDir, "custom-elements.json"), "utf8")) as Manifest;
  for (const module of manifest.modules) {
    const declaration = module.declarations?.find((d) => d.tagName === "booking-calendar");
    if (declaration) return { manifest, declaration, module };
  }
  throw new Error("custom-elements.json describes no <booking-calendar>");
}

const names = (list: Named[] | undefined) => new Set((list ?? []).map((entry) => entry.name));
/** What `expected` names that `described` does not: the undocumented ones. */
const missing = (expected: Set<string>, described: Set<string>) => [...expected].filter((name) => !described.has(name)).sort();
/** Entries without a description: a tool would show the name alone. */
const undescribed = (list: Named[] | undefined) => (list ?? []).filter((entry) => !entry.description?.trim()).map((entry) => entry.name);

test.describe("the Custom Elements Manifest", () => {
  test("is shipped in the package and named by package.json, describing the element where a site imports it", () => {
    const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { customElements: string; files: string[]; exports: Record<string, unknown> };
    expect(pkg.customElements).toBe("custom-elements.json");
    expect(pkg.files).toContain(pkg.customElements);
    const { manifest, declaration, module } = element();
    expect(manifest.schemaVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(declaration).toMatchObject({ kind: "class", name: "BookingCalendar", customElement: true });
    // The module named is the package's own entry, and it exports the class and defines the tag.
    expect((pkg.exports["."] as { import: string }).import).toBe(`./${module.path}`);
    expect(existsSync(join(pkgDir, module.path))).toBe(true);
    expect(module.exports).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "js", name: "BookingCalendar" }),
        expect.objectContaining({
          kind: "custom-element-definition",
          name: "booking-calendar",
          declaration: expect.objectContaining({ name: "BookingCalendar" }),
        }),
      ]),
    );
  });

  test("lists every attribute the running element observes, and no internal state", async ({ page }) => {
    await page.goto(`${SITE}/popup`);
    const observed = await page.evaluate(async () => {
      await customElements.whenDefined("booking-calendar");
      return [...(customElements.get("booking-calendar") as unknown as { observedAttributes: string[] }).observedAttributes];
    });
    expect(observed).toContain("token");
    const { declaration } = element();
    expect(missing(new Set(observed), names(declaration.attributes))).toEqual([]);
    // Nothing more either: a described attribute the element ignores would mislead.
    expect(missing(names(declaration.attributes), new Set(observed))).toEqual([]);
    expect(undescribed(declaration.attributes)).toEqual([]);
  });

  test("lists every event the source dispatches to the page", () => {
    // Through `emit` (events.ts), or any event of its own that leaves the shadow root.
    const dispatched = new Set([...named(/\bemit\(\s*[\w.]+\s*,\s*"([^"]+)"/g), ...named(/new CustomEvent\(\s*"([^"]+)"\s*,\s*\{[^}]*\bcomposed:\s*true/g)]);
    expect(dispatched).toContain("booking-reservation-confirmed");
    const { declaration } = element();
    expect(missing(dispatched, names(declaration.events))).toEqual([]);
    expect(undescribed(declaration.events)).toEqual([]);
  });

  test("lists every part and named slot of the element's templates", () => {
    const parts = partNames();
    expect(parts).toContain("frame");
    expect(parts).toContain("day-free");
    const slots = named(/<slot\s+name="([^"]+)"/g, ownTemplates());
    expect(slots).toContain("payment-element");
    const { declaration } = element();
    expect(missing(parts, names(declaration.cssParts))).toEqual([]);
    expect(missing(slots, names(declaration.slots))).toEqual([]);
    expect(undescribed(declaration.cssParts)).toEqual([]);
  });

  test("lists every custom property the element's styles read", () => {
    const read = named(/var\(\s*(--[\w-]+)/g);
    expect(read).toContain("--bc-primary");
    const { declaration } = element();
    expect(missing(read, names(declaration.cssProperties))).toEqual([]);
    expect(undescribed(declaration.cssProperties)).toEqual([]);
  });
});
