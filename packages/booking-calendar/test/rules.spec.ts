import { EMAIL_PATTERN, LIMITS, PHONE_PATTERN } from "@booking/wire/limits";
import { EMAIL_SAMPLES } from "@booking/wire/test/email-samples";
import { checkDraft, emptyDraft } from "../src/flow/draft.ts";
import { test, expect } from "./fixtures.ts";

// The form's checks and the server's come from the same rules in @booking/wire: a visitor hears
// about a typo before the round trip, and never about something the server would take.
test.describe("input rules shared with the server", () => {
  test("the form refuses exactly the emails and phone numbers the shared patterns refuse", () => {
    // The server's tests book with the same addresses (packages/server/test/field-errors.test.ts).
    const emails = [...EMAIL_SAMPLES.accepted, ...EMAIL_SAMPLES.refused];
    const phones = ["+44 20 7946 0958", "(030) 123-45.67", "12", "call me", `+${"1".repeat(40)}`];
    for (const email of emails) {
      expect(!!checkDraft({ ...emptyDraft(), email }, [], []).email, email).toBe(!EMAIL_PATTERN.test(email));
    }
    for (const email of EMAIL_SAMPLES.accepted) {
      expect(checkDraft({ ...emptyDraft(), email }, [], []), email).toEqual({});
      expect(checkDraft({ ...emptyDraft(), email: "booker@example.net", guests: [email] }, [], []), email).toEqual({});
    }
    for (const email of EMAIL_SAMPLES.refused) {
      expect(checkDraft({ ...emptyDraft(), email: "booker@example.net", guests: [email] }, [], [])["guests.0"], email).toEqual({ key: "errorEmail" });
      expect(checkDraft({ ...emptyDraft(), email }, [], []).email, email).toEqual({ key: "errorEmail" });
    }
    for (const phone of phones) {
      expect(!!checkDraft({ ...emptyDraft(), email: "ada@example.org", phone }, [], []).phone, phone).toBe(!PHONE_PATTERN.test(phone));
    }
  });

  test("length limits come from LIMITS", () => {
    const long = "x".repeat(LIMITS.textMaxLength + 1);
    const problems = checkDraft({ ...emptyDraft(), email: `${"a".repeat(LIMITS.emailMaxLength)}@example.org`, firstname: long }, [], []);
    expect(problems.email?.key).toBe("errorEmail");
    expect(problems.firstname).toEqual({ key: "errorTooLong", values: { max: LIMITS.textMaxLength } });
    const field = { uuid: "f", name: "notes", label: "Notes", type: "textarea", required: false, order: 0 } as const;
    const notes = (n: number) =>
      checkDraft({ ...emptyDraft(), email: "ada@example.org", answers: { f: "y".repeat(n) } }, [field as never], [])["customFields.f"];
    expect(notes(LIMITS.textareaMaxLength)).toBeUndefined();
    expect(notes(LIMITS.textareaMaxLength + 1)).toEqual({ key: "errorTooLong", values: { max: LIMITS.textareaMaxLength } });
  });
});
