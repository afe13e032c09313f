import type { CatalogSource } from "../load.ts";

/** The npm build's catalogs: each its own chunk, imported the first time its language is chosen. */
const catalogs = {
  de: () => import("./de.ts"),
  fr: () => import("./fr.ts"),
  es: () => import("./es.ts"),
  it: () => import("./it.ts"),
  pt: () => import("./pt.ts"),
  nl: () => import("./nl.ts"),
  pl: () => import("./pl.ts"),
  cs: () => import("./cs.ts"),
  ja: () => import("./ja.ts"),
} satisfies Record<Parameters<CatalogSource>[0], () => Promise<{ default: unknown }>>;

/** Loads a catalog by dynamic import, for bundlers (they split each language into its own file). */
export const importCatalog: CatalogSource = async (language) => (await catalogs[language]()).default;
