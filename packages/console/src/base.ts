import { LitElement, html, nothing, type TemplateResult } from "lit";
import { textsOf, type Texts } from "./i18n.ts";
import { ApiFailure } from "./api.ts";

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

/** The messages of one field of a 422 (by its name, or a name under it) joined, or "". */
export function fieldError(failure: ApiFailure | null, name: string): string {
  if (!failure) return "";
  const messages = Object.entries(failure.errors)
    .filter(([key]) => key === name || key.startsWith(`${name}.`))
    .flatMap(([, list]) => list);
  return messages.join(" ");
}

/**
 * A labelled control with its help and its error, tied together for screen readers
 * (`aria-describedby`, `aria-invalid`).
 */
export function field(id: string, label: string, control: (attrs: { describedby: string; invalid: "true" | "false" }) => TemplateResult, error = "", help = ""): TemplateResult {
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

/** A message for a failure: its API message, with the code for support. */
export const failureText = (error: unknown): string => (error instanceof ApiFailure ? `${error.message} (${error.code})` : String(error));

/** Formats an instant in the viewer's zone and language. */
export function when(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/**
 * The list of a refused save's field errors at the top of a form (each named by its field path), so
 * a screen reader hears them all at once and errors of settings without a field of their own show too.
 */
export function errorSummary(failure: ApiFailure | null, heading: string): TemplateResult | typeof nothing {
  const entries = Object.entries(failure?.errors ?? {});
  if (!entries.length) return nothing;
  return html`<div class="notice bad" role="alert"><p>${heading}</p><ul>${entries.map(([key, messages]) => html`<li><code>${key}</code>: ${messages.join(" ")}</li>`)}</ul></div>`;
}
