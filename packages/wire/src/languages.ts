// No schema library here: the component bundles this table and nothing else of this package.
/**
 * The languages the product speaks out of the box (the element's catalogs, the server's emails and
 * invites), each with the plural categories its grammar needs: the ones `Intl.PluralRules` names
 * for it. A catalog must give every one of them for each counted text.
 */
export const PLURAL_CATEGORIES = {
  en: ["one", "other"],
  de: ["one", "other"],
  fr: ["one", "many", "other"],
  es: ["one", "many", "other"],
  it: ["one", "many", "other"],
  pt: ["one", "many", "other"],
  nl: ["one", "other"],
  pl: ["one", "few", "many", "other"],
  cs: ["one", "few", "many", "other"],
  ja: ["other"],
} as const satisfies Record<string, readonly Intl.LDMLPluralRule[]>;
