import type pg from "pg";
import { toReservation, type ReservationRow } from "../rows/reservations.ts";
import type { ClaimDecide, ReservationRecord, SeatClaim, SeriesOutcome } from "../reservations.ts";
import { FINE_BUCKET_MS, claimSeats, commitSeatChange, limitLockNames, liveHostsSql, lockSeatsSql, seatLocks, type SeatLock } from "./claim.ts";
import type { Connections, TransactionEnd } from "./connections.ts";

/**
 * A series waits this long for each lock of its weeks, longer than one claim's 100 ms: it holds
 * more of them, and another series may be writing a few of the same weeks.
 */
const SERIES_LOCK_WAIT_MS = 500;

/** Thrown inside a series' transaction to roll back the occurrences claimed before a refusal. */
class SeriesRefused extends Error {
  constructor(readonly refused: { index: number; reason: string }[]) {
    super("a series was refused");
  }
}

type ClaimWork = (client: pg.PoolClient, tx: TransactionEnd) => Promise<{ record: ReservationRecord } | { refused: string }>;

/**
 * The locks of every occurrence of a series in one list, in the one order every claim takes them:
 * a bucket two occurrences share is taken once, exclusively when either writes there.
 */
export function seriesLocks(claims: readonly SeatClaim[]): SeatLock[] {
  const byBucket = new Map<number, boolean>();
  for (const c of claims) {
    for (const l of seatLocks(c, c.seat ?? { startMs: c.fromMs, endMs: c.untilMs })) byBucket.set(l.bucket, (byBucket.get(l.bucket) ?? false) || l.exclusive);
  }
  return [...byBucket].sort((x, y) => x[0] - y[0]).map(([bucket, exclusive]) => ({ bucket, exclusive }));
}

/**
 * `store.reservations.claimSeries` on PostgreSQL: ONE transaction takes the advisory locks of every
 * occurrence's time range with BEGIN (all at once, in the global order, so a series never
 * deadlocks with another claim), then runs each occurrence's claim as `claimSeats` runs one (the
 * same reads, decision and writes). A refusal of any rolls all back. The revisions move once, at
 * COMMIT, for every host the series took.
 */
export function postgresSeriesClaims(db: Connections, databaseTime: boolean): (claims: SeatClaim[], decide: ClaimDecide[]) => Promise<SeriesOutcome> {
  return async (claims, decide) => {
    if (claims.length === 0) return { records: [] };
    // Each occurrence's claim, as claimSeats builds it, collected instead of run in a transaction of its own.
    const works: ClaimWork[] = [];
    const collector = {
      run: () => {
        throw new Error("a series claim names its hosts");
      },
      transaction: (work: ClaimWork) => {
        works.push(work);
        return new Promise<never>(() => {});
      },
    } as unknown as Connections;
    claims.forEach((claim, index) => {
      if (!claim.hostIds) throw new Error("a series claim names its hosts");
      void claimSeats(collector, claim, decide[index]!, databaseTime);
    });
    // claimSeats hands its work over before its first await when the hosts are named.
    if (works.length !== claims.length) throw new Error("a series claim did not run synchronously");
    const hostIds = [...new Set(claims.flatMap((c) => c.hostIds!))];
    // The booking limits' locks of every occurrence too, in the same ordered set.
    const limitNames = [...new Set(claims.flatMap((c) => limitLockNames(c.eventTypeId, c.limits)))];
    const begin = `${lockSeatsSql(hostIds, seriesLocks(claims), limitNames)}; ${liveHostsSql(hostIds, databaseTime)}`;
    try {
      return await db.transaction(
        async (client, tx): Promise<SeriesOutcome> => {
          const outcomes: ({ record: ReservationRecord } | { refused: string })[] = [];
          // Each work would end the transaction with its own revision bump: the series bumps once, below.
          for (const work of works) outcomes.push(await work(client, { begun: tx.begun, commitWith: () => {} }));
          const refused = outcomes.flatMap((o, index) => ("refused" in o ? [{ index, reason: o.refused }] : []));
          if (refused.length > 0) throw new SeriesRefused(refused);
          const records = outcomes.map((o) => (o as { record: ReservationRecord }).record);
          const first = records[0]!;
          const longest = Math.max(...records.map((r) => r.endMs - r.startMs));
          const touched = [...new Set(records.flatMap((r) => r.hostIds))];
          tx.commitWith((c) => commitSeatChange(c, [first.eventTypeId], Math.floor(first.startMs / FINE_BUCKET_MS), longest, touched));
          return { records };
        },
        { lockWaitMs: SERIES_LOCK_WAIT_MS, beginWith: begin },
      );
    } catch (error) {
      if (error instanceof SeriesRefused) return { refused: error.refused };
      throw error;
    }
  };
}

/** `store.reservations.series` on PostgreSQL. */
export function postgresSeries(db: Connections): (eventTypeId: number, seriesId: string) => Promise<ReservationRecord[]> {
  return async (eventTypeId, seriesId) =>
    (
      await db.run<ReservationRow>(
        "SELECT * FROM reservations WHERE series_id = $1 AND event_type_id = $2 ORDER BY start_ms, uuid",
        [seriesId, eventTypeId],
        true,
      )
    ).rows.map(toReservation);
}
