import type { LoadedCatalog } from "./texts.ts";
import { en } from "./locales/en.ts";
import type { Language } from "./catalog.ts";

/** Where the catalogs other than English come from: `import()` in the npm build, a fetch next to the script-tag file. */
export type CatalogSource = (language: Exclude<Language, "en">) => Promise<LoadedCatalog>;

let source: CatalogSource | null = null;
const loaded = new Map<Language, LoadedCatalog>([["en", en]]);
const loading = new Map<Language, Promise<LoadedCatalog>>();

/** Sets how catalogs load; each entry file (npm, script tag) sets its own, so neither carries the other's. */
export function setCatalogSource(next: CatalogSource): void {
  source = next;
}

/** A catalog already loaded (English always is), or undefined. */
export function loadedCatalog(language: Language): LoadedCatalog | undefined {
  return loaded.get(language);
}

/**
 * Loads a language's catalog once; concurrent callers share the one load. A failed load is
 * forgotten, so a later start tries again.
 */
export function loadCatalog(language: Language): Promise<LoadedCatalog> {
  const known = loaded.get(language);
  if (known) return Promise.resolve(known);
  let pending = loading.get(language);
  if (!pending) {
    const load = source;
    pending = (load ? load(language as Exclude<Language, "en">) : Promise.reject(new Error("no catalog source")))
      .then((catalog) => {
        if (typeof catalog !== "object" || catalog === null) throw new Error(`the ${language} catalog is not an object`);
        loaded.set(language, catalog);
        return catalog;
      })
      .finally(() => loading.delete(language));
    loading.set(language, pending);
  }
  return pending;
}
