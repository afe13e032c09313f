import type { FieldError } from "@booking/wire";
import type { TextKey, Texts } from "./texts.ts";

/** The UI text of each field error code the visitor can meet; other codes keep the server's message. */
const TEXT_OF_CODE: Partial<Record<string, TextKey>> = {
  required: "errorRequired",
  invalid_email: "errorEmail",
  invalid_phone: "errorPhone",
  too_long: "errorTooLong",
  too_many: "errorTooMany",
  invalid_number: "errorNumber",
  invalid_date: "errorDate",
  invalid_choice: "errorChoice",
  duplicate: "errorDuplicate",
};

/**
 * A 422's problems as the form shows them, by field: each translated by its code, else the
 * server's message. A server without codes (only `errors`) keeps its messages.
 */
export function fieldProblems(texts: Texts, errors: Record<string, string[]>, fieldErrors: FieldError[] | null): Record<string, string[]> {
  if (!fieldErrors) return errors;
  const problems: Record<string, string[]> = {};
  for (const { field, code, message, max } of fieldErrors) {
    const key = TEXT_OF_CODE[code];
    const text = key && (max !== undefined || (key !== "errorTooLong" && key !== "errorTooMany")) ? texts(key, { max: max ?? 0 }) : message;
    const list = (problems[field] ??= []);
    if (!list.includes(text)) list.push(text);
  }
  return problems;
}
