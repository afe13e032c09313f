import type { ShowIf } from "@booking/wire";
import { html, nothing, type TemplateResult } from "lit";
import { field, fieldError } from "../../base.ts";
import type { Texts } from "../../i18n/index.ts";
import type { Draft } from "./draft.ts";

type CustomField = NonNullable<Draft["customFields"]>[number];
type Kind = "equals" | "checked" | "notEmpty";

/** The conditions an earlier field's type allows: a choice's values, a checkbox's tick, any field's answer. */
function kindsFor(parent: CustomField): Kind[] {
  if (parent.type === "select" || parent.type === "multiselect") return ["equals", "notEmpty"];
  return parent.type === "checkbox" ? ["checked"] : ["notEmpty"];
}

/** A condition of `kind` on `parent`, starting from what `before` had where it still fits. */
function conditionOf(parent: CustomField, kind: Kind, before?: ShowIf): ShowIf {
  if (kind === "checked") return { field: parent.name, checked: true };
  if (kind === "notEmpty") return { field: parent.name, notEmpty: true };
  const kept = before && "equals" in before ? before.equals.filter((v) => parent.options?.includes(v)) : [];
  return { field: parent.name, equals: kept.length ? kept : (parent.options ?? []).slice(0, 1) };
}

/**
 * The condition editor of the field at `i`: always shown, or only when one of the fields before it
 * is answered a certain way (the kinds its type allows; for a choice, which of its values). The
 * live preview beside the form shows the condition at work as soon as it is set. `change` replaces
 * the field's `showIf` (undefined: always shown).
 */
export function conditionEditor(
  t: Texts,
  fields: CustomField[],
  i: number,
  failure: Parameters<typeof fieldError>[0],
  change: (showIf: ShowIf | undefined) => void,
): TemplateResult {
  const f = fields[i]!;
  const earlier = fields.slice(0, i).filter((p) => p.name !== "");
  if (earlier.length === 0 && !f.showIf) return html``;
  const condition = f.showIf;
  const parent = condition ? fields.find((p) => p.name === condition.field) : undefined;
  const kind: Kind | undefined = condition ? ("equals" in condition ? "equals" : "checked" in condition ? "checked" : "notEmpty") : undefined;
  const id = `cf-${i}-show`;
  return html`<div class="row">
    ${field(
      `${id}-field`,
      t.showIf.field,
      (a) => html`<select id="${id}-field" aria-describedby=${a.describedby} aria-invalid=${a.invalid} @change=${(e: Event) => {
        const chosen = earlier.find((p) => p.name === (e.target as HTMLSelectElement).value);
        change(chosen ? conditionOf(chosen, kindsFor(chosen)[0]!, condition) : undefined);
      }}>
        <option value="" ?selected=${!condition}>${t.showIf.always}</option>
        ${earlier.map((p) => html`<option value=${p.name} ?selected=${condition?.field === p.name}>${t.showIf.when} ${p.label || p.name} …</option>`)}
        ${
          condition && !earlier.some((p) => p.name === condition.field)
            ? html`<option value=${condition.field} selected>${t.showIf.when} ${parent?.label || condition.field} …</option>`
            : nothing
        }
      </select>`,
      fieldError(failure, `customFields.${i}.showIf`),
    )}
    ${
      parent && kind
        ? field(
            `${id}-kind`,
            t.showIf.kind,
            () => html`<select id="${id}-kind" @change=${(e: Event) => change(conditionOf(parent, (e.target as HTMLSelectElement).value as Kind, condition))}>
              ${[...new Set([...kindsFor(parent), kind])].map((k) => html`<option value=${k} ?selected=${k === kind}>${t.showIf[k]}</option>`)}
            </select>`,
          )
        : nothing
    }
    ${
      parent && condition && "equals" in condition
        ? html`<fieldset><legend>${t.showIf.values}</legend>
          ${(parent.options ?? []).map(
            (
              option,
              j,
            ) => html`<label class="check" for="${id}-value-${j}"><input id="${id}-value-${j}" type="checkbox" .checked=${condition.equals.includes(option)}
              @change=${(e: Event) => {
                const on = (e.target as HTMLInputElement).checked;
                const equals = (parent.options ?? []).filter((o) => (o === option ? on : condition.equals.includes(o)));
                change({ field: parent.name, equals });
              }}> ${option}</label>`,
          )}
        </fieldset>`
        : nothing
    }
  </div>`;
}

/**
 * `fields` once the field named `from` is renamed to `to` (the fields that depend on it follow the
 * new name) or removed (`to` null: they are shown always).
 */
export function dependentsFollowing(fields: CustomField[], from: string, to: string | null): CustomField[] {
  return fields.map((f) => {
    if (f.showIf?.field !== from) return f;
    if (to !== null) return { ...f, showIf: { ...f.showIf, field: to } };
    const { showIf: _, ...rest } = f;
    return rest;
  });
}
