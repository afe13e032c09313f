import { describe, expect, it } from "vitest";
import { visibleFieldNames, type CustomFieldInput } from "@booking/wire";
import { closeAll, expectError, setup, type Answer } from "./utils.ts";

// Conditional questions: a custom field with `showIf` is asked only while an earlier field's answer
// meets its condition. The clock of setup() starts on Monday 2026-11-23T07:00:00Z; the event type
// offers 30-minute slots on weekdays 09:00-17:00 in Prague, so Tuesday 09:00 +01:00 is free.

const SLOT = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
const PLAN = "00000000-0000-4000-8000-000000000001";
const SIZE = "00000000-0000-4000-8000-000000000002";
const TERMS = "00000000-0000-4000-8000-000000000003";
const ORDER_NO = "00000000-0000-4000-8000-000000000004";
const NOTE = "00000000-0000-4000-8000-000000000005";
const VAT = "00000000-0000-4000-8000-000000000006";

/** Plan (select), company size only for Business, a VAT number only once a size is given, terms (checkbox), an order number only when ticked, a note. */
const FIELDS: CustomFieldInput[] = [
  { uuid: PLAN, label: "Plan", name: "plan", type: "select", options: ["Personal", "Business", "Enterprise"], required: true },
  {
    uuid: SIZE,
    label: "Company size",
    name: "companySize",
    type: "select",
    options: ["1-10", "11+"],
    required: true,
    showIf: { field: "plan", equals: ["Business", "Enterprise"] },
  },
  { uuid: VAT, label: "VAT number", name: "vat", type: "text", required: true, showIf: { field: "companySize", notEmpty: true } },
  { uuid: TERMS, label: "I have an order", name: "hasOrder", type: "checkbox" },
  { uuid: ORDER_NO, label: "Order number", name: "orderNo", type: "text", required: true, showIf: { field: "hasOrder", checked: true } },
  { uuid: NOTE, label: "Note", name: "note", type: "textarea" },
];

async function world() {
  const env = await setup({ config: { rateLimit: { limit: 100_000, windowSeconds: 60 } } });
  const et = await env.eventType({ customFields: FIELDS });
  const book = (customFields: unknown[], path = "/reservations") =>
    env.call("POST", path, { token: et.token, body: { ...SLOT, email: "ada@example.com", customFields } });
  const stored = async (): Promise<unknown[]> => {
    const r = await env.admin("GET", `/admin/event-types/${et.id}/reservations?from=2026-11-01&until=2026-12-31`);
    expect(r.status).toBe(200);
    return r.body.data.map((b: { customFields: unknown }) => b.customFields);
  };
  return { ...env, et, book, stored };
}

/** Asserts a 422 whose field errors are exactly `expected` (field and code). */
function expectFieldErrors(r: Answer, expected: { field: string; code: string }[]): void {
  expectError(r, 422, "validation_failed");
  const found = r.body.fieldErrors.map((e: { field: string; code: string }) => ({ field: e.field, code: e.code }));
  expect(found).toEqual(expect.arrayContaining(expected));
  expect(found).toHaveLength(expected.length);
  for (const e of expected) expect(r.body.errors[e.field]?.length).toBeGreaterThan(0);
}

describe("the visibility rule (visibleFieldNames)", () => {
  const fields = FIELDS.map((f, order) => ({ name: f.name, order, ...(f.showIf ? { showIf: f.showIf } : {}) }));
  const shown = (answers: Record<string, unknown>) => [...visibleFieldNames(fields, (f) => answers[f.name])].sort();

  it("shows fields without a condition always, and conditional ones only while their condition holds", () => {
    expect(shown({})).toEqual(["hasOrder", "note", "plan"]);
    expect(shown({ plan: "Personal", hasOrder: false })).toEqual(["hasOrder", "note", "plan"]);
    expect(shown({ plan: "Business" })).toEqual(["companySize", "hasOrder", "note", "plan"]);
    expect(shown({ plan: "Enterprise", companySize: "11+", hasOrder: true })).toEqual(["companySize", "hasOrder", "note", "orderNo", "plan", "vat"]);
  });

  it("hides a field whose condition names a hidden field, whatever that field's answer", () => {
    // companySize still holds an answer from before plan changed: it does not count once hidden.
    expect(shown({ plan: "Personal", companySize: "11+" })).toEqual(["hasOrder", "note", "plan"]);
  });

  it("counts blank text, an empty choice and an unticked box as no answer", () => {
    const notEmpty = [
      { name: "a", order: 0 },
      { name: "b", order: 1, showIf: { field: "a", notEmpty: true as const } },
    ];
    for (const blank of [undefined, null, "", "   ", [], false])
      expect(visibleFieldNames(notEmpty, (f) => (f.name === "a" ? blank : undefined)).has("b")).toBe(false);
    for (const given of ["x", 0, ["y"], true]) expect(visibleFieldNames(notEmpty, (f) => (f.name === "a" ? given : undefined)).has("b")).toBe(true);
  });

  it("shows a field after a multiselect when any chosen option is one of the values", () => {
    const multi = [
      { name: "topics", order: 0 },
      { name: "detail", order: 1, showIf: { field: "topics", equals: ["Tax"] } },
    ];
    expect(visibleFieldNames(multi, () => ["Law", "Tax"]).has("detail")).toBe(true);
    expect(visibleFieldNames(multi, () => ["Law"]).has("detail")).toBe(false);
  });

  it("hides fields whose conditions name no field, a later one or each other, taking fields by their order", () => {
    const cond = (field: string) => ({ field, notEmpty: true as const });
    const broken = [
      { name: "a", order: 1, showIf: cond("b") },
      { name: "b", order: 2, showIf: cond("a") },
      { name: "c", order: 3, showIf: cond("nope") },
      { name: "d", order: 4 },
      { name: "e", order: 0, showIf: cond("d") },
      { name: "f", order: 5, showIf: cond("f") },
    ];
    expect([...visibleFieldNames(broken, () => "x")]).toEqual(["d"]);
    // By order, not by place in the list: g is shown before h.
    const reordered = [
      { name: "h", order: 2, showIf: cond("g") },
      { name: "g", order: 1 },
    ];
    expect([...visibleFieldNames(reordered, () => "x")]).toEqual(["g", "h"]);
  });
});

describe("saving conditions on an event type", () => {
  it("keeps showIf and gives it back to the organizer and to the element's init", async () => {
    const w = await world();
    const view = await w.admin("GET", `/admin/event-types/${w.et.id}`);
    expect(view.status).toBe(200);
    const byName = Object.fromEntries(view.body.data.customFields.map((f: { name: string }) => [f.name, f]));
    expect(byName.companySize.showIf).toEqual({ field: "plan", equals: ["Business", "Enterprise"] });
    expect(byName.orderNo.showIf).toEqual({ field: "hasOrder", checked: true });
    expect(byName.plan).not.toHaveProperty("showIf");
    const init = await w.call("POST", "/event-types/init", { token: w.et.token });
    expect(init.status).toBe(200);
    const initFields = Object.fromEntries(init.body.data.customFields.map((f: { name: string }) => [f.name, f]));
    expect(initFields.vat.showIf).toEqual({ field: "companySize", notEmpty: true });
    expect(initFields.note).not.toHaveProperty("showIf");
    // A PATCH without showIf removes the condition.
    const patched = await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { customFields: FIELDS.map(({ showIf: _, ...f }) => f) });
    expect(patched.status).toBe(200);
    expect(patched.body.data.customFields.some((f: object) => "showIf" in f)).toBe(false);
    await closeAll(w.store);
  });

  it("refuses a condition on a field that does not exist, on itself or on a later field, each with its code", async () => {
    const w = await world();
    const patch = (customFields: CustomFieldInput[]) => w.admin("PATCH", `/admin/event-types/${w.et.id}`, { customFields });
    const text = (name: string, showIf?: CustomFieldInput["showIf"], order?: number): CustomFieldInput => ({
      label: name,
      name,
      type: "text",
      ...(showIf ? { showIf } : {}),
      ...(order === undefined ? {} : { order }),
    });
    expectFieldErrors(await patch([text("a"), text("b", { field: "nothing", notEmpty: true })]), [
      { field: "customFields.1.showIf.field", code: "condition_unknown_field" },
    ]);
    expectFieldErrors(await patch([text("a", { field: "a", notEmpty: true })]), [{ field: "customFields.0.showIf.field", code: "condition_order" }]);
    expectFieldErrors(await patch([text("a", { field: "b", notEmpty: true }), text("b")]), [{ field: "customFields.0.showIf.field", code: "condition_order" }]);
    // Two fields naming each other: whichever is shown first names a later one.
    expectFieldErrors(await patch([text("a", { field: "b", notEmpty: true }), text("b", { field: "a", notEmpty: true })]), [
      { field: "customFields.0.showIf.field", code: "condition_order" },
    ]);
    // `order` decides what comes first, not the place in the list.
    expect((await patch([text("a", { field: "b", notEmpty: true }, 2), text("b", undefined, 1)])).status).toBe(200);
    expectFieldErrors(await patch([text("a", undefined, 2), text("b", { field: "a", notEmpty: true }, 1)]), [
      { field: "customFields.1.showIf.field", code: "condition_order" },
    ]);
    await closeAll(w.store);
  });

  it("refuses equals on a field without options, a value that is not an option, and checked on a field that is no checkbox", async () => {
    const w = await world();
    const patch = (customFields: CustomFieldInput[]) => w.admin("PATCH", `/admin/event-types/${w.et.id}`, { customFields });
    const plan: CustomFieldInput = { label: "Plan", name: "plan", type: "select", options: ["Personal", "Business"] };
    const name: CustomFieldInput = { label: "Name", name: "name", type: "text" };
    expectFieldErrors(await patch([name, { label: "X", name: "x", type: "text", showIf: { field: "name", equals: ["Ada"] } }]), [
      { field: "customFields.1.showIf.equals", code: "condition_kind" },
    ]);
    expectFieldErrors(await patch([plan, { label: "X", name: "x", type: "text", showIf: { field: "plan", equals: ["Business", "Team"] } }]), [
      { field: "customFields.1.showIf.equals.1", code: "invalid_choice" },
    ]);
    expectFieldErrors(await patch([plan, { label: "X", name: "x", type: "text", showIf: { field: "plan", checked: true } }]), [
      { field: "customFields.1.showIf.checked", code: "condition_kind" },
    ]);
    // A condition of two kinds at once, or of none, is not a condition.
    for (const showIf of [{ field: "plan", equals: ["Business"], checked: true }, { field: "plan" }, { field: "plan", checked: false }]) {
      const r = await patch([plan, { label: "X", name: "x", type: "text", showIf } as CustomFieldInput]);
      expectError(r, 422, "validation_failed");
      expect(Object.keys(r.body.errors).some((k) => k.startsWith("customFields.1.showIf"))).toBe(true);
    }
    // Nothing of the refused changes was kept.
    const view = await w.admin("GET", `/admin/event-types/${w.et.id}`);
    expect(view.body.data.customFields.map((f: { name: string }) => f.name)).toEqual(FIELDS.map((f) => f.name));
    await closeAll(w.store);
  });
});

describe("booking with conditional questions", () => {
  it("requires neither nor stores a hidden field, and requires a shown one", async () => {
    const w = await world();
    expectFieldErrors(await w.book([{ uuid: PLAN, value: "Business" }]), [{ field: `customFields.${SIZE}`, code: "required" }]);
    expectFieldErrors(
      await w.book([
        { uuid: PLAN, value: "Business" },
        { uuid: SIZE, value: "1-10" },
      ]),
      [{ field: `customFields.${VAT}`, code: "required" }],
    );
    expectFieldErrors(
      await w.book([
        { uuid: PLAN, value: "Personal" },
        { uuid: TERMS, value: true },
      ]),
      [{ field: `customFields.${ORDER_NO}`, code: "required" }],
    );
    const r = await w.book([
      { uuid: PLAN, value: "Personal" },
      { uuid: TERMS, value: false },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(await w.stored()).toEqual([
      [
        { uuid: PLAN, value: "Personal" },
        { uuid: TERMS, value: false },
      ],
    ]);
    await closeAll(w.store);
  });

  it("refuses a hidden field's value sent anyway with hidden_field, and books nothing", async () => {
    const w = await world();
    const r = await w.book([
      { uuid: PLAN, value: "Personal" },
      { uuid: SIZE, value: "11+" },
      { uuid: VAT, value: "CZ123" },
      { uuid: ORDER_NO, value: "A-1" },
    ]);
    expectFieldErrors(r, [
      { field: `customFields.${SIZE}`, code: "hidden_field" },
      { field: `customFields.${VAT}`, code: "hidden_field" },
      { field: `customFields.${ORDER_NO}`, code: "hidden_field" },
    ]);
    expect(r.body.errors[`customFields.${SIZE}`][0]).toContain("Plan is one of: Business, Enterprise");
    // The same on the hold of the two-step flow.
    expectFieldErrors(
      await w.book(
        [
          { uuid: PLAN, value: "Personal" },
          { uuid: SIZE, value: "11+" },
        ],
        "/reservations/prepare",
      ),
      [{ field: `customFields.${SIZE}`, code: "hidden_field" }],
    );
    // An empty value of a hidden field is no answer: nothing to refuse, nothing stored.
    const empty = await w.book([
      { uuid: PLAN, value: "Personal" },
      { uuid: SIZE, value: "" },
      { uuid: ORDER_NO, value: null },
    ]);
    expect(empty.status).toBe(200);
    expect(await w.stored()).toEqual([[{ uuid: PLAN, value: "Personal" }]]);
    await closeAll(w.store);
  });

  it("stores every shown answer of a chain of conditions", async () => {
    const w = await world();
    const answers = [
      { uuid: PLAN, value: "Enterprise" },
      { uuid: SIZE, value: "11+" },
      { uuid: VAT, value: "CZ123" },
      { uuid: TERMS, value: true },
      { uuid: ORDER_NO, value: "A-1" },
    ];
    const r = await w.book(answers);
    expect(r.status).toBe(200);
    expect(await w.stored()).toEqual([answers]);
    await closeAll(w.store);
  });

  it("judges a confirm on the held answers and its own: a hidden field given is refused, a held one dropped", async () => {
    const w = await world();
    const prepared = await w.book(
      [
        { uuid: PLAN, value: "Business" },
        { uuid: SIZE, value: "11+" },
        { uuid: VAT, value: "CZ123" },
      ],
      "/reservations/prepare",
    );
    expect(prepared.status).toBe(200);
    const uuid = prepared.body.data.uuid;
    const confirm = (customFields: unknown[]) => w.call("POST", `/reservations/${uuid}/confirm`, { token: w.et.token, body: { customFields } });
    // Ticking the box asks for the order number, which this confirm does not give.
    expectFieldErrors(await confirm([{ uuid: TERMS, value: true }]), [{ field: `customFields.${ORDER_NO}`, code: "required" }]);
    expectFieldErrors(
      await confirm([
        { uuid: PLAN, value: "Personal" },
        { uuid: VAT, value: "CZ999" },
      ]),
      [{ field: `customFields.${VAT}`, code: "hidden_field" }],
    );
    // Personal hides the company size and with it the VAT number: both held answers go.
    const r = await confirm([{ uuid: PLAN, value: "Personal" }]);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(await w.stored()).toEqual([[{ uuid: PLAN, value: "Personal" }]]);
    await closeAll(w.store);
  });
});
