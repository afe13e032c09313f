import { describe, expect, it } from "vitest";
import { LANGUAGES, textsOf } from "../src/i18n/index.ts";

/** Every text of a catalog by its path (`labels.title`, `dayNames.0`). */
function textsByPath(entry: unknown, path = ""): Map<string, string> {
  if (typeof entry === "string") return new Map([[path, entry]]);
  const texts = new Map<string, string>();
  for (const [key, value] of Object.entries(entry as object)) {
    for (const [p, text] of textsByPath(value, path ? `${path}.${key}` : key)) texts.set(p, text);
  }
  return texts;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const english = textsByPath(textsOf("en"));

describe("the console's catalogs", () => {
  it.each(LANGUAGES.filter((l) => l !== "en"))("%s has every text of English, in the same groups and lists, and nothing else", (language) => {
    const texts = textsByPath(textsOf(language));
    expect([...texts.keys()].filter((path) => !english.has(path))).toEqual([]);
    expect([...english.keys()].filter((path) => !texts.has(path))).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== "en"))("%s keeps the placeholders of each English text", (language) => {
    const problems = [...textsByPath(textsOf(language))]
      .filter(([path, text]) => JSON.stringify(placeholders(text)) !== JSON.stringify(placeholders(english.get(path) ?? "")))
      .map(([path]) => path);
    expect(problems).toEqual([]);
  });

  it.each(LANGUAGES)("%s has no empty text", (language) => {
    expect([...textsByPath(textsOf(language))].filter(([, text]) => text.trim() === "").map(([path]) => path)).toEqual([]);
  });
});
