import { fill } from "@booking/wire/i18n";
import { LitElement, html, nothing, type TemplateResult } from "lit";
import { isLanguage, textsOf, type Texts } from "./i18n/index.ts";
import { ApiFailure, type FieldProblem } from "./api.ts";

/**
 * A console page: rendered into the document (one style sheet for all, see styles.ts), given the
 * texts of the chosen language by the shell.
 */
export class ConsolePage extends LitElement {
  static override properties = { t: { attribute: false } };
  declare t: Texts;

  constructor() {
    super();
    this.t = textsOf("en");
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  /** Tells screen readers (and everyone) how a change went, in the shell's live region. */
  protected announce(message: string, tone: "good" | "bad" = "good"): void {
    this.dispatchEvent(new CustomEvent("console-announce", { detail: { message, tone }, bubbles: true, composed: true }));
  }

  /**
   * Runs a request of the page; when it fails, `recover` sets what the page shows instead (an empty
   * list, the refused form's errors) and the failure is announced with its API message and code.
   */
  protected async attempt(action: () => Promise<void>, recover?: (error: unknown) => void): Promise<void> {
    try {
      await action();
    } catch (error) {
      recover?.(error);
      this.announce(failureText(error), "bad");
    }
  }
}

/** Whether some page holds changes not saved yet: the shell asks before leaving it. */
export const unsaved = { dirty: false };

/** The texts of the page's language: the shell keeps `<html lang>` at the language chosen. */
export function pageTexts(): Texts {
  const lang = document.documentElement.lang;
  return textsOf(isLanguage(lang) ? lang : "en");
}

/** One field error in the console's language, by its code; the API's (English) message for a code without a text here. */
function worded({ code, message, min, max }: FieldProblem, t: Texts): string {
  const text = t.fieldErrors[code];
  if (!text || (text.includes("{min}") && min === undefined) || (text.includes("{max}") && max === undefined)) return message;
  const number = (n: number | undefined) => new Intl.NumberFormat(document.documentElement.lang || "en").format(n ?? 0);
  return fill(text, { min: number(min), max: number(max) });
}

/**
 * A 422's messages by field, worded in the console's language by their `fieldErrors` codes; an
 * answer without codes keeps its `errors` as sent.
 */
export function fieldMessages(failure: ApiFailure | null, t: Texts = pageTexts()): Record<string, string[]> {
  if (!failure) return {};
  if (!failure.fieldErrors.length) return failure.errors;
  const messages: Record<string, string[]> = {};
  for (const problem of failure.fieldErrors) {
    const text = worded(problem, t);
    const list = (messages[problem.field] ??= []);
    if (!list.includes(text)) list.push(text);
  }
  return messages;
}

/** The messages of one field of a 422 (by its name, or a name under it) joined, or "". */
export function fieldError(failure: ApiFailure | null, name: string, t: Texts = pageTexts()): string {
  if (!failure) return "";
  const messages = Object.entries(fieldMessages(failure, t))
    .filter(([key]) => key === name || key.startsWith(`${name}.`))
    .flatMap(([, list]) => list);
  return messages.join(" ");
}

/**
 * A labelled control with its help and its error, tied together for screen readers
 * (`aria-describedby`, `aria-invalid`).
 */
export function field(
  id: string,
  label: string,
  control: (attrs: { describedby: string; invalid: "true" | "false" }) => TemplateResult,
  error = "",
  help = "",
): TemplateResult {
  const described = [help ? `${id}-help` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return html`<div class="field">
    <label for=${id}>${label}</label>
    ${control({ describedby: described, invalid: error ? "true" : "false" })}
    ${help ? html`<p class="help" id="${id}-help">${help}</p>` : nothing}
    ${error ? html`<p class="error" id="${id}-error">${error}</p>` : nothing}
  </div>`;
}

/** The API's refusal a request failed with (its field errors show at the form), or null for any other failure. */
export const refusalOf = (error: unknown): ApiFailure | null => (error instanceof ApiFailure ? error : null);

/** What went wrong, in the console's language where it has a text for the code, else the API's message. */
export const failureMessage = (failure: ApiFailure, t: Texts = pageTexts()): string => t.failures[failure.code] ?? failure.message;

/** A message for a failure: its message, with the code for support. */
export const failureText = (error: unknown, t: Texts = pageTexts()): string =>
  error instanceof ApiFailure ? `${failureMessage(error, t)} (${error.code})` : String(error);

/** Formats an instant in the viewer's zone and language. */
export function when(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/**
 * The list of a refused save's field errors at the top of a form (each named by its field's label
 * where the form gives `labelOf` one, else by its path), so
 * a screen reader hears them all at once and errors of settings without a field of their own show too.
 */
export function errorSummary(
  failure: ApiFailure | null,
  heading: string,
  t: Texts = pageTexts(),
  labelOf: (key: string) => string | undefined = () => undefined,
): TemplateResult | typeof nothing {
  const entries = Object.entries(fieldMessages(failure, t));
  if (!entries.length) return nothing;
  return html`<div class="notice bad" role="alert"><p>${heading}</p><ul>${entries.map(([key, messages]) => {
    const label = labelOf(key);
    return html`<li>${label ?? html`<code>${key}</code>`}: ${messages.join(" ")}</li>`;
  })}</ul></div>`;
}
