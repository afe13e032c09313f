import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_HOSTS, seedDemo } from "../src/seed.ts";
import { dataOf, setup } from "./utils.ts";

/** A stand-in for the built element, so the demo page can be served without a build. */
function builtScript(): string {
  const path = join(mkdtempSync(join(tmpdir(), "seed-")), "booking-calendar.js");
  writeFileSync(path, `customElements.define("booking-calendar", class extends HTMLElement {});`);
  return path;
}

// The clock of setup() stands on Monday 2026-11-23, 08:00 in Prague.
describe("the seeded demo", () => {
  it("has two hosts and a round-robin team event type beside Alex's personal ones, on the demo page and bookable", async () => {
    const env = await setup({ calendarScriptPath: builtScript(), config: { rateLimit: { limit: 10_000, windowSeconds: 60 } } });
    const seeded = await seedDemo(env.store, () => env.clock.now());
    expect(await seedDemo(env.store, () => env.clock.now())).toEqual([]);

    const hosts = await env.store.hosts.list();
    expect(hosts.map((h) => ({ name: h.name, email: h.email, isDefault: h.isDefault }))).toEqual([
      { name: DEMO_HOSTS.alex.name, email: DEMO_HOSTS.alex.email, isDefault: true },
      { name: DEMO_HOSTS.sam.name, email: DEMO_HOSTS.sam.email, isDefault: false },
    ]);
    const [alex, sam] = hosts;
    const team = seeded.find((et) => et.slug === "team-intro")!;
    expect(team).toMatchObject({ title: "Team intro (round robin)", hosts: ["Alex Demo", "Sam Demo"], assignment: "round-robin", disabled: false });
    for (const et of seeded.filter((e) => e !== team)) expect(et.hosts, et.title).toEqual(["Alex Demo"]);
    const teamRecord = (await env.store.eventTypes.byId(team.id))!;
    const samSchedule = (await env.store.schedules.list(sam!.id))[0]!;
    expect(teamRecord.hosts.map((h) => [h.hostId, h.scheduleId])).toEqual([
      [alex!.id, null],
      [sam!.id, samSchedule.id],
    ]);

    // The demo page offers it as a tab beside the personal ones, with its link token.
    const page = await env.call("GET", "/?event=2");
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /<a href="\/\?event=0"[^>]*>Intro call<\/a>.*<a href="\/\?event=1"[^>]*>Paid consultation<\/a>.*<a href="\/\?event=2" aria-current="page">Team intro \(round robin\)<\/a>/s,
    );
    expect(page.text).toContain(`<booking-calendar token="${team.linkToken}">`);
    expect((await env.call("GET", "/book/team-intro")).status).toBe(200);

    // Bookable: Wednesday 10:00 is Alex's alone (Sam works afternoons); 14:00 twice takes both hosts, one each.
    const slots = dataOf(await env.call("GET", "/time-slots?from=2026-11-25&until=2026-11-25", { token: team.linkToken }));
    expect(slots.map((s: { readable_start: string }) => s.readable_start)).toEqual(expect.arrayContaining(["09:00", "10:00", "14:00", "16:30"]));
    const book = async (start: string, end: string, email: string) =>
      dataOf(await env.call("POST", "/reservations", { token: team.linkToken, body: { start, end, email, firstname: "Demo", lastname: "Visitor" } }));
    expect((await book("2026-11-25T10:00:00+01:00", "2026-11-25T10:30:00+01:00", "a@example.com")).userId).toBe(alex!.id);
    const first = await book("2026-11-25T14:00:00+01:00", "2026-11-25T14:30:00+01:00", "b@example.com");
    const second = await book("2026-11-25T14:00:00+01:00", "2026-11-25T14:30:00+01:00", "c@example.com");
    expect([first.userId, second.userId].sort()).toEqual([alex!.id, sam!.id].sort());
    expect(second.userName).toBe(second.userId === sam!.id ? "Sam Demo" : "Alex Demo");
    // Both hosts are taken at 14:00 now: the team no longer offers it, and Alex's personal intro call neither.
    const after = dataOf(await env.call("GET", "/time-slots?from=2026-11-25&until=2026-11-25", { token: team.linkToken })).map(
      (s: { readable_start: string }) => s.readable_start,
    );
    expect(after).not.toContain("14:00");
    expect(after).toContain("14:30");
    const intro = seeded.find((et) => et.slug === "intro-call")!;
    const introTimes = dataOf(await env.call("GET", "/time-slots?from=2026-11-25&until=2026-11-25", { token: intro.linkToken })).map(
      (s: { readable_start: string }) => s.readable_start,
    );
    expect(introTimes).not.toContain("14:00");
    expect(introTimes).not.toContain("10:00");
    expect(introTimes).toContain("11:00");
  });
});
