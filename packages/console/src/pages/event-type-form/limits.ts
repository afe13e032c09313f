import { html, type TemplateResult } from "lit";
import { limitsFields } from "../limits-fields.ts";
import type { DraftEditor } from "./draft.ts";

/** The event type's booking limits: bookings and minutes per day, week or month, each empty for none. */
export function limitsEditor(form: DraftEditor): TemplateResult {
  const t = form.t;
  const limits = form.draft?.limits ?? {};
  return html`<fieldset aria-describedby="et-limits-help"><legend>${t.limits}</legend>
    <p class="help" id="et-limits-help">${t.limitsHelp}</p>
    ${limitsFields(t, "et-limits", limits, (kind, value) => form.set("limits", { ...limits, [kind]: value }), form.failure)}
  </fieldset>`;
}
