import { DateTime } from "luxon";
import type { RecurrenceRequest, ReservationInput, ReservationResult, SeriesConflict, SeriesOccurrence } from "@booking/wire";
import type { ServerConfig } from "../../config.ts";
import { NO_BUSY_SOURCE, bufferedSpan, type BusySource } from "../../domain/busy.ts";
import { DomainError, ValidationFailed } from "../../domain/errors.ts";
import { offeringHosts } from "../../domain/hosts.ts";
import { nextStamp as stamp, statusAt, withinPublicNotice } from "../../domain/reservation.ts";
import { seriesTimes, type SeriesMember, type SeriesRule } from "../../domain/series.ts";
import { conflictWindow } from "../../domain/slots.ts";
import { manageUrlOf } from "../../lib/links.ts";
import { StoreBusyError } from "../../store/errors.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { OutboxEvent } from "../../store/outbox.ts";
import type { ClaimDecide, ReservationRecord, SeatClaim } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import { mailPolicy, type MailPolicy } from "../mail/events.ts";
import { outboxEvents } from "../outbox/events.ts";
import { busyAt, failure, hostsTaking } from "./claim.ts";
import { limitedClaim } from "./limits.ts";
import { meetLinkFor } from "./meeting.ts";
import { resultOf } from "./result.ts";
import type { ChangeOptions, ReservationService } from "./service.ts";
import { checkCancelReason, checkReservationInput } from "./validate.ts";

/** An instant as the series' answers write it: in the event type's zone, with its offset. */
const zonedIso = (ms: number, zone: string): string => DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true })!;

/** The refusal of a series some of whose occurrences cannot be had: 409 `series_unavailable`, naming them. */
export function seriesUnavailable(times: { startMs: number; endMs: number }[], zone: string): DomainError {
  const conflicts: SeriesConflict[] = times.map((t) => ({ start: zonedIso(t.startMs, zone), end: zonedIso(t.endMs, zone) }));
  const dates = conflicts.map((c) => c.start.slice(0, 10)).join(", ");
  return new DomainError("series_unavailable", `The series cannot be booked: these occurrences are not free: ${dates}. Nothing was booked.`, { conflicts });
}

/** A series' outbox events: every channel for the occurrence that speaks for the series, all but its emails for the others (one recurring invite says them all). */
const withoutEmails = (events: OutboxEvent[]): OutboxEvent[] => events.filter((e) => e.channel !== "email");

/**
 * Recurring bookings: a series booked all or nothing (every occurrence claimed in one transaction
 * of the store, see `claimSeries`), and ended from one of its occurrences. Each occurrence is a
 * reservation of its own (moved or cancelled alone through ReservationService), carrying the
 * series' id and rule.
 */
export class SeriesService {
  private readonly mail: MailPolicy;

  constructor(
    private readonly store: Store,
    private readonly reservations: ReservationService,
    private readonly config: ServerConfig,
    private readonly now: () => number,
    private readonly busy: BusySource = NO_BUSY_SOURCE,
  ) {
    this.mail = mailPolicy(config);
  }

  /** The series' request checked against what the event type allows; 422 naming the field otherwise. */
  private checkRecurrence(eventType: EventTypeRecord, recurrence: RecurrenceRequest): void {
    const allowed = eventType.settings.payment ? null : eventType.settings.recurrence;
    if (!allowed) throw new ValidationFailed({ recurrence: ["This event type takes no recurring bookings."] });
    const errors: Record<string, string[]> = {};
    if (!allowed.intervals.includes(recurrence.interval)) errors["recurrence.interval"] = [`Expected one of ${allowed.intervals.join(", ")}.`];
    if (recurrence.count > allowed.maxOccurrences) errors["recurrence.count"] = [`At most ${allowed.maxOccurrences} occurrences.`];
    ValidationFailed.check(errors);
  }

  /**
   * `POST /reservations` with `recurrence`: books `count` occurrences, the first at the requested
   * time, then every week or two at the same wall-clock time in the event type's zone, confirmed at
   * once, all or nothing. Any occurrence not offered (hours, notice, horizon, calendars) or taken
   * meanwhile refuses the whole series with 409 `series_unavailable` and every such occurrence.
   */
  async book(eventType: EventTypeRecord, input: ReservationInput, options: ChangeOptions & { idempotencyKey?: string }): Promise<ReservationResult> {
    const s = eventType.settings;
    this.checkRecurrence(eventType, input.recurrence!);
    const { interval, count } = input.recurrence!;
    const checked = checkReservationInput(input, s);
    const nowMs = this.now();
    const times = seriesTimes(checked.startMs, checked.endMs, s.timezone, interval, count);
    const candidates = await Promise.all(
      times.map(async (t) => {
        const hosts = offeringHosts(s, eventType.assignment, eventType.hosts, t.startMs, t.endMs, nowMs);
        return hosts.length === 0 || (await busyAt(this.busy, eventType, t.startMs, t.endMs)) ? null : hosts;
      }),
    );
    const unoffered = times.filter((_, i) => candidates[i] === null);
    if (unoffered.length > 0) throw seriesUnavailable(unoffered, s.timezone);
    const seriesId = crypto.randomUUID();
    const uuids = times.map(() => crypto.randomUUID());
    const manageUrls = uuids.map((uuid) => manageUrlOf(options.origin, eventType.slug, uuid));
    // One meeting room for the whole series: the recurring invite has one link.
    const meetLink = meetLinkFor(this.config.meetBaseUrl, checked.location.type);
    const ruleOf = (index: number): SeriesRule => ({ interval, count, index, firstStartMs: checked.startMs, zone: s.timezone });
    const members: SeriesMember[] = times.map((t, i) => ({ uuid: uuids[i]!, status: "confirmed", ...t, sequence: 0, seriesRule: ruleOf(i) }));
    // Each occurrence counts against the booking limits in the transaction, as a single booking does (limits.ts).
    const limited = times.map((t, i) => limitedClaim(eventType, t.startMs, t.endMs, undefined, candidates[i]!));
    const claims: SeatClaim[] = times.map((t, i) => ({
      eventTypeId: eventType.id,
      ...(limited[i]!.read ? { limits: limited[i]!.read } : {}),
      ...conflictWindow(s, t.startMs, t.endMs),
      seat: t,
      busySpan: bufferedSpan(s, t.startMs, t.endMs),
      nowMs: this.now,
      hostIds: candidates[i]!,
      lastBooked: eventType.assignment === "round-robin" && candidates[i]!.length > 1,
      ...(i === 0 && options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    }));
    const decide: ClaimDecide[] = times.map((t, i) =>
      limited[i]!.guard((holders, _current, at, _busy, hosts) => {
        const taken = hostsTaking(eventType, hosts, holders, t.startMs, t.endMs);
        if (!taken) return { refuse: "slot_unavailable" };
        const record: ReservationRecord = {
          uuid: uuids[i]!,
          eventTypeId: eventType.id,
          hostIds: taken,
          status: "confirmed",
          startMs: t.startMs,
          endMs: t.endMs,
          heldUntilMs: null,
          email: checked.email,
          firstname: checked.firstname,
          lastname: checked.lastname,
          phone: checked.phone,
          timezone: checked.timezone,
          locale: checked.locale,
          location: checked.location,
          guests: checked.guests,
          customFields: checked.customFields,
          meetLink,
          sequence: 0,
          payment: null,
          confirmedAtMs: at,
          cancelledAtMs: null,
          seriesId,
          seriesRule: ruleOf(i),
          createdAtMs: at,
          updatedAtMs: at,
        };
        // The first occurrence's emails carry the one recurring invite of the whole series.
        const said = i === 0 ? { ...record, seriesOthers: members } : record;
        const events = outboxEvents(this.mail, eventType, "reservation.created", said, at, manageUrls[i]!);
        return { write: record, events: i === 0 ? events : withoutEmails(events) };
      }),
    );
    let outcome: Awaited<ReturnType<Store["reservations"]["claimSeries"]>>;
    try {
      outcome = await this.store.reservations.claimSeries(claims, decide);
    } catch (error) {
      if (error instanceof StoreBusyError) throw failure("slot_locked", "Someone else is booking these times right now; try again.");
      throw error;
    }
    if ("refused" in outcome)
      throw seriesUnavailable(
        outcome.refused.map((r) => times[r.index]!),
        s.timezone,
      );
    return this.resultOf(eventType, outcome.records, options.origin);
  }

  /** The answer of a booked series: its first occurrence, with the series' id and every occurrence. */
  resultOf(eventType: EventTypeRecord, records: ReservationRecord[], origin: string): ReservationResult {
    const first = records[0]!;
    const zone = eventType.settings.timezone;
    const occurrences: SeriesOccurrence[] = records.map((r) => ({
      uuid: r.uuid,
      start: zonedIso(r.startMs, zone),
      end: zonedIso(r.endMs, zone),
      manageUrl: manageUrlOf(origin, eventType.slug, r.uuid),
    }));
    return { ...resultOf(first, manageUrlOf(origin, eventType.slug, first.uuid), true, eventType.hosts), occurrences };
  }

  /** The answer to a retried series booking (same idempotency key): the series as it now stands. */
  async recovered(eventType: EventTypeRecord, first: ReservationRecord, origin: string): Promise<ReservationResult> {
    const all = first.seriesId ? await this.store.reservations.series(eventType.id, first.seriesId) : [first];
    return this.resultOf(eventType, all, origin);
  }

  /**
   * `DELETE /reservations/{uuid}/series`: ends the series from this occurrence on, cancelling it and
   * every later one still standing, under the rules of a single cancel for this one (the notice,
   * lifted by the override token or the organizer). Each occurrence's cancellation is announced
   * (webhook with the series id); the visitor gets one email, whose invite says the series as it
   * now stands. Ending a series ended already succeeds again.
   */
  async end(eventType: EventTypeRecord, uuid: string | null, overrideToken: string | undefined, options: ChangeOptions): Promise<string> {
    const reason = checkCancelReason(options.reason);
    const r = await this.reservations.find(eventType, uuid);
    if (!r.seriesId) throw new DomainError("not_found", "This reservation is no occurrence of a series; cancel it with DELETE /reservations/{uuid}.");
    const override = this.reservations.checkOverride(eventType, overrideToken) || options.organizer === true;
    const nowMs = this.now();
    const standing = (o: ReservationRecord) => {
      const status = statusAt(o, nowMs);
      return status === "confirmed" || status === "held";
    };
    const all = [r, ...(r.seriesOthers ?? []).filter((o) => o.uuid !== r.uuid)] as ReservationRecord[];
    const following = all.filter((o) => o.startMs >= r.startMs && standing(o) && o.endMs > nowMs).sort((a, b) => a.startMs - b.startMs);
    if (following.length === 0) return "The series was already ended.";
    const firstFollowing = following[0]!;
    if (!override && !withinPublicNotice(firstFollowing.startMs, eventType.settings.cancelNoticeMinutes, nowMs)) {
      throw new DomainError("forbidden", `Cancelling closes ${eventType.settings.cancelNoticeMinutes} minutes before the start; ask the organizer.`);
    }
    // The series as it will stand: every following occurrence cancelled.
    const ending = new Set(following.map((o) => o.uuid));
    const after: SeriesMember[] = all.map((o) => (ending.has(o.uuid) ? { ...o, status: "cancelled", sequence: o.sequence + 1 } : o));
    let cancelled = 0;
    // The email rides on the date the visitor ended the series from, saying the series as it will stand.
    for (const [i, o] of following.entries()) {
      if (await this.cancelOccurrence(eventType, o, reason, options.origin, i === 0 ? after : null)) cancelled++;
    }
    return `The series is ended: ${cancelled} occurrence${cancelled === 1 ? "" : "s"} cancelled.`;
  }

  /**
   * Cancels one occurrence of a series being ended (compare-and-set, read again when another change
   * came first); `series`, for the first one, puts the email with the series' invite in its events.
   * False when it was no longer standing.
   */
  private async cancelOccurrence(eventType: EventTypeRecord, seen: ReservationRecord, reason: string | null, origin: string, series: SeriesMember[] | null) {
    let o: ReservationRecord | null = seen;
    for (let attempt = 0; attempt < 5 && o; attempt++) {
      const nowMs = this.now();
      const status = statusAt(o, nowMs);
      if (status !== "confirmed" && status !== "held") return false;
      const done: ReservationRecord = {
        ...o,
        status: "cancelled",
        cancelledAtMs: nowMs,
        cancelReason: reason,
        sequence: o.sequence + 1,
        updatedAtMs: stamp(o, nowMs),
        ...(series ? { seriesOthers: series } : {}),
      };
      const events =
        status === "confirmed" ? outboxEvents(this.mail, eventType, "reservation.cancelled", done, nowMs, manageUrlOf(origin, eventType.slug, o.uuid)) : [];
      try {
        if (await this.store.reservations.save(done, o.updatedAtMs, series ? events : withoutEmails(events))) return true;
      } catch (error) {
        if (error instanceof StoreBusyError) throw failure("slot_locked", "The series is being changed by another request; try again.");
        throw error;
      }
      o = await this.store.reservations.byUuid(eventType.id, o.uuid);
    }
    if (o) throw failure("slot_locked", "The series is being changed by another request; try again.");
    return false;
  }
}
