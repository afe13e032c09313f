import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test, expect } from "@playwright/test";
import { LANGUAGES, PLURAL_CATEGORIES, type Language } from "../src/i18n/catalog.ts";
import { en } from "../src/i18n/locales/en.ts";
import { DEFAULT_TEXTS as BUNDLED_TEXTS, PLURAL_KEYS, type LoadedCatalog } from "../src/i18n/texts.ts";
import { MANAGE_TEXTS } from "../src/i18n/manage-texts.ts";
import { SERIES_TEXTS } from "../src/i18n/series-texts.ts";

/** Every English text: the script-tag file's own, the manage part's and the form part's repeat choice. */
const DEFAULT_TEXTS = { ...BUNDLED_TEXTS, ...MANAGE_TEXTS, ...SERIES_TEXTS };

/** Every built-in catalog, English from the bundle and the others as their modules export them. */
async function catalogs(): Promise<Array<[Language, LoadedCatalog]>> {
  const others = await Promise.all(
    LANGUAGES.filter((l) => l !== "en").map(async (l) => [l, (await import(`../src/i18n/locales/${l}.ts`)).default] as [Language, LoadedCatalog]),
  );
  return [["en", { ...en, ...MANAGE_TEXTS, ...SERIES_TEXTS }], ...others];
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test.describe("the built-in catalogs", () => {
  test("name the plural categories Chromium's Intl.PluralRules uses for each language", async ({ page }) => {
    const used = await page.evaluate(
      (languages) => Object.fromEntries(languages.map((l) => [l, new Intl.PluralRules(l).resolvedOptions().pluralCategories.sort()])),
      LANGUAGES,
    );
    for (const language of LANGUAGES) expect(used[language], language).toEqual([...PLURAL_CATEGORIES[language]].sort());
  });

  test("have every key of DEFAULT_TEXTS and nothing else (missing keys are named below, to translate)", async () => {
    const keys = Object.keys(DEFAULT_TEXTS).sort();
    const problems: string[] = [];
    for (const [language, catalog] of await catalogs()) {
      const missing = keys.filter((k) => !(k in catalog));
      const unknown = Object.keys(catalog).filter((k) => !(k in DEFAULT_TEXTS));
      if (missing.length) problems.push(`${language} misses: ${missing.join(", ")}`);
      if (unknown.length) problems.push(`${language} has keys no text uses: ${unknown.join(", ")}`);
    }
    expect(problems).toEqual([]);
  });

  test("give each counting text exactly the plural forms its language needs, and plain texts as strings", async () => {
    const problems: string[] = [];
    for (const [language, catalog] of await catalogs()) {
      const needed = [...PLURAL_CATEGORIES[language]].sort();
      for (const [key, entry] of Object.entries(catalog)) {
        if (key in PLURAL_KEYS) {
          const forms = typeof entry === "object" && entry ? Object.keys(entry).sort() : [];
          if (JSON.stringify(forms) !== JSON.stringify(needed))
            problems.push(`${language}.${key} has forms [${forms.join(", ")}], needs [${needed.join(", ")}]`);
        } else if (typeof entry !== "string" || entry.trim() === "") {
          problems.push(`${language}.${key} is not a text`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test("keep the placeholders of the English text in every form", async () => {
    const problems: string[] = [];
    for (const [language, catalog] of await catalogs()) {
      for (const [key, entry] of Object.entries(catalog)) {
        const wanted = placeholders(DEFAULT_TEXTS[key as keyof typeof DEFAULT_TEXTS]);
        const forms = typeof entry === "string" ? { text: entry } : (entry ?? {});
        for (const [form, text] of Object.entries(forms)) {
          if (JSON.stringify(placeholders(text ?? "")) !== JSON.stringify(wanted))
            problems.push(`${language}.${key} (${form}) has {${placeholders(text ?? "").join("}, {")}}, English has {${wanted.join("}, {")}}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

test.describe("the script-tag build", () => {
  const dist = (path: string) => fileURLToPath(new URL(`../dist/embed/${path}`, import.meta.url));

  test("carries English only: no text of another catalog is in the file", async () => {
    const file = readFileSync(dist("booking-calendar.js"), "utf8");
    expect(file).toContain(DEFAULT_TEXTS.nothingFree);
    const found: string[] = [];
    for (const [language, catalog] of await catalogs()) {
      if (language === "en") continue;
      for (const [key, entry] of Object.entries(catalog)) {
        for (const text of typeof entry === "string" ? [entry] : Object.values(entry ?? {})) {
          // Short words ("Status: {status}", "E-Mail") may be shared with English or with code.
          if (text && text.length >= 12 && !Object.values(DEFAULT_TEXTS).includes(text as never) && file.includes(text)) found.push(`${language}.${key}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  test("writes every other language beside it as JSON, exactly its catalog", async () => {
    for (const [language, catalog] of await catalogs()) {
      if (language === "en") continue;
      expect(JSON.parse(readFileSync(dist(`locales/${language}.json`), "utf8")), language).toEqual(catalog);
    }
  });
});
