import { LOCATION_TYPES } from "@booking/wire/constants";
import { html, nothing, type TemplateResult } from "lit";
import { fieldError } from "../../base.ts";
import type { DraftEditor } from "./draft.ts";

/** Where the meeting takes place: each kind of location on or off, with its address or number where it has one. */
export function locationsEditor(form: DraftEditor): TemplateResult {
  const t = form.t;
  const locations = form.draft?.locations ?? [];
  const error = fieldError(form.failure, "locations");
  return html`<fieldset aria-describedby=${error ? "et-locations-error" : nothing}><legend>${t.location}</legend>
    ${LOCATION_TYPES.map((type) => {
      const on = locations.find((l) => l.type === type);
      return html`<div class="row">
        <label class="check" for="loc-${type}"><input id="loc-${type}" type="checkbox" .checked=${!!on} @change=${(e: Event) => {
          const checked = (e.target as HTMLInputElement).checked;
          form.set("locations", checked ? [...locations, { type, value: null }] : locations.filter((l) => l.type !== type));
        }}> ${t.locationTypes[type]}</label>
        ${
          on && type !== "video-meet"
            ? html`<label class="sr-only" for="loc-${type}-value">${t.locationTypes[type]}</label><input id="loc-${type}-value" .value=${on.value ?? ""} placeholder=${t.locationTypes[type]}
          @input=${(e: Event) =>
            form.set(
              "locations",
              locations.map((l) => (l.type === type ? { type, value: (e.target as HTMLInputElement).value || null } : l)),
            )}>`
            : nothing
        }
      </div>`;
    })}
    ${error ? html`<p class="error" id="et-locations-error">${error}</p>` : nothing}
  </fieldset>`;
}
