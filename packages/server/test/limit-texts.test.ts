import { describe, expect, it, vi } from "vitest";

// The numbers the reference page and the assistant's tools state are the ones the server enforces:
// they are read from LIMITS, so other LIMITS (as here) show up in every text and schema.
const LIMITS = vi.hoisted(() => ({
  textMaxLength: 321,
  textareaMaxLength: 4321,
  emailMaxLength: 123,
  maxGuests: 7,
  maxCustomFieldValues: 33,
  maxBodyBytes: 64 * 1024,
  maxSlotRangeDays: 41,
}));
vi.mock("@booking/wire", async (actual) => ({ ...(await actual<typeof import("@booking/wire")>()), LIMITS }));
vi.mock("@booking/wire/limits", async (actual) => ({ ...(await actual<typeof import("@booking/wire/limits")>()), LIMITS }));

// The set-up file has loaded the server already (with the real LIMITS): these modules load afresh.
vi.resetModules();
const { docsPage } = await import("../src/modules/docs/page.ts");
const { openApiDocument } = await import("../src/modules/docs/openapi.ts");
const { timeSlotRoutes } = await import("../src/modules/time-slots/index.ts");
const { Elysia } = await import("elysia");
const { ToolInputs } = await import("../src/modules/mcp/model.ts");
const { toolInput } = await import("../src/modules/mcp/tool-input.ts");
const { TOOLS } = await import("../src/modules/mcp/server.ts");
const { TimeSlotsQuery } = await import("@booking/wire");

describe("limits stated in texts", () => {
  it("the reference page states the limits of LIMITS", () => {
    // The routes are built, not served: what they read at a request is never reached.
    const document = openApiDocument(new Elysia().use(timeSlotRoutes({ store: {} } as never, {} as never)), "/alias");
    const page = docsPage(document, "", { requestsPerMinute: 60, maxBodyBytes: LIMITS.maxBodyBytes });
    const limits = page.slice(page.indexOf('id="limits"'));
    expect(limits).toContain(
      `Text fields at most 321 characters (a textarea custom field 4321), email at most 123, at most 7 guests and 33 custom field values`,
    );
    expect(limits).toContain("slot queries at most 41 days");
    expect(limits).not.toMatch(/\b(500|254|10|50|62)\b (characters|guests|custom|days)|email at most 254/);
    expect(document.paths["/time-slots"]!.get!.description).toContain("At most 41 days per request.");
    expect(TimeSlotsQuery.properties.until.description).toContain("the range spans at most 41 days");
  });

  it("the assistant's tools state and check the limits of LIMITS", () => {
    expect(TOOLS.find_free_slots.description).toContain("(at most 41 days)");
    expect(ToolInputs.find_free_slots.properties.until.description).toContain("at most 41 days after from");
    // What the assistant server checks: the tool's input as the SDK takes it.
    const search = toolInput(ToolInputs.search_reservations);
    expect(search.safeParse({ email: "a".repeat(123) }).success).toBe(true);
    expect(search.safeParse({ email: "a".repeat(124) }).success).toBe(false);
  });
});
