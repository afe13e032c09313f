import type { CustomFieldDefinition } from "../../domain/event-type.ts";
import type { FieldErrors } from "../../domain/errors.ts";

/**
 * Checks the fields' `showIf` conditions, each problem keyed by the field's place in the list the
 * organizer sent (`customFields.2.showIf.field`) with a stable code: the named field must exist
 * (`condition_unknown_field`) and be shown before this one (`condition_order`, which also rules out
 * a field naming itself and any loop of conditions); `equals` takes options of a select or
 * multiselect field, `checked` a checkbox (`condition_kind`, and `invalid_choice` for a value that is
 * not an option). `fields` are in the order they were sent; the form shows them by `order`, ties in
 * that order.
 */
export function checkConditions(fields: CustomFieldDefinition[], errors: FieldErrors): void {
  const shownAt = new Map(
    fields
      .map((field, index) => ({ field, index }))
      .sort((a, b) => a.field.order - b.field.order || a.index - b.index)
      .map(({ field }, position) => [field.name, position]),
  );
  const byName = new Map(fields.map((f) => [f.name, f]));
  fields.forEach((field, i) => {
    const condition = field.showIf;
    if (!condition) return;
    const at = `customFields.${i}.showIf`;
    const parent = byName.get(condition.field);
    if (!parent) {
      errors.add(`${at}.field`, "condition_unknown_field", `No custom field is named ${condition.field}.`);
      return;
    }
    if (parent === field) {
      errors.add(`${at}.field`, "condition_order", "A field cannot depend on itself.");
      return;
    }
    if (shownAt.get(parent.name)! > shownAt.get(field.name)!) {
      errors.add(`${at}.field`, "condition_order", `${condition.field} must come before the field that depends on it.`);
      return;
    }
    if ("equals" in condition) {
      if (parent.type !== "select" && parent.type !== "multiselect") {
        errors.add(`${at}.equals`, "condition_kind", "Only a select or multiselect field's answer can equal given values; use notEmpty or checked.");
        return;
      }
      condition.equals.forEach((value, j) => {
        if (!parent.options?.includes(value))
          errors.add(`${at}.equals.${j}`, "invalid_choice", `Expected one of the options of ${parent.name}: ${parent.options?.join(", ")}.`);
      });
      if (new Set(condition.equals).size !== condition.equals.length) errors.add(`${at}.equals`, "duplicate", "Each value once.");
    } else if ("checked" in condition && parent.type !== "checkbox") {
      errors.add(`${at}.checked`, "condition_kind", "Only a checkbox field can be checked; use equals or notEmpty.");
    }
  });
}
