import { test, expect, chooseFirstTime, createEventType, mountCalendar, recordApiCalls, reservationsOf } from "./fixtures.ts";

async function openForm(page: import("@playwright/test").Page) {
  await chooseFirstTime(page);
  await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
}

test.describe("the details form", () => {
  test("checks fields before sending: messages beside the fields, focus on the first, no request", async ({ page, request }) => {
    const { token } = await createEventType(request, {
      customFields: [{ label: "Company", name: "company", type: "text", required: true }],
    });
    const calls = recordApiCalls(page);
    await mountCalendar(page, { token });
    await openForm(page);
    await page.getByRole("button", { name: "Book" }).click();
    const email = page.getByLabel("Email");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toBeFocused();
    await expect(page.getByText("This field is required.")).toHaveCount(2);
    await expect(page.getByLabel("Company")).toHaveAttribute("aria-invalid", "true");
    await email.fill("not-an-email");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByText("Enter a valid email address.")).toBeVisible();
    await expect(email).toHaveAccessibleDescription("Enter a valid email address.");
    expect(calls.filter((c) => c.startsWith("POST /reservations"))).toEqual([]);
  });

  test("shows the server's 422 errors at the fields they name and keeps what was typed", async ({ page, request }) => {
    const { token } = await createEventType(request);
    await mountCalendar(page, { token });
    await openForm(page);
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("First name").fill("Ada");
    await page.getByRole("button", { name: "Add a guest" }).click();
    // The server refuses the booker as their own guest; the element does not check that itself.
    await page.getByLabel("Guest email 1").fill("ada@example.com");
    const answer = page.waitForResponse((r) => r.url().endsWith("/reservations") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Book" }).click();
    expect((await answer).status()).toBe(422);
    const guest = page.getByLabel("Guest email 1");
    await expect(guest).toHaveAttribute("aria-invalid", "true");
    await expect(guest).toHaveAccessibleDescription("Each guest once, and not the booker.");
    await expect(page.getByText("Please correct the marked fields.")).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Ada");
    await guest.fill("grace@example.com");
    await page.getByRole("button", { name: "Book" }).click();
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
  });

  test("sends custom field answers by type, the location choice and guests", async ({ page, request }) => {
    const { id, token } = await createEventType(request, {
      locations: [{ type: "video-meet" }, { type: "phone", value: null }],
      customFields: [
        { label: "Team size", name: "team_size", type: "number", required: true },
        { label: "Plan", name: "plan", type: "select", options: ["Basic", "Pro"], required: true },
        { label: "Topics", name: "topics", type: "multiselect", options: ["Sales", "Support"], required: false },
        { label: "I agree to the terms", name: "terms", type: "checkbox", required: true },
      ],
    });
    await mountCalendar(page, { token });
    await openForm(page);
    await page.getByLabel("Email").fill("lin@example.com");
    await page.getByRole("radio", { name: "Phone call" }).check();
    await page.getByLabel("Your phone number").fill("+420 777 123 456");
    await page.getByLabel("Team size").fill("12");
    await page.getByLabel("Plan").selectOption("Pro");
    await page.getByRole("checkbox", { name: "Support" }).check();
    await page.getByLabel("I agree to the terms").check();
    await page.getByRole("button", { name: "Add a guest" }).click();
    await page.getByLabel("Guest email 1").fill("sam@example.com");
    const sent = page.waitForRequest((r) => r.url().endsWith("/reservations") && r.method() === "POST");
    await page.getByRole("button", { name: "Book" }).click();
    const body = (await sent).postDataJSON();
    expect(body.location).toEqual({ type: "phone", value: "+420 777 123 456" });
    expect(body.guests).toEqual(["sam@example.com"]);
    expect(body.customFields.map((f: { value: unknown }) => f.value)).toEqual([12, "Pro", ["Support"], true]);
    await expect(page.getByRole("heading", { name: "You are booked" })).toBeVisible();
    const [reservation] = await reservationsOf(request, id);
    expect(reservation).toMatchObject({ email: "lin@example.com", status: "confirmed" });
  });
});
