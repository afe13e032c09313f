import pg from "pg";
import type { SeatHolder } from "../reservations.ts";
import { hostIdsOf } from "../rows/reservations.ts";

/** bigint columns (ids, epoch milliseconds, counts) as numbers: every value stays far below 2^53. */
export const NUMERIC_BIGINTS: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** A row of the seat-holder query, read into a SeatHolder by `toSeatHolder`. */
export interface SeatHolderRow {
  uuid: string;
  start_ms: number;
  end_ms: number;
  host_ids: string;
  held_until_ms: number | null;
}

/** The seat holder of a seat-holder row, as the seat decision reads it. */
export const toSeatHolder = (r: SeatHolderRow): SeatHolder => ({
  uuid: r.uuid,
  startMs: r.start_ms,
  endMs: r.end_ms,
  heldUntilMs: r.held_until_ms,
  hostIds: hostIdsOf(r.host_ids),
});
