import { afterEach, describe, expect, it } from "vitest";
import { connectOverHttp, failure, success } from "./mcp-utils.ts";
import { ADMIN_KEY, createHost, reservation, setup } from "./utils.ts";

// Monday 2026-11-23T07:00:00Z (08:00 in Prague). Alex hosts a coaching (weekdays 09:00-17:00 in
// Prague) and is booked on Tuesday at 10:00 through a workshop; Sam hosts nothing.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function world() {
  const env = await setup({ config: { rateLimit: { limit: 100_000, windowSeconds: 60 } } });
  const alex = await createHost(env, "Alex");
  const sam = await createHost(env, "Sam");
  const coaching = await env.eventType({ title: "Coaching", slug: "coaching", hosts: [{ hostId: alex }] });
  const workshop = await env.eventType({ title: "Workshop", hosts: [{ hostId: alex }], durationMinutes: 60 });
  await env.store.reservations.insertMany([reservation(workshop.id, "2026-11-24T09:00:00Z", 60, { hostIds: [alex] })]);
  const client = await connectOverHttp(env.app, ADMIN_KEY);
  cleanups.push(() => client.close());
  const tool = (args: Record<string, unknown>) => client.callTool({ name: "check_availability", arguments: args });
  return { env, alex, sam, coaching, workshop, tool };
}

describe("the assistant's check_availability tool", () => {
  it("answers why Alex cannot be booked on Tuesday at 10, a local time read in the host's zone", async () => {
    const w = await world();
    const { data, text } = success(await w.tool({ hostId: w.alex, start: "2026-11-24T10:00" }));
    expect(data).toMatchObject({ host: { id: w.alex, name: "Alex" }, timezone: "Europe/Prague", bookable: false });
    const coaching = data.checks.find((c: { eventTypeId: number }) => c.eventTypeId === w.coaching.id);
    expect(coaching).toMatchObject({
      start: "2026-11-24T09:00:00Z",
      bookable: false,
      reasons: [{ code: "host_busy", eventType: { id: w.workshop.id, title: "Workshop" } }],
    });
    expect(text).toContain('"Coaching"');
    expect(text).toContain('Alex is booked then through "Workshop". (host_busy)');
  });

  it("checks an event type by slug, and says a free time is bookable", async () => {
    const w = await world();
    const free = success(await w.tool({ slug: "coaching", start: "2026-11-24T11:00:00+01:00" }));
    expect(free.data).toMatchObject({ host: null, bookable: true, checks: [{ eventTypeId: w.coaching.id, bookable: true, reasons: [] }] });
    expect(free.text).toMatch(/: bookable\.$/);
    const night = success(await w.tool({ eventTypeId: w.coaching.id, start: "2026-11-24T22:00", timezone: "Europe/Prague" }));
    expect(night.data.checks[0].reasons).toEqual([expect.objectContaining({ code: "outside_hours" })]);
  });

  it("says what is wrong with an unknown host or a start that is not a time", async () => {
    const w = await world();
    expect(failure(await w.tool({ hostId: 99_999, start: "2026-11-24T10:00" }))).toMatch(/\(not_found\)$/);
    expect(failure(await w.tool({ hostId: w.alex, start: "Tuesday at 10" }))).toMatch(/start: .*\(validation_failed\)$/);
    expect(success(await w.tool({ hostId: w.sam, start: "2026-11-24T10:00" })).text).toBe("Sam hosts no event type, so nothing can be booked with them.");
  });
});
