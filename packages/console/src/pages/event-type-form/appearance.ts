import { THEME_COLOR_KEYS, THEME_MODES } from "@booking/wire/constants";
import { html, type TemplateResult } from "lit";
import { field, fieldError } from "../../base.ts";
import { CALENDAR_LANGUAGES } from "../../i18n/index.ts";
import type { Draft, DraftEditor } from "./draft.ts";
import { settingInput } from "./settings.ts";

type Theme = NonNullable<Draft["theme"]>;
type Locale = NonNullable<Draft["locale"]>;

/** Changes some of the theme, keeping the rest. */
function setTheme(form: DraftEditor, change: Partial<Theme>): void {
  form.set("theme", { ...form.draft?.theme, ...change });
}

/** Changes some of the calendar's language settings, keeping the rest. */
function setLocale(form: DraftEditor, change: Partial<Locale>): void {
  form.set("locale", { ...form.draft?.locale, ...change });
}

/**
 * The calendar's language: one of the element's built-in languages, or the visitor's browser (the
 * default, an empty preset). A tag set through the API that is not listed stays offered as it is.
 */
function languageChoice(form: DraftEditor): TemplateResult {
  const t = form.t;
  const preset = form.draft?.locale?.preset ?? "";
  const choices: [string, string][] = [["", t.browserLanguage], ...CALENDAR_LANGUAGES.map(([tag, name]) => [tag, `${name} (${tag})`] as [string, string])];
  if (preset && !choices.some(([tag]) => tag === preset)) choices.push([preset, preset]);
  return field(
    "et-locale-preset",
    t.calendarLanguage,
    (a) => html`<select id="et-locale-preset" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
    @change=${(e: Event) => setLocale(form, { preset: (e.target as HTMLSelectElement).value })}>
    ${choices.map(([tag, name]) => html`<option value=${tag} ?selected=${tag === preset}>${name}</option>`)}</select>`,
    fieldError(form.failure, "locale.preset", t),
  );
}

/** How the calendar looks and speaks: light or dark, corners, colours, language, first day of the week, and its texts. */
export function appearanceEditor(form: DraftEditor): TemplateResult {
  const t = form.t;
  const texts = form.draft?.locale?.texts ?? {};
  const theme = form.draft?.theme ?? {};
  return html`<fieldset><legend>${t.appearance}</legend>
    <div class="grid">
      ${field(
        "et-mode",
        t.labels.mode,
        () => html`<select id="et-mode" @change=${(e: Event) => {
          const chosen = (e.target as HTMLSelectElement).value;
          setTheme(form, { mode: THEME_MODES.find((m) => m === chosen) ?? "light" });
        }}>
        ${THEME_MODES.map((m) => html`<option value=${m} ?selected=${theme.mode === m}>${t.modes[m]}</option>`)}</select>`,
      )}
      ${settingInput(form, "theme.borderRadius", t.labels.cornerRadius, theme.borderRadius, (raw) => setTheme(form, { borderRadius: raw }))}
      ${languageChoice(form)}
      ${field(
        "et-week",
        t.labels.weekStarts,
        () => html`<select id="et-week" @change=${(e: Event) => setLocale(form, { startDayOfWeek: (e.target as HTMLSelectElement).value === "sunday" ? "sunday" : "monday" })}>
        ${(
          [
            ["monday", 0],
            ["sunday", 6],
          ] as const
        ).map(([d, i]) => html`<option value=${d} ?selected=${form.draft?.locale?.startDayOfWeek === d}>${t.dayNames[i]}</option>`)}</select>`,
      )}
      ${THEME_COLOR_KEYS.map((c) =>
        field(
          `et-color-${c}`,
          `${t.labels.colour}: ${c}`,
          (a) => html`<input id="et-color-${c}" .value=${theme.colors?.[c] ?? ""} placeholder="#2563eb"
        aria-describedby=${a.describedby} aria-invalid=${a.invalid}
        @input=${(e: Event) => {
          const colors = { ...theme.colors };
          const value = (e.target as HTMLInputElement).value.trim();
          if (value) colors[c] = value;
          else delete colors[c];
          setTheme(form, { colors });
        }}>`,
          fieldError(form.failure, `theme.colors.${c}`),
        ),
      )}
    </div>
    ${field(
      "et-texts",
      t.labels.texts,
      (a) => html`<textarea id="et-texts" rows="3" style="width: 100%" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
      .value=${Object.entries(texts)
        .map(([k, v]) => `${k}=${v}`)
        .join("\n")}
      @input=${(e: Event) =>
        setLocale(form, {
          texts: Object.fromEntries(
            (e.target as HTMLTextAreaElement).value
              .split("\n")
              .filter((l) => l.includes("="))
              .map((l) => [l.slice(0, l.indexOf("=")).trim(), l.slice(l.indexOf("=") + 1)]),
          ),
        })}></textarea>`,
      fieldError(form.failure, "locale.texts"),
    )}
  </fieldset>`;
}
