import { html, nothing, type TemplateResult } from "lit";
import { RECURRENCE_INTERVALS, type RecurrenceInterval } from "@booking/wire/constants";
import { field, fieldError, fieldMessages } from "../../base.ts";
import type { Draft, DraftEditor } from "./draft.ts";

type Recurrence = NonNullable<Draft["recurrence"]>;

/**
 * Recurring bookings: whether a visitor may repeat a booking every week or two weeks as one series,
 * and when so how often at most and at which intervals (the server refuses them for paid event types).
 */
export function recurrenceEditor(form: DraftEditor): TemplateResult {
  const t = form.t;
  const recurrence = form.draft?.recurrence ?? null;
  const error = fieldMessages(form.failure, t).recurrence?.join(" ") ?? "";
  const intervalsError = fieldError(form.failure, "recurrence.intervals");
  const setRecurrence = (change: Partial<Recurrence>): void => {
    const current = form.draft?.recurrence;
    if (current) form.set("recurrence", { ...current, ...change });
  };
  const toggle = (interval: RecurrenceInterval, on: boolean): void => {
    const chosen = new Set(recurrence?.intervals ?? []);
    if (on) chosen.add(interval);
    else chosen.delete(interval);
    setRecurrence({ intervals: RECURRENCE_INTERVALS.filter((i) => chosen.has(i)) });
  };
  return html`<fieldset aria-describedby=${error ? "et-recurrence-error" : nothing}><legend>${t.recurrence}</legend>
    ${error ? html`<p class="error" id="et-recurrence-error">${error}</p>` : nothing}
    <div class="field"><label class="check" for="et-recurring"><input id="et-recurring" type="checkbox" .checked=${!!recurrence}
      @change=${(e: Event) => form.set("recurrence", (e.target as HTMLInputElement).checked ? { maxOccurrences: 8, intervals: ["weekly", "biweekly"] } : null)}> ${t.labels.recurring}</label></div>
    ${
      recurrence
        ? html`<div class="grid">
          ${field(
            "et-max-occurrences",
            t.labels.maxOccurrences,
            (
              a,
            ) => html`<input id="et-max-occurrences" type="number" min="2" max="52" .value=${String(recurrence.maxOccurrences)} aria-describedby=${a.describedby}
            aria-invalid=${a.invalid} @input=${(e: Event) => setRecurrence({ maxOccurrences: Number((e.target as HTMLInputElement).value) })}>`,
            fieldError(form.failure, "recurrence.maxOccurrences"),
          )}
          <div class="field">${RECURRENCE_INTERVALS.map(
            (
              i,
            ) => html`<label class="check" for=${`et-interval-${i}`}><input id=${`et-interval-${i}`} type="checkbox" .checked=${recurrence.intervals.includes(i)}
              @change=${(e: Event) => toggle(i, (e.target as HTMLInputElement).checked)}> ${t.labels[i]}</label>`,
          )}${intervalsError ? html`<p class="error">${intervalsError}</p>` : nothing}</div>
        </div>`
        : nothing
    }
  </fieldset>`;
}
