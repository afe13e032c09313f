import { describe, expect, it } from "vitest";
import { ENGINE, openTestStore, reservation, setup } from "./utils.ts";
import { StoreBusyError } from "../src/store/errors.ts";
import { WebhookWorker } from "../src/modules/webhooks/worker.ts";
import { ManualClock } from "../src/clock.ts";
import { EventTypeAdmin } from "../src/modules/event-types/organizer.ts";

/** Promises of the Store interface that both engines keep, whichever the suite runs on. */
describe("the store", () => {
  it("lets only the worker holding an attempt record it: one whose lease ran out writes nothing", async () => {
    const { store, eventType } = await setup();
    const { id } = await eventType({ webhookUrl: "http://no-such-host.invalid/hook" });
    const r = reservation(id, "2026-11-26T09:00:00Z", 30);
    await store.reservations.claim({ eventTypeId: id, fromMs: r.startMs - 1, untilMs: r.endMs + 1, nowMs: r.createdAtMs }, () => ({
      write: r,
      events: [
        {
          eventTypeId: id,
          reservationUuid: r.uuid,
          kind: "reservation.created",
          msgId: "msg_lease",
          url: "http://127.0.0.1:9/x",
          payload: "{}",
          createdAtMs: 1_000,
        },
      ],
    }));
    const [first] = await store.webhooks.claimDue(2_000, 60_000, 10);
    expect(first!.attempts).toBe(1);
    // The first worker stalls past its lease; a second takes the event.
    const [second] = await store.webhooks.claimDue(2_000 + 61_000, 60_000, 10);
    expect(second!.attempts).toBe(2);
    await store.webhooks.recordAttempt(first!.id, { attempt: 1, atMs: 70_000, statusCode: 200, error: null, durationMs: 5 }, { status: "delivered" });
    let [state] = await store.webhooks.recent(id, 1);
    expect(state!.status).toBe("pending");
    expect(state!.attemptLog).toEqual([]);
    await store.webhooks.recordAttempt(second!.id, { attempt: 2, atMs: 70_000, statusCode: 200, error: null, durationMs: 5 }, { status: "delivered" });
    [state] = await store.webhooks.recent(id, 1);
    expect(state!.status).toBe("delivered");
    expect(state!.attemptLog.map((a) => a.attempt)).toEqual([2]);
  });

  it("writes an attempt's follow-ups with its record, once, and only by the worker holding it, whatever the outcome", async () => {
    const { store, eventType } = await setup();
    const { id } = await eventType({});
    const r = reservation(id, "2026-11-26T09:00:00Z", 30);
    const reminders = store.outbox.channel("reminder");
    const event = (msgId: string, payload: string, notBeforeMs: number, kind: "reservation.created" | "reservation.rescheduled" = "reservation.created") => ({
      channel: "reminder" as const,
      eventTypeId: id,
      reservationUuid: r.uuid,
      kind,
      msgId,
      url: "mailto:a@example.com",
      payload,
      createdAtMs: 1_000,
      notBeforeMs,
    });
    await store.reservations.claim({ eventTypeId: id, fromMs: r.startMs - 1, untilMs: r.endMs + 1, nowMs: r.createdAtMs }, () => ({
      write: r,
      events: [event("msg_head", `{"rest":[1]}`, 2_000)],
    }));
    const [first] = await reminders.claimDue(2_000, 60_000, 10);
    const [second] = await reminders.claimDue(2_000 + 61_000, 60_000, 10);
    // Follow-ups of a reschedule's reminder withdraw none of the reservation's reminders (as the change itself did).
    const followUps = (tag: string) => ({
      events: [event(`msg_${tag}_now`, `{"n":1}`, 2_000, "reservation.rescheduled"), event(`msg_${tag}_later`, `{"n":2}`, 900_000, "reservation.rescheduled")],
      payload: `{"rest":null}`,
    });
    // The worker whose lease ran out writes nothing, follow-ups included.
    await reminders.recordAttempt(
      first!.id,
      { attempt: 1, atMs: 70_000, statusCode: 451, error: "SMTP 451", durationMs: 5 },
      { status: "pending", nextAttemptAtMs: 80_000, followUps: followUps("stale") },
    );
    expect((await reminders.recent(id, 10)).map((d) => d.msgId)).toEqual(["msg_head"]);
    // The holder's record writes them even for an attempt to be tried again, and replaces the payload.
    await reminders.recordAttempt(
      second!.id,
      { attempt: 2, atMs: 70_000, statusCode: 451, error: "SMTP 451", durationMs: 5 },
      { status: "pending", nextAttemptAtMs: 80_000, followUps: followUps("held") },
    );
    const rows = await reminders.recent(id, 10);
    expect(rows.map((d) => [d.msgId, d.status, d.payload, d.nextAttemptAtMs])).toEqual([
      ["msg_held_later", "pending", `{"n":2}`, 900_000],
      ["msg_held_now", "pending", `{"n":1}`, 2_000],
      ["msg_head", "pending", `{"rest":null}`, 80_000],
    ]);
    // The next attempt carries the replaced payload.
    const [again] = await reminders.claimDue(80_000, 60_000, 10);
    expect(again!.msgId).toBe("msg_head");
    expect(again!.payload).toBe(`{"rest":null}`);
  });

  it("judges claims sent at once so that one seat is written once, and lets a failing one undo only its own writes", async () => {
    const store = await openTestStore();
    const { id } = await createEventType(store);
    const r = reservation(id, "2026-11-27T09:00:00Z", 30);
    const claim = { eventTypeId: id, fromMs: r.startMs, untilMs: r.endMs, nowMs: 1_000 };
    const takeIfFree = (record: typeof r) => (holders: { uuid: string }[]) => (holders.length === 0 ? { write: record } : { refuse: "slot_unavailable" });
    const other = reservation(id, "2026-11-27T10:00:00Z", 30);
    const broken = reservation(id, "2026-11-27T11:00:00Z", 30);
    const rival = { ...r, uuid: crypto.randomUUID() };
    const sendRival = () => store.reservations.claim(claim, takeIfFree(rival));
    const outcomes = await Promise.allSettled([
      store.reservations.claim(claim, takeIfFree(r)),
      store.reservations.claim(claim, () => {
        throw new Error("decision failed");
      }),
      // Wants the first claim's seat, though neither has been answered yet.
      sendRival(),
      // Its outbox event is written, then its reservation breaks a constraint: both are undone.
      store.reservations.claim({ ...claim, fromMs: broken.startMs, untilMs: broken.endMs }, () => ({
        write: { ...broken, endMs: broken.startMs },
        events: [
          {
            eventTypeId: id,
            reservationUuid: broken.uuid,
            kind: "reservation.created",
            msgId: "msg_broken",
            url: "http://127.0.0.1:9/x",
            payload: "{}",
            createdAtMs: 1_000,
          },
        ],
      })),
      store.reservations.claim({ ...claim, fromMs: other.startMs, untilMs: other.endMs }, takeIfFree(other)),
    ]);
    const shown = (o: PromiseSettledResult<unknown>) =>
      o.status === "fulfilled" ? o.value : o.reason instanceof StoreBusyError ? "busy" : (o.reason as Error).message.slice(0, 15);
    expect(outcomes.slice(3).map((o) => o.status)).toEqual(["rejected", "fulfilled"]);
    expect(shown(outcomes[4]!)).toEqual({ record: other });
    let winner: typeof r;
    if (ENGINE === "sqlite") {
      // One process, one queue: the claims are judged in the order sent, each on what the ones before wrote.
      expect(outcomes.slice(0, 3).map(shown)).toEqual([{ record: r }, "decision failed", { refused: "slot_unavailable" }]);
      winner = r;
    } else {
      // Claims of one seat race for its locks: the failing one fails (or finds them taken), and of
      // the two others at most one writes; one that found the locks taken may be sent again.
      expect(["decision failed", "busy"]).toContain(shown(outcomes[1]!));
      const contested = [outcomes[0]!, outcomes[2]!].map(shown);
      for (const o of contested) expect([{ record: r }, { record: rival }, { refused: "slot_unavailable" }, "busy"]).toContainEqual(o);
      expect(contested.filter((o) => typeof o === "object" && o !== null && "record" in o).length).toBeLessThanOrEqual(1);
      if (contested[0] === "busy") contested[0] = await store.reservations.claim(claim, takeIfFree(r));
      if (contested[1] === "busy") contested[1] = await sendRival();
      expect(contested.filter((o) => typeof o === "object" && o !== null && "record" in o)).toHaveLength(1);
      expect(contested).toContainEqual({ refused: "slot_unavailable" });
      winner = contested.some((o) => JSON.stringify(o) === JSON.stringify({ record: r })) ? r : rival;
    }
    expect((await store.reservations.seatHolders(id, r.startMs, broken.endMs + 3_600_000, 1_000)).map((h) => h.uuid)).toEqual([winner.uuid, other.uuid]);
    expect(await store.reservations.byUuid(id, broken.uuid)).toBeNull();
    expect(await store.webhooks.recent(id, 10)).toEqual([]);
  });

  it("keeps an idempotency key that is tied to a booking when its request is released", async () => {
    const store = await openTestStore();
    const { id } = await createEventType(store);
    expect(await store.idempotency.begin(id, "k-1", "hash", 1_000)).toEqual({ state: "new" });
    const r = reservation(id, "2026-11-26T09:00:00Z", 30);
    await store.reservations.claim({ eventTypeId: id, fromMs: r.startMs - 1, untilMs: r.endMs + 1, nowMs: 1_000, idempotencyKey: "k-1" }, () => ({ write: r }));
    // The booking committed but its answer was lost; the request's error path releases the key.
    await store.idempotency.release(id, "k-1");
    expect(await store.idempotency.begin(id, "k-1", "hash", 2_000)).toEqual({ state: "saved", reservationUuid: r.uuid });
    // A key with no booking is forgotten, so its retry runs afresh.
    expect(await store.idempotency.begin(id, "k-2", "hash", 2_000)).toEqual({ state: "new" });
    await store.idempotency.release(id, "k-2");
    expect(await store.idempotency.begin(id, "k-2", "hash", 3_000)).toEqual({ state: "new" });
  });
  it("leases no more events of one event type at once than asked, counting the leases it already holds, and leaves the other slots to other event types", async () => {
    const { store, eventType } = await setup();
    const a = (await eventType({ webhookUrl: "http://a.invalid/hook" })).id;
    const b = (await eventType({ webhookUrl: "http://b.invalid/hook" })).id;
    // Five events of `a` come due before two of `b`, each of its own reservation.
    for (const [i, id] of [a, a, a, a, a, b, b].entries()) {
      const r = reservation(id, `2026-11-26T${String(8 + i).padStart(2, "0")}:00:00Z`, 30);
      await store.reservations.claim({ eventTypeId: id, fromMs: r.startMs - 1, untilMs: r.endMs + 1, nowMs: r.createdAtMs }, () => ({
        write: r,
        events: [
          {
            eventTypeId: id,
            reservationUuid: r.uuid,
            kind: "reservation.created",
            msgId: `msg_cap${i}`,
            url: "http://127.0.0.1:9/x",
            payload: "{}",
            createdAtMs: 1_000 + i,
          },
        ],
      }));
    }
    const first = await store.webhooks.claimDue(2_000, 60_000, 10, 2);
    expect(first.map((d) => d.msgId)).toEqual(["msg_cap0", "msg_cap1", "msg_cap5", "msg_cap6"]);
    // `a` holds two leases: nothing more of it until one is settled.
    expect(await store.webhooks.claimDue(2_100, 60_000, 10, 2)).toEqual([]);
    await store.webhooks.recordAttempt(first[0]!.id, { attempt: 1, atMs: 2_200, statusCode: 200, error: null, durationMs: 5 }, { status: "delivered" });
    expect((await store.webhooks.claimDue(2_300, 60_000, 10, 2)).map((d) => d.msgId)).toEqual(["msg_cap2"]);
    // Leases that ran out hold no slot.
    expect((await store.webhooks.claimDue(2_300 + 61_000, 60_000, 10, 2)).map((d) => d.msgId)).toEqual(["msg_cap1", "msg_cap2", "msg_cap5", "msg_cap6"]);
  });
});

describe("the webhook worker", () => {
  it("retries an event whose host does not resolve, instead of giving up at once", async () => {
    const { store, eventType } = await setup();
    const { id } = await eventType({ webhookUrl: "http://no-such-host.invalid/hook" });
    const r = reservation(id, "2026-11-26T09:00:00Z", 30);
    await store.reservations.claim({ eventTypeId: id, fromMs: r.startMs - 1, untilMs: r.endMs + 1, nowMs: 1_000 }, () => ({
      write: r,
      events: [
        {
          eventTypeId: id,
          reservationUuid: r.uuid,
          kind: "reservation.created",
          msgId: "msg_dns",
          url: "http://no-such-host.invalid/hook",
          payload: "{}",
          createdAtMs: 1_000,
        },
      ],
    }));
    const clock = new ManualClock(2_000);
    const worker = new WebhookWorker(store, clock, { allowPrivateAddresses: false }, () => undefined);
    expect(await worker.runOnce()).toBe(1);
    const [state] = await store.webhooks.recent(id, 1);
    expect(state!.status).toBe("pending");
    expect(state!.nextAttemptAtMs).toBe(2_000 + 5_000);
    expect(state!.attemptLog[0]!.error).toMatch(/^unresolvable/);
  });
});

function createEventType(store: Awaited<ReturnType<typeof openTestStore>>) {
  return new EventTypeAdmin(store, () => 1_000).create({ title: "Keys", timezone: "UTC" });
}
