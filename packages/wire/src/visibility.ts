// No schema library here: the element bundles this rule, and the server judges bookings with the same code.
import type { ShowIf } from "./event-types.ts";

/** What the rule needs of a custom field: its name, where it is shown (`order`) and its condition. */
export interface ConditionalField {
  name: string;
  order: number;
  showIf?: ShowIf;
}

/**
 * Whether an answer counts as given: not absent, not blank text (spaces only count as blank, as the
 * server trims answers), not an empty choice and not an unticked checkbox.
 */
export const answerGiven = (value: unknown): boolean =>
  value != null && value !== false && (typeof value === "string" ? value.trim() !== "" : !Array.isArray(value) || value.length > 0);

/**
 * The names of the fields a visitor is asked, given their answers (`answerOf` reads a field's
 * answer). Fields are taken in the order they are shown (`order`, ties in list order). A field
 * without `showIf` is always asked; one with it is asked when the field it names was asked before it
 * and that field's answer meets the condition: `equals` one of the values (a multiselect: any chosen
 * option is one), `checked` ticked, `notEmpty` answered. So a field that depends on a hidden field
 * is hidden too, and a condition naming no earlier field (which the server never stores) hides its
 * field. The element, the server and the console's preview all decide with this one function.
 */
export function visibleFieldNames<F extends ConditionalField>(fields: readonly F[], answerOf: (field: F) => unknown): Set<string> {
  const asked = new Map<string, F>();
  for (const field of [...fields].sort((a, b) => a.order - b.order)) {
    const condition = field.showIf;
    const parent = condition && asked.get(condition.field);
    if (condition && !parent) continue;
    const value = parent && answerOf(parent);
    if (
      !condition ||
      ("equals" in condition
        ? [value].flat().some((v) => typeof v === "string" && condition.equals.includes(v.trim()))
        : "checked" in condition
          ? value === true
          : answerGiven(value))
    )
      asked.set(field.name, field);
  }
  return new Set(asked.keys());
}
