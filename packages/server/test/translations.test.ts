import { describe, expect, it } from "vitest";
import { translationFor } from "../src/domain/event-type.ts";
import { setup } from "./utils.ts";

type Setup = Awaited<ReturnType<typeof setup>>;

const FIELDS = [
  { label: "Company", name: "company", type: "text", required: true, placeholder: "Acme" },
  { label: "Team size", name: "team_size", type: "select", options: ["1-10", "11-50", "51+"] },
];

const GERMAN = {
  title: "Kennenlerngespräch",
  description: "Eine halbe Stunde, um uns kennenzulernen.",
  customFields: { company: { label: "Firma", placeholder: "Muster GmbH" }, team_size: { label: "Teamgröße", options: ["1–10", "11–50", "über 50"] } },
  locations: { address: "Unser Büro in Berlin" },
  texts: { book: "Verbindlich buchen" },
};

async function created(t: Setup, body: Record<string, unknown>) {
  const r = await t.admin("POST", "/admin/event-types", body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as { id: number; token: string } & Record<string, any>;
}

const configurationOf = async (t: Setup, token: string) => (await t.call("POST", "/event-types/init", { token, body: {} })).body.data;

describe("the language of a new event type", () => {
  it("is the visitor's browser's by default (empty preset), while a given one is kept", async () => {
    const t = await setup();
    const bare = await created(t, { title: "Bare" });
    expect(bare.locale.preset).toBe("");
    expect((await configurationOf(t, bare.token)).configuration.locale.preset).toBe("");
    const english = await created(t, { title: "English", locale: { preset: "en" } });
    // An event type that has a language keeps it through changes of other settings.
    const r = await t.admin("PATCH", `/admin/event-types/${english.id}`, { title: "Still English", locale: { startDayOfWeek: "sunday" } });
    expect(r.body.data.locale).toMatchObject({ preset: "en", startDayOfWeek: "sunday" });
  });
});

describe("the organizer's texts per language", () => {
  it("are stored, shown to the admin and handed to the element with the configuration; plain texts stay as they were", async () => {
    const t = await setup();
    const et = await created(t, {
      title: "Intro call",
      customFields: FIELDS,
      locations: [{ type: "video-meet" }, { type: "address", value: "Alexanderplatz 1, Berlin", label: "Our Berlin office" }],
      translations: { de: GERMAN, ja: { title: "初回面談" } },
    });
    expect(et.translations).toEqual({ de: GERMAN, ja: { title: "初回面談" } });
    const init = await configurationOf(t, et.token);
    const configuration = init.configuration;
    expect(configuration.title).toBe("Intro call");
    expect(configuration.translations).toEqual({ de: GERMAN, ja: { title: "初回面談" } });
    expect(configuration.locations).toEqual([
      { type: "video-meet", value: null },
      { type: "address", value: "Alexanderplatz 1, Berlin", label: "Our Berlin office" },
    ]);
    // The answers a visitor sends are still the event type's own options.
    expect(init.customFields.find((f: { name: string }) => f.name === "team_size").options).toEqual(["1-10", "11-50", "51+"]);
    expect((await t.call("GET", "/configuration", { token: et.token })).body.data.configuration.translations.de.title).toBe("Kennenlerngespräch");
  });

  it("an event type without them has no translations key in its configuration", async () => {
    const t = await setup();
    const et = await created(t, { title: "Plain" });
    const configuration = (await configurationOf(t, et.token)).configuration;
    expect("translations" in configuration).toBe(false);
    expect(configuration.locations).toEqual([{ type: "video-meet", value: null }]);
  });

  it("refuses texts for fields or places the event type does not have, option lists that do not fit, and malformed tags, each at its path", async () => {
    const t = await setup();
    const r = await t.admin("POST", "/admin/event-types", {
      title: "Intro call",
      customFields: FIELDS,
      translations: {
        de: { customFields: { nickname: { label: "Spitzname" }, team_size: { options: ["klein", "groß"] } }, locations: { phone: "Anruf" } },
      },
    });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ success: false, status: 422 });
    expect(Object.keys(r.body.errors).sort()).toEqual([
      "translations.de.customFields.nickname",
      "translations.de.customFields.team_size.options",
      "translations.de.locations.phone",
    ]);
    const tag = await t.admin("POST", "/admin/event-types", { title: "Intro call", translations: { de_DE: { title: "Hallo" } } });
    expect(tag.status).toBe(422);
    expect(tag.headers.get("content-type")).toMatch(/^application\/json/);
    const empty = await t.admin("POST", "/admin/event-types", { title: "Intro call", translations: { de: { title: "" } } });
    expect(empty.status).toBe(422);
  });

  it("a change that removes a field or place drops its texts instead of refusing, and {} removes them all", async () => {
    const t = await setup();
    const et = await created(t, {
      title: "Intro call",
      customFields: FIELDS,
      locations: [{ type: "video-meet" }, { type: "address", value: "Alexanderplatz 1" }],
      translations: { de: GERMAN },
    });
    const r = await t.admin("PATCH", `/admin/event-types/${et.id}`, { customFields: [FIELDS[0]], locations: [{ type: "video-meet" }] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.translations.de.customFields).toEqual({ company: GERMAN.customFields.company });
    expect(r.body.data.translations.de.locations).toEqual({});
    expect(r.body.data.translations.de.title).toBe("Kennenlerngespräch");
    const cleared = await t.admin("PATCH", `/admin/event-types/${et.id}`, { translations: {} });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.translations).toBeUndefined();
    expect("translations" in (await configurationOf(t, et.token)).configuration).toBe(false);
  });
});

describe("the organizer's texts for the language a visitor booked in", () => {
  it("are the translation of the tag, else of its base language, else none (the event type's own texts)", () => {
    const settings = { translations: { de: { title: "Kennenlerngespräch" }, "pt-BR": { title: "Conversa inicial" } } };
    expect(translationFor(settings, "de")?.title).toBe("Kennenlerngespräch");
    expect(translationFor(settings, "de-AT")?.title).toBe("Kennenlerngespräch");
    expect(translationFor(settings, "pt-br")?.title).toBe("Conversa inicial");
    expect(translationFor(settings, "pt")).toBeUndefined();
    expect(translationFor(settings, "fr")).toBeUndefined();
    expect(translationFor(settings, null)).toBeUndefined();
    expect(translationFor({}, "de")).toBeUndefined();
  });
});

describe("the booking page in the visitor's language", () => {
  it("has the organizer's heading in the visitor's first language that has one, and a language even with no preset", async () => {
    const t = await setup();
    await created(t, {
      title: "Intro call",
      description: "Plain.",
      slug: "intro",
      translations: { de: { title: "Kennenlerngespräch", description: "Deutsch." } },
    });
    const page = async (acceptLanguage?: string) => {
      const r = await t.call("GET", "/book/intro", { token: null, ...(acceptLanguage ? { headers: { "accept-language": acceptLanguage } } : {}) });
      expect(r.status).toBe(200);
      expect(r.headers.get("vary")).toMatch(/Accept-Language/i);
      return r.text;
    };
    const german = await page("fr;q=0.5, de-AT, en;q=0.8");
    expect(german).toContain('<html lang="de-AT">');
    expect(german).toContain("<h1>Kennenlerngespräch</h1>");
    expect(german).toContain("Deutsch.");
    const french = await page("fr-FR,fr;q=0.9");
    expect(french).toContain('<html lang="fr-FR">');
    expect(french).toContain("<h1>Intro call</h1>");
    // No header, no preset: never an empty lang, which screen readers cannot use.
    expect(await page()).toContain('<html lang="en">');
    expect(await page("*;q=0.5, <script>")).toContain('<html lang="en">');
  });
});
