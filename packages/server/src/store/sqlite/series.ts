import type { Database } from "bun:sqlite";
import { toReservation, type ReservationRow } from "../rows/reservations.ts";
import type { ClaimDecide, ReservationRecord, SeatClaim, SeriesOutcome } from "../reservations.ts";
import { sqliteClaims } from "./claim.ts";
import type { SqliteConnection } from "./connection.ts";

/** Thrown inside a series' savepoint to undo the occurrences claimed before a refusal. */
class SeriesRefused extends Error {
  constructor(readonly refused: { index: number; reason: string }[]) {
    super("a series was refused");
  }
}

/**
 * `store.reservations.claimSeries` on SQLite: the occurrences' claims run as `sqliteClaims` runs
 * one (the same reads, decision and writes), one after the other inside ONE savepoint of one
 * batched write transaction. A refusal of any undoes the savepoint, so a series is written whole
 * or not at all; other processes wait on the write lock meanwhile, as for any claim.
 */
export function sqliteSeriesClaims(connection: SqliteConnection): (claims: SeatClaim[], decide: ClaimDecide[]) => Promise<SeriesOutcome> {
  // The claim of one occurrence, prepared against a connection that runs it at once: inside the
  // series' own transaction rather than in a batch of its own.
  let pending: (() => unknown) | null = null;
  const inline = {
    db: connection.db,
    batched: (work: () => unknown) => {
      pending = work;
      return new Promise<never>(() => {});
    },
    // The revisions an occurrence bumps are the series' batch's, told to the real connection.
    claimed: (hostIds: readonly number[], eventTypeId: number | null) => connection.claimed(hostIds, eventTypeId),
  } as unknown as SqliteConnection;
  const claimOne = sqliteClaims(inline);
  const runOne = (claim: SeatClaim, decide: ClaimDecide) => {
    pending = null;
    void claimOne(claim, decide);
    // sqliteClaims hands its work to `batched` before its first await.
    const work = pending as (() => { record: ReservationRecord } | { refused: string }) | null;
    if (!work) throw new Error("a series claim did not run synchronously");
    return work();
  };
  return async (claims, decide) => {
    try {
      return await connection.batched((): SeriesOutcome => {
        const outcomes = claims.map((claim, index) => runOne(claim, decide[index]!));
        const refused = outcomes.flatMap((o, index) => ("refused" in o ? [{ index, reason: o.refused }] : []));
        if (refused.length > 0) throw new SeriesRefused(refused);
        return { records: outcomes.map((o) => (o as { record: ReservationRecord }).record) };
      });
    } catch (error) {
      if (error instanceof SeriesRefused) return { refused: error.refused };
      throw error;
    }
  };
}

/** `store.reservations.series` on SQLite. */
export function sqliteSeries(db: Database): (eventTypeId: number, seriesId: string) => Promise<ReservationRecord[]> {
  const q = db.query<ReservationRow, [string, number]>("SELECT * FROM reservations WHERE series_id = ? AND event_type_id = ? ORDER BY start_ms, uuid");
  return async (eventTypeId, seriesId) => q.all(seriesId, eventTypeId).map(toReservation);
}
