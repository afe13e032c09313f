import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { ADMIN_KEY, createHost, DEFAULT_HOST_ID, ENGINE, openTestStoreBeside, reservation, setup } from "./utils.ts";

// Bookings racing an organizer who changes a team: whatever the order, no booking names a host that
// no longer exists, no answer is a 5xx, and a host with bookings is never deleted.

const day = (i: number) => `2026-12-${String(1 + (i % 4)).padStart(2, "0")}`;
/** Twenty distinct half-hour slots over four weekdays (the default hours: 08:00-16:00Z in Prague's winter). */
const slotOf = (i: number) => {
  const start = Date.parse(`${day(i)}T08:00:00Z`) + Math.floor(i / 4) * 30 * 60_000;
  return { start: new Date(start).toISOString(), end: new Date(start + 30 * 60_000).toISOString() };
};

describe("a team changing under bookings", () => {
  it("books a host deleted since the event type was read with nobody: the claim leaves the host out and refuses when nobody is left", async () => {
    const env = await setup();
    const gone = await createHost(env, "Gone");
    const { id } = await env.eventType({ title: "Team", assignment: "round-robin", hosts: [{ hostId: gone }, { hostId: DEFAULT_HOST_ID }] } as never);
    // The organizer takes the host off the team and deletes it; a claim still names it (what a booking
    // that read the event type a moment earlier sends).
    expect((await env.admin("PATCH", `/admin/event-types/${id}`, { hosts: [{ hostId: DEFAULT_HOST_ID }] })).status).toBe(200);
    expect((await env.admin("DELETE", `/admin/hosts/${gone}`)).status).toBe(200);
    const r = reservation(id, "2026-12-01T09:00:00Z", 30);
    const claim = { eventTypeId: id, fromMs: r.startMs, untilMs: r.endMs, nowMs: r.createdAtMs, hostIds: [gone, DEFAULT_HOST_ID] };
    let offered: number[] = [];
    const written = await env.store.reservations.claim(claim, (_holders, _current, _at, _busy, hosts) => {
      offered = hosts.map((h) => h.hostId);
      return { write: { ...r, hostIds: [DEFAULT_HOST_ID] } };
    });
    expect(offered).toEqual([DEFAULT_HOST_ID]);
    expect("record" in written && written.record.hostIds).toEqual([DEFAULT_HOST_ID]);
    // Nobody left: the decision sees no host, and refuses.
    const alone = reservation(id, "2026-12-01T10:00:00Z", 30);
    await expect(
      env.store.reservations.claim({ ...claim, fromMs: alone.startMs, untilMs: alone.endMs, hostIds: [gone] }, (_h, _c, _a, _b, hosts) =>
        hosts.length === 0 ? { refuse: "slot_unavailable" } : { write: { ...alone, hostIds: [gone] } },
      ),
    ).resolves.toEqual({ refused: "slot_unavailable" });
  });

  it("answers every one of 20 bookings × 20 trials racing a host's removal from a round-robin team and its deletion with a booking or a refusal, never a 5xx, across two instances", async () => {
    const dir = ENGINE === "sqlite" ? mkdtempSync(join(tmpdir(), "booking-team-race-")) : null;
    try {
      const rateLimit = { limit: 1_000_000, windowSeconds: 60 };
      const env = await setup({ ...(dir ? { databasePath: join(dir, "race.sqlite") } : {}), config: { rateLimit } });
      const second = await openTestStoreBeside(env.store, rateLimit);
      const app2 = createApp({ store: second, clock: env.clock, config: { adminKey: ADMIN_KEY, rateLimit }, log: () => undefined });
      // The organizer works on an instance of its own, so its changes never queue behind the bookings for a connection.
      const third = await openTestStoreBeside(env.store, rateLimit);
      const app3 = createApp({ store: third, clock: env.clock, config: { adminKey: ADMIN_KEY, rateLimit }, log: () => undefined });
      const apps = [env.app, app2, app3];
      const send = async (app: number, method: string, path: string, token: string, body?: unknown) => {
        const response = await apps[app]!.handle(
          new Request(`http://localhost${path}`, {
            method,
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          }),
        );
        return { status: response.status, body: (await response.json()) as { success: boolean; code?: string; data?: { uuid: string; userId: number } } };
      };
      // In every other trial each booking's claim is held until the organizer is done: every booking
      // then meets the host deleted in flight. The other trials race as they come.
      let gate: Promise<unknown> = Promise.resolve();
      for (const store of [env.store, second]) {
        const claim = store.reservations.claim.bind(store.reservations);
        (store.reservations as { claim: typeof claim }).claim = async (...args) => {
          await gate.catch(() => undefined);
          return claim(...args);
        };
      }
      const stay = await createHost(env, "Stays");
      let deletions = 0;
      let refusedDeletions = 0;
      for (let trial = 0; trial < 20; trial++) {
        const leaving = await createHost(env, `Leaves ${trial}`);
        const created = await env.admin("POST", "/admin/event-types", {
          title: `Team ${trial}`,
          timezone: "Europe/Prague",
          assignment: "round-robin",
          hosts: [{ hostId: leaving }, { hostId: stay }],
        });
        expect(created.status, created.text).toBe(200);
        const { id, token } = created.body.data as { id: number; token: string };
        const bookings = Array.from({ length: 20 }, (_, i) =>
          send(i % 2, "POST", "/reservations", token, { ...slotOf(i), email: `v${trial}.${i}@example.com`, firstname: "Ada", lastname: `Race ${i}` }),
        );
        // The organizer takes the host off the team and deletes it meanwhile.
        const organizer = (async () => {
          const removed = await send(2, "PATCH", `/admin/event-types/${id}`, ADMIN_KEY, { hosts: [{ hostId: stay }] });
          expect(removed.status).toBe(200);
          return send(2, "DELETE", `/admin/hosts/${leaving}`, ADMIN_KEY);
        })();
        gate = trial % 2 === 0 ? organizer : Promise.resolve();
        const [deleted, ...answers] = await Promise.all([organizer, ...bookings]);
        for (const a of answers) {
          expect(a.status, JSON.stringify(a.body)).toBe(200);
          if (!a.body.success) expect(["slot_unavailable", "slot_locked"]).toContain(a.body.code);
        }
        const taken = await env.store.reservations.list(id, { fromMs: 0, untilMs: 8.64e15, limit: 100 });
        expect(taken.length).toBe(answers.filter((a) => a.body.success).length);
        if (deleted.status === 200) {
          deletions++;
          // Deleted: no booking may name it, and every booking is with a host that exists.
          for (const r of taken) expect(r.hostIds).toEqual([stay]);
          expect(await env.store.hosts.byId(leaving)).toBeNull();
        } else {
          // Refused because a booking took the host first: that booking keeps it.
          expect(deleted.status, JSON.stringify(deleted.body)).toBe(422);
          refusedDeletions++;
          expect(taken.some((r) => r.hostIds.includes(leaving))).toBe(true);
        }
      }
      expect(deletions + refusedDeletions).toBe(20);
      // Every held trial deleted the host under its bookings.
      expect(deletions).toBeGreaterThanOrEqual(10);
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
});
