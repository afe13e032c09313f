/**
 * Paging through the organizer's bookings as the console does (`GET /admin/reservations`, 50 a page,
 * each page asked with the cursor the one before answered) over 20 000 bookings of 4 event types,
 * against the bare route of the same server: the first page, the 100th page, and a name search.
 * A keyset cursor makes a deep page cost what the first does; the ratios say whether it does.
 * Run: `bun bench/console-paging.ts` (SQLite) and `BENCH_ENGINE=postgres bun bench/console-paging.ts`
 * (`npm run bench:console-paging` runs both).
 */
import { EventTypeAdmin } from "../packages/server/src/modules/event-types/organizer.ts";
import type { ReservationRecord } from "../packages/server/src/store/reservations.ts";
import { createServer } from "node:net";
import { engine, scratch, startServer } from "./lib.ts";

/** A free loopback port, asked of the kernel and released for the server to take. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const KEY = "bench-admin-key-0123456789";
const BOOKINGS = 20_000;
const ROUNDS = 30;

const db = await scratch();
const store = await db.open();
const admin = new EventTypeAdmin(store, () => Date.now());
const types: Awaited<ReturnType<EventTypeAdmin["create"]>>[] = [];
for (let i = 0; i < 4; i++) types.push(await admin.create({ title: `Type ${i}`, timezone: "UTC" }));
const start = Date.parse("2027-01-04T08:00:00Z");
const records: ReservationRecord[] = [];
for (let i = 0; i < BOOKINGS; i++) {
  const startMs = start + Math.floor(i / 4) * 30 * 60_000;
  records.push({
    uuid: crypto.randomUUID(),
    eventTypeId: types[i % 4]!.id,
    hostIds: types[i % 4]!.hosts.map((h) => h.hostId),
    status: "confirmed",
    startMs,
    endMs: startMs + 30 * 60_000,
    heldUntilMs: null,
    email: `guest${i}@example.com`,
    firstname: i === 17_777 ? "Needle" : "Ada",
    lastname: "Lovelace",
    phone: "",
    timezone: null,
    location: { type: "video-meet", value: null },
    guests: [],
    customFields: [],
    meetLink: null,
    sequence: 0,
    payment: null,
    confirmedAtMs: startMs - 86_400_000,
    cancelledAtMs: null,
    createdAtMs: startMs - 86_400_000,
    updatedAtMs: startMs - 86_400_000,
  });
}
for (let i = 0; i < records.length; i += 2000) await store.reservations.insertMany(records.slice(i, i + 2000));
await store.close();

const port = await freePort();
const server = await startServer(db.env, port, { BOOKING_ADMIN_KEY: KEY, STRIPE_STANDIN: "0" }, true);
const base = `http://127.0.0.1:${port}`;
const get = async (path: string) => {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<{ data: { items: unknown[]; next: string | null } }>;
};
/** Median milliseconds of `ROUNDS` runs of `work`, after two to warm up. */
const median = async (work: () => Promise<unknown>) => {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS + 2; i++) {
    const t0 = performance.now();
    await work();
    if (i >= 2) times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
};
try {
  // The cursor of page 100, found by paging there as the console would.
  let cursor: string | null = null;
  for (let page = 1; page < 100; page++) cursor = (await get(`/admin/reservations?limit=50${cursor ? `&cursor=${cursor}` : ""}`)).data.next;
  const deep = cursor!;
  const found = (await get("/admin/reservations?q=needle")).data.items.length;
  if (found !== 1) throw new Error(`the search found ${found} bookings, not 1`);
  const bare = await median(() => fetch(`${base}/health`).then((r) => r.text()));
  const eventTypes = await median(() => fetch(`${base}/admin/event-types`, { headers: { authorization: `Bearer ${KEY}` } }).then((r) => r.text()));
  const first = await median(() => get("/admin/reservations?limit=50"));
  const hundredth = await median(() => get(`/admin/reservations?limit=50&cursor=${deep}`));
  const filtered = await median(() => get(`/admin/reservations?limit=50&eventTypeId=${types[2]!.id}&status=confirmed&cursor=${deep}`));
  const search = await median(() => get("/admin/reservations?q=needle"));
  const row = (name: string, ms: number) =>
    console.log(`${name.padEnd(44)} ${ms.toFixed(2).padStart(7)} ms   ${(ms / first).toFixed(2)} of page 1   ${(ms / bare).toFixed(1)}x bare`);
  console.log(`${engine}: ${BOOKINGS} bookings of 4 event types; median of ${ROUNDS} requests each`);
  row("GET /health (bare)", bare);
  row("GET /admin/event-types (the 4, for scale)", eventTypes);
  row("page 1 (50 bookings)", first);
  row("page 100 (by cursor)", hundredth);
  row("page 100, one event type, confirmed only", filtered);
  row("search by name (whole table)", search);
} finally {
  await server.stop();
  await db.cleanup();
}
