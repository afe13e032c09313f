/**
 * A stretch of time a host is away (docs/hosts.md, "Time off"): it blocks the host like a calendar
 * event. Whole days are kept as the instants their host's zone gave them when set, with the dates
 * beside them; `colleagueHostId` names the host who takes the away host's personal bookings meanwhile.
 */
export interface TimeOffRecord {
  id: number;
  hostId: number;
  startMs: number;
  endMs: number;
  /** First and last day away (inclusive, YYYY-MM-DD in the host's zone) when set as whole days; null for a time range. */
  startDate: string | null;
  endDate: string | null;
  note: string | null;
  colleagueHostId: number | null;
  createdAtMs: number;
  updatedAtMs: number;
}

/** What a new time off needs. */
export type NewTimeOff = Pick<TimeOffRecord, "hostId" | "startMs" | "endMs" | "startDate" | "endDate" | "note" | "colleagueHostId">;
/** Fields of a time off a change replaces. */
export type TimeOffChange = Partial<Omit<NewTimeOff, "hostId">>;

/** The away time of a host as slot lists and claims read it. */
export interface AwayInterval {
  hostId: number;
  startMs: number;
  endMs: number;
  colleagueHostId: number | null;
}

/**
 * Hosts' time off. Every write bumps the host's revision, so cached slot pages of the host's event
 * types are computed again; claims read `between` inside their transaction (store/sqlite/claim.ts,
 * store/postgres/claim.ts).
 */
export interface TimeOffRepository {
  create(input: NewTimeOff, nowMs: number): Promise<TimeOffRecord>;
  byId(id: number): Promise<TimeOffRecord | null>;
  /** The host's time off ending after `fromMs` (all when left out), by start. */
  list(hostId: number, fromMs?: number): Promise<TimeOffRecord[]>;
  /** Replaces the given fields; null when unknown. */
  update(id: number, change: TimeOffChange, nowMs: number): Promise<TimeOffRecord | null>;
  delete(id: number): Promise<boolean>;
  /** The away intervals of the hosts meeting [fromMs, untilMs), by start. */
  between(hostIds: readonly number[], fromMs: number, untilMs: number): Promise<AwayInterval[]>;
}

/** A `host_time_off` row as both engines answer it (PostgreSQL's bigints as strings or numbers). */
export interface TimeOffRow {
  id: number | string;
  host_id: number | string;
  start_ms: number | string;
  end_ms: number | string;
  start_date: string | null;
  end_date: string | null;
  note: string | null;
  colleague_host_id: number | string | null;
  created_at_ms: number | string;
  updated_at_ms: number | string;
}

export const toTimeOff = (r: TimeOffRow): TimeOffRecord => ({
  id: Number(r.id),
  hostId: Number(r.host_id),
  startMs: Number(r.start_ms),
  endMs: Number(r.end_ms),
  startDate: r.start_date,
  endDate: r.end_date,
  note: r.note,
  colleagueHostId: r.colleague_host_id === null ? null : Number(r.colleague_host_id),
  createdAtMs: Number(r.created_at_ms),
  updatedAtMs: Number(r.updated_at_ms),
});

/** An away row of `AWAY_COLUMNS` as an interval. */
export const toAway = (r: Pick<TimeOffRow, "host_id" | "start_ms" | "end_ms" | "colleague_host_id">): AwayInterval => ({
  hostId: Number(r.host_id),
  startMs: Number(r.start_ms),
  endMs: Number(r.end_ms),
  colleagueHostId: r.colleague_host_id === null ? null : Number(r.colleague_host_id),
});
