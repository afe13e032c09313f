import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { TimeSlot } from "@booking/wire";
import { CalendarController, type TimesApi } from "../src/controllers/calendar-controller.ts";
import { test, expect } from "./fixtures.ts";

// The calendar's times without a page or a server: a host that only counts updates, an API whose answers the test gives.

/** One call to the stand-in API, answered when the test says so. */
interface Call {
  what: string;
  answer(value: unknown): Promise<void>;
  fail(error: unknown): Promise<void>;
}

function standIn() {
  const calls: Call[] = [];
  const ask = (what: string) =>
    new Promise<never>((resolve, reject) => {
      // Two turns of the event loop: the controller's own awaits and what it does after.
      const settled = () => new Promise<void>((done) => setTimeout(done, 0));
      calls.push({ what, answer: (value) => (resolve(value as never), settled()), fail: (error) => (reject(error), settled()) });
    });
  const api: TimesApi = {
    timeSlots: (from, until, zone) => ask(`slots ${from} ${until} ${zone}`),
    firstFreeDay: (from, zone) => ask(`free ${from} ${zone}`),
  };
  return { api, calls };
}

function setUp(zone = "UTC") {
  const controllers: ReactiveController[] = [];
  let updates = 0;
  const host = {
    addController: (c: ReactiveController) => void controllers.push(c),
    removeController: () => undefined,
    requestUpdate: () => void updates++,
    updateComplete: Promise.resolve(true),
  } satisfies ReactiveControllerHost;
  const options = { zone, arrived: 0, failures: [] as Array<{ error: unknown; retry: () => void }> };
  const calendar = new CalendarController(host, {
    zone: () => options.zone,
    arrived: () => void options.arrived++,
    failed: (error, retry) => void options.failures.push({ error, retry }),
  });
  /** What Lit does before each update of the host. */
  const update = () => {
    for (const c of controllers) c.hostUpdate?.();
  };
  update();
  return { calendar, options, update, updates: () => updates };
}

const slotOn = (date: string) => ({ date, start: `${date}T10:00:00+00:00`, startIso8601: `${date}T10:00:00Z` }) as unknown as TimeSlot;

test.describe("the calendar's times", () => {
  test("asks once for the shown month, however often it is shown while on its way, and counts free times by day", async () => {
    const { calendar, options } = setUp();
    const { api, calls } = standIn();
    calendar.open(api, "2026-12-15");
    expect(calendar.month).toBe("2026-12");
    expect(calendar.day).toBeNull();
    expect(calendar.loading).toBe(true);
    calendar.show("2027-01");
    expect(calendar.loading).toBe(true);
    calendar.show("2026-12");
    expect(calls.map((c) => c.what)).toEqual(["slots 2026-12-01 2026-12-31 UTC", "slots 2027-01-01 2027-01-31 UTC"]);
    await calls[0]!.answer([slotOn("2026-12-02"), slotOn("2026-12-02"), slotOn("2026-12-09")]);
    expect(calendar.loading).toBe(false);
    expect(calendar.empty).toBe(false);
    expect(options.arrived).toBe(1);
    expect([...calendar.freeDays]).toEqual([
      ["2026-12-02", 2],
      ["2026-12-09", 1],
    ]);
    expect(calendar.freeDays).toBe(calendar.freeDays);
    calendar.choose("2026-12-02");
    expect(calendar.daySlots).toHaveLength(2);
    // A month known is not asked for again.
    calendar.show("2026-12");
    expect(calls).toHaveLength(2);
  });

  test("the loading shown is the shown month's own", async () => {
    const { calendar } = setUp();
    const { api, calls } = standIn();
    calendar.open(api, "2026-12-15");
    await calls[0]!.answer([slotOn("2026-12-02")]);
    calendar.show("2027-01");
    expect(calendar.loading).toBe(true);
    calendar.show("2026-12");
    expect(calendar.loading).toBe(false);
    expect(calendar.freeDays.size).toBe(1);
  });

  test("another zone forgets the months known and asks for the shown one once, in that zone; the old zone's answer is dropped", async () => {
    const { calendar, options, update } = setUp();
    const { api, calls } = standIn();
    calendar.open(api, "2026-12-15");
    options.zone = "Asia/Tokyo";
    update();
    update();
    expect(calls.map((c) => c.what)).toEqual(["slots 2026-12-01 2026-12-31 UTC", "slots 2026-12-01 2026-12-31 Asia/Tokyo"]);
    await calls[0]!.answer([slotOn("2026-12-02")]);
    expect(calendar.freeDays.size).toBe(0);
    expect(calendar.loading).toBe(true);
    await calls[1]!.answer([slotOn("2026-12-03")]);
    expect([...calendar.freeDays.keys()]).toEqual(["2026-12-03"]);
  });

  test("a new start drops the answers and failures of the one before, and asks again for a month still on its way", async () => {
    const { calendar, options } = setUp();
    const first = standIn();
    calendar.open(first.api, "2026-12-15");
    calendar.show("2027-01");
    calendar.restart();
    const second = standIn();
    calendar.open(second.api, "2026-12-15");
    expect(second.calls.map((c) => c.what)).toEqual(["slots 2026-12-01 2026-12-31 UTC"]);
    await first.calls[0]!.answer([slotOn("2026-12-02")]);
    await first.calls[1]!.fail(new Error("offline"));
    expect(calendar.freeDays.size).toBe(0);
    expect(calendar.empty).toBe(false);
    expect(options.failures).toHaveLength(0);
    await second.calls[0]!.answer([slotOn("2026-12-05")]);
    expect([...calendar.freeDays.keys()]).toEqual(["2026-12-05"]);
  });

  test("a failure is told with a retry that asks for the month again", async () => {
    const { calendar, options } = setUp();
    const { api, calls } = standIn();
    calendar.open(api, "2026-12-15");
    await calls[0]!.fail(new Error("offline"));
    expect(calendar.loading).toBe(false);
    expect(options.failures).toHaveLength(1);
    options.failures[0]!.retry();
    expect(calls.map((c) => c.what)).toEqual(["slots 2026-12-01 2026-12-31 UTC", "slots 2026-12-01 2026-12-31 UTC"]);
    expect(calendar.empty).toBe(false);
    await calls[1]!.answer([]);
    expect(calendar.empty).toBe(true);
  });

  test("an empty month asks once for the first free day after it; not knowing it leaves the jump out", async () => {
    const { calendar } = setUp();
    const { api, calls } = standIn();
    calendar.open(api, "2026-12-15");
    await calls[0]!.answer([]);
    expect(calendar.nextFree).toBeUndefined();
    expect(calls[1]!.what).toBe("free 2026-12-01 UTC");
    await calls[1]!.answer("2027-02-03");
    expect(calendar.nextFree).toBe("2027-02-03");
    calendar.show("2027-01");
    expect(calendar.nextFree).toBeUndefined();
    await calls[2]!.answer([]);
    await calls[3]!.fail(new Error("offline"));
    expect(calendar.nextFree).toBeUndefined();
    calendar.refresh();
    await calls[4]!.answer([]);
    expect(calls).toHaveLength(6);
    await calls[5]!.answer(null);
    expect(calendar.nextFree).toBeNull();
  });

  test("a time taken meanwhile: every month is forgotten and the shown one asked for afresh", async () => {
    const { calendar, updates } = setUp();
    const { api, calls } = standIn();
    calendar.open(api, "2026-12-15");
    await calls[0]!.answer([slotOn("2026-12-02")]);
    const before = updates();
    calendar.refresh();
    expect(updates()).toBeGreaterThan(before);
    expect(calendar.freeDays.size).toBe(0);
    expect(calendar.loading).toBe(true);
    expect(calendar.empty).toBe(false);
    await calls[1]!.answer([]);
    expect(calendar.empty).toBe(true);
  });
});
