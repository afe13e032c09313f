import { CUSTOM_FIELD_TYPES, type CustomFieldType } from "@booking/wire/constants";
import { html, nothing, type TemplateResult } from "lit";
import { field, fieldError } from "../../base.ts";
import { conditionEditor, dependentsFollowing } from "./condition.ts";
import type { Draft, DraftEditor } from "./draft.ts";

type CustomField = NonNullable<Draft["customFields"]>[number];

/** The questions the booking form asks besides name and email: add, label, type, options, required, condition, reorder, remove. */
export function customFieldsEditor(form: DraftEditor): TemplateResult {
  const t = form.t;
  const fields = form.draft?.customFields ?? [];
  const put = (next: CustomField[]) =>
    form.set(
      "customFields",
      next.map((f, i) => ({ ...f, order: i })),
    );
  const change = (i: number, patch: Partial<CustomField>) => {
    const next = fields.map((f, j) => (j === i ? { ...f, ...patch } : f));
    const before = fields[i]!.name;
    put(patch.name !== undefined && before !== "" && patch.name !== before ? dependentsFollowing(next, before, patch.name) : next);
  };
  const remove = (i: number) =>
    put(
      dependentsFollowing(
        fields.filter((_, j) => j !== i),
        fields[i]!.name,
        null,
      ),
    );
  const setCondition = (i: number, showIf: CustomField["showIf"]) => {
    const { showIf: _, ...rest } = fields[i]!;
    put(fields.map((f, j) => (j === i ? (showIf ? { ...rest, showIf } : rest) : f)));
  };
  const move = (i: number, by: number) => {
    const next = [...fields];
    const [moved] = next.splice(i, 1);
    next.splice(i + by, 0, moved!);
    put(next);
  };
  return html`<fieldset><legend>${t.fields}</legend>
    ${fields.map(
      (f, i) => html`<fieldset><legend>${f.label || `#${i + 1}`}</legend>
      <div class="grid">
        ${field(`cf-${i}-label`, t.labels.label, (a) => html`<input id="cf-${i}-label" .value=${f.label} aria-describedby=${a.describedby} aria-invalid=${a.invalid} @input=${(e: Event) => change(i, { label: (e.target as HTMLInputElement).value })}>`, fieldError(form.failure, `customFields.${i}.label`))}
        ${field(`cf-${i}-name`, t.labels.name, (a) => html`<input id="cf-${i}-name" .value=${f.name} aria-describedby=${a.describedby} aria-invalid=${a.invalid} @input=${(e: Event) => change(i, { name: (e.target as HTMLInputElement).value })}>`, fieldError(form.failure, `customFields.${i}.name`))}
        ${field(
          `cf-${i}-type`,
          t.labels.type,
          () =>
            html`<select id="cf-${i}-type" @change=${(e: Event) => {
              const chosen = (e.target as HTMLSelectElement).value;
              const type: CustomFieldType = CUSTOM_FIELD_TYPES.find((k) => k === chosen) ?? "text";
              const choice = type === "select" || type === "multiselect";
              const { options: _o, ...rest } = f;
              change(i, choice ? { ...rest, type, options: f.options ?? ["A", "B"] } : { ...rest, type });
            }}>${CUSTOM_FIELD_TYPES.map((type) => html`<option value=${type} ?selected=${f.type === type}>${t.fieldTypes[type]}</option>`)}</select>`,
        )}
        ${
          f.type === "select" || f.type === "multiselect"
            ? field(
                `cf-${i}-options`,
                t.options,
                (a) => html`<input id="cf-${i}-options" .value=${(f.options ?? []).join(", ")} aria-describedby=${a.describedby} aria-invalid=${a.invalid}
              @input=${(e: Event) =>
                change(i, {
                  options: (e.target as HTMLInputElement).value
                    .split(",")
                    .map((s) => s.trim())
                    .filter(Boolean),
                })}>`,
                fieldError(form.failure, `customFields.${i}.options`),
              )
            : nothing
        }
      </div>
      ${conditionEditor(t, fields, i, form.failure, (showIf) => setCondition(i, showIf))}
      <div class="row">
        <label class="check" for="cf-${i}-required"><input id="cf-${i}-required" type="checkbox" .checked=${f.required === true} @change=${(e: Event) => change(i, { required: (e.target as HTMLInputElement).checked })}> ${t.required}</label>
        <button type="button" ?disabled=${i === 0} @click=${() => move(i, -1)} aria-label="${t.moveUp}: ${f.label}">↑</button>
        <button type="button" ?disabled=${i === fields.length - 1} @click=${() => move(i, 1)} aria-label="${t.moveDown}: ${f.label}">↓</button>
        <button type="button" class="danger" @click=${() => remove(i)} aria-label="${t.remove}: ${f.label}">${t.remove}</button>
      </div>
    </fieldset>`,
    )}
    <button type="button" @click=${() => put([...fields, { label: "", name: `field_${fields.length + 1}`, type: "text", required: false }])}>${t.addField}</button>
  </fieldset>`;
}
