import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { LANGUAGES } from "../src/i18n/catalog.ts";

/**
 * Step of `npm run build` after the script-tag build: writes each language but English as
 * `dist/embed/locales/<language>.json`, which the script-tag file fetches from beside itself when a
 * visitor's language is chosen (the server serves them at /embed/locales/). English is in the file.
 */
const out = resolve(import.meta.dirname, "../dist/embed/locales");
mkdirSync(out, { recursive: true });
for (const language of LANGUAGES.filter((l) => l !== "en")) {
  const catalog = (await import(`../src/i18n/locales/${language}.ts`)).default;
  writeFileSync(resolve(out, `${language}.json`), JSON.stringify(catalog));
}
