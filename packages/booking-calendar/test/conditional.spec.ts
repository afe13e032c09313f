import { test, expect, chooseFirstTime, createEventType, mountCalendar, recordApiCalls, reservationsOf } from "./fixtures.ts";

/** Plan decides whether the company size is asked, the size whether the VAT number is, a box whether the order number is. */
const CONDITIONAL_FIELDS = [
  { label: "Plan", name: "plan", type: "select", options: ["Personal", "Business"], required: true },
  { label: "Company size", name: "companySize", type: "select", options: ["1-10", "11+"], required: true, showIf: { field: "plan", equals: ["Business"] } },
  { label: "VAT number", name: "vat", type: "text", required: false, showIf: { field: "companySize", notEmpty: true } },
  { label: "I have an order", name: "hasOrder", type: "checkbox" },
  { label: "Order number", name: "orderNo", type: "text", required: true, showIf: { field: "hasOrder", checked: true } },
  { label: "Anything else?", name: "note", type: "textarea" },
];

async function openForm(page: import("@playwright/test").Page) {
  await chooseFirstTime(page);
  await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
}

test.describe("conditional questions", () => {
  test("shows a field once the answer it depends on is given, hides it again, and keeps the focus where the visitor is", async ({ page, request }) => {
    const { token } = await createEventType(request, { customFields: CONDITIONAL_FIELDS });
    await mountCalendar(page, { token });
    await openForm(page);
    const plan = page.getByLabel("Plan");
    const size = page.getByLabel("Company size");
    const vat = page.getByLabel("VAT number");
    const orderNo = page.getByLabel("Order number");
    await expect(plan).toBeVisible();
    await expect(size).toHaveCount(0);
    await expect(vat).toHaveCount(0);
    await expect(orderNo).toHaveCount(0);

    // As a keyboard user answers: focus on the select, then a choice.
    await plan.focus();
    await plan.selectOption("Business");
    await expect(size).toBeVisible();
    await expect(plan).toBeFocused();
    await expect(vat).toHaveCount(0);
    await size.selectOption("11+");
    await expect(vat).toBeVisible();
    // Shown in the order of the fields: right after the field that shows it, before the others.
    const labels = await page.locator('bc-booking-form [part="field"] label, bc-booking-form [part="field"] legend').allTextContents();
    expect(labels.map((l) => l.replace("*", "").trim()).slice(0, 4)).toEqual(["Plan", "Company size", "VAT number", "I have an order"]);

    await page.getByLabel("I have an order").check();
    await expect(orderNo).toBeVisible();
    await expect(page.getByLabel("I have an order")).toBeFocused();
    await page.getByLabel("I have an order").uncheck();
    await expect(orderNo).toHaveCount(0);

    // Choosing Personal hides the size and, with it, the VAT number that depends on it.
    await plan.focus();
    await plan.selectOption("Personal");
    await expect(size).toHaveCount(0);
    await expect(vat).toHaveCount(0);
    await expect(plan).toBeFocused();
    // Nothing is said aloud or moved: no live region or animation in the form.
    await expect(page.locator("bc-booking-form [aria-live]")).toHaveCount(0);
    const animated = await page.locator("bc-booking-form").evaluate(
      (form) =>
        [...form.shadowRoot!.querySelectorAll("*")].filter((el) => {
          const style = getComputedStyle(el);
          return style.animationName !== "none" || style.transitionDuration.split(",").some((d) => Number.parseFloat(d) > 0);
        }).length,
    );
    expect(animated).toBe(0);
    // Back to Business: the answers typed before are still there.
    await plan.selectOption("Business");
    await expect(size).toHaveValue("11+");
  });

  test("sends no hidden field's answer, and requires a shown one before sending", async ({ page, request }) => {
    const { id, token } = await createEventType(request, { customFields: CONDITIONAL_FIELDS });
    const calls = recordApiCalls(page);
    await mountCalendar(page, { token });
    await openForm(page);
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Plan").selectOption("Business");
    await page.getByLabel("Company size").selectOption("11+");
    await page.getByLabel("VAT number").fill("CZ123");
    await page.getByLabel("I have an order").check();
    // The order number is asked and required: the form says so and sends nothing.
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByLabel("Order number")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Order number")).toBeFocused();
    expect(calls.filter((c) => c.startsWith("POST /reservations"))).toEqual([]);
    // Unticked, it is no longer asked; Personal hides the size and VAT number typed before.
    await page.getByLabel("I have an order").uncheck();
    await page.getByLabel("Plan").selectOption("Personal");
    const sent = page.waitForRequest((r) => r.url().endsWith("/reservations") && r.method() === "POST");
    await page.getByRole("button", { name: "Book" }).click();
    const body = (await sent).postDataJSON();
    expect(body.customFields.map((f: { value: unknown }) => f.value)).toEqual(["Personal"]);
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect((reservation!.customFields as { value: unknown }[]).map((f) => f.value)).toEqual(["Personal"]);
  });
});
