import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/**
 * Last step of `npm run build`: makes the published type files self-contained. The element's types
 * name wire shapes of `@booking/wire`, a workspace package that is never published; its declarations
 * are emitted into `dist/npm/wire/` (tsconfig.wire.json), and this rewrites every `@booking/wire`
 * specifier of the emitted `.d.ts` files, in every folder, to that folder. Only type files change:
 * the ES module and the script-tag file already carry the few runtime values taken from the wire
 * package (its limits, its languages' plural categories, and filling and choosing a text's plural form). Then every package the type files still name must be one a site installs
 * with this one (its dependencies or peer dependencies), or the build fails.
 */
const pkgDir = resolve(import.meta.dirname, "..");
const out = join(pkgDir, "dist/npm");
const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { name: string; dependencies?: object; peerDependencies?: object };
// The package itself (its own exports) and what a site installs with it.
const installed = new Set([manifest.name, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);

/** The files in `dist/npm` that stand for the wire package's entries. */
const WIRE: Record<string, string> = {
  "@booking/wire": "wire/index.ts",
  "@booking/wire/limits": "wire/limits.ts",
  "@booking/wire/languages": "wire/languages.ts",
  "@booking/wire/i18n": "wire/i18n.ts",
};
/**
 * Packages tsc names in inferred types (`render(): import("lit-html").TemplateResult<1>`) that a
 * site has only as a dependency of a dependency: `lit` re-exports all of `lit-html`.
 */
const THROUGH: Record<string, string> = { "lit-html": "lit" };

/** Module specifiers of a type file: `from "x"`, `import("x")`, `import "x"` and `/// <reference types="x" />`. */
const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|<reference\s+types=)"([^"]+)"/g;

/** The package a bare specifier names (`@scope/name` or `name`); null for a relative one. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function typeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? typeFiles(join(dir, e.name)) : e.name.endsWith(".d.ts") ? [join(dir, e.name)] : [],
  );
}

/** `target` (relative to dist/npm) as a specifier from `file`. */
function fromFile(file: string, target: string): string {
  const path = relative(dirname(file), join(out, target)).split(sep).join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

const left: string[] = [];
for (const file of typeFiles(out)) {
  const text = readFileSync(file, "utf8").replace(SPECIFIER, (whole, lead: string, specifier: string) => {
    const wire = WIRE[specifier];
    if (wire) return `${lead}"${fromFile(file, wire)}"`;
    const through = THROUGH[specifier];
    return through ? `${lead}"${through}"` : whole;
  });
  writeFileSync(file, text);
  for (const [, , specifier] of text.matchAll(SPECIFIER)) {
    const name = packageOf(specifier!);
    if (name !== null && !installed.has(name)) left.push(`${relative(out, file)}: "${specifier}"`);
  }
}
// A new entry of the wire package used by the element must be added to WIRE, not shipped unresolved.
if (left.length) throw new Error(`the type files name packages a site does not install with this one:\n${left.join("\n")}`);
