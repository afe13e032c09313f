import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * Last step of `npm run build`: makes the published type files self-contained. The element's types
 * name wire shapes of `@booking/wire`, a workspace package that is never published; its declarations
 * are emitted into `dist/npm/wire/` (tsconfig.wire.json), and this rewrites every `@booking/wire`
 * specifier of the emitted `.d.ts` files to that folder. Only type files change: the ES module and the
 * script-tag file already carry the one runtime value taken from the wire package (its limits).
 */
const out = resolve(import.meta.dirname, "../dist/npm");
const wire: Record<string, string> = { "@booking/wire": "./wire/index.ts", "@booking/wire/limits": "./wire/limits.ts" };

const left: string[] = [];
for (const name of readdirSync(out).filter((f) => f.endsWith(".d.ts"))) {
  const file = join(out, name);
  const text = readFileSync(file, "utf8").replace(/(from\s+|import\()"(@booking\/wire(?:\/[\w-]+)?)"/g, (whole, lead: string, specifier: string) => {
    const target = wire[specifier];
    if (!target) return whole;
    return `${lead}"${target}"`;
  });
  writeFileSync(file, text);
  if (text.includes("@booking/")) left.push(name);
}
// A new entry of the wire package used by the element must be added above, not shipped unresolved.
if (left.length) throw new Error(`unpublished @booking/ imports left in ${left.join(", ")}`);
