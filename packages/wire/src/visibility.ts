// No schema library here: the element bundles this rule, and the server judges bookings with the same code.
import type { ShowIf } from "./event-types.ts";

/** What the rule needs of a custom field: its name, its kind and its condition. */
export interface ConditionalField {
  name: string;
  type: string;
  showIf?: ShowIf;
}

/**
 * Whether an answer counts as given: not absent, not blank text (spaces only count as blank, as the
 * server trims answers), not an empty choice and not an unticked checkbox.
 */
export function answerGiven(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** Whether `value`, the answer of the field a condition names, meets the condition. */
export function conditionMet(condition: ShowIf, value: unknown): boolean {
  if ("equals" in condition) {
    // A multiselect meets it when any chosen option is one of the values.
    const chosen = Array.isArray(value) ? value : [value];
    return chosen.some((v) => typeof v === "string" && condition.equals.includes(v.trim()));
  }
  if ("checked" in condition) return value === true;
  return answerGiven(value);
}

/**
 * The names of the fields a visitor sees, given their answers (`answerOf` reads the answer of a
 * field). A field without `showIf` is always shown; a field with one is shown when the field it
 * names is shown and its answer meets the condition, so a field that depends on a hidden field is
 * hidden too (the hidden field's answer does not count). A condition naming no field, or a loop of
 * conditions (which the server never stores), hides the field. The element, the server and the
 * console's preview all decide with this one function.
 */
export function visibleFieldNames<F extends ConditionalField>(fields: readonly F[], answerOf: (field: F) => unknown): Set<string> {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const decided = new Map<string, boolean>();
  const deciding = new Set<string>();
  const visible = (field: F): boolean => {
    const known = decided.get(field.name);
    if (known !== undefined) return known;
    let shown = true;
    if (field.showIf) {
      const parent = byName.get(field.showIf.field);
      if (!parent || deciding.has(field.name)) shown = false;
      else {
        deciding.add(field.name);
        shown = visible(parent) && conditionMet(field.showIf, answerOf(parent));
        deciding.delete(field.name);
      }
    }
    decided.set(field.name, shown);
    return shown;
  };
  return new Set(fields.filter(visible).map((f) => f.name));
}
