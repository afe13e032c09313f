import type { ConfirmInput, RescheduleInput, ReservationInput, ReservationResult } from "@booking/wire";
import type { ServerConfig } from "../../config.ts";
import { nextStamp as stamp, statusAt, withinPublicNotice } from "../../domain/reservation.ts";
import { bufferedSpan, NO_BUSY_SOURCE, type BusySource } from "../../domain/busy.ts";
import { offeringHosts } from "../../domain/hosts.ts";
import { DomainError, BusinessFailure, FieldErrors, ValidationFailed } from "../../domain/errors.ts";
import { matchesHash } from "../../lib/tokens.ts";
import { StoreBusyError } from "../../store/errors.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";
import type { Store } from "../../store/store.ts";
import { refundMessage, type PaymentService } from "../payments/service.ts";
import type { LogEntry } from "../../context.ts";
import { outboxEvents } from "../outbox/events.ts";
import { mailPolicy, type MailPolicy } from "../mail/events.ts";
import { manageUrlOf } from "../../lib/links.ts";
import { isUuid } from "../../lib/ids.ts";
import { awayView } from "../time-off/stand-ins.ts";
import { checkCancelReason, checkConfirmInput, checkReservationInput, slotTimes } from "./validate.ts";
import { busyAt, claimSeat, failure, heldHosts, hostsTaking, moved, type SeatDecide } from "./claim.ts";
import { cancelledMessage, resultOf } from "./result.ts";
import { confirmedAt, meetLinkFor } from "./meeting.ts";

/** Who makes a change, and where the links of its answer and webhook point. */
export interface ChangeOptions {
  /** Public origin of the visitor's manage link (see `publicOrigin`). */
  origin: string;
  /**
   * The organizer acts (through the admin key): like the override token, this lifts the visitor's
   * reschedule and cancel notice and the minimum notice and horizon of a new slot; opening hours,
   * seats and the past still hold.
   */
  organizer?: boolean;
  /** Cancel only: why, as the visitor wrote it (blank reads as none). */
  reason?: string | undefined;
}

/**
 * The reservation lifecycle: book in one step or hold and confirm, refresh a hold, reschedule,
 * cancel. Every seat is taken through the store's claim, so no slot is ever over-booked; every
 * other change is a compare-and-set on the reservation, so concurrent changes never overwrite
 * each other.
 */
export class ReservationService {
  constructor(
    private readonly store: Store,
    private readonly payments: PaymentService,
    private readonly config: ServerConfig,
    private readonly now: () => number,
    private readonly log: (entry: LogEntry) => void = () => {},
    private readonly busy: BusySource = NO_BUSY_SOURCE,
  ) {
    this.mail = mailPolicy(config);
  }

  /** Whether confirmation emails are written with the changes (see MailPolicy). */
  private readonly mail: MailPolicy;

  /** The reservation of this event type, or 404 without telling whether it exists elsewhere. */
  async find(eventType: EventTypeRecord, uuid: string | null): Promise<ReservationRecord> {
    // A path segment that does not even decode (`%ZZ`) arrives as null: as unknown as any other.
    const r = uuid !== null && isUuid(uuid) ? await this.store.reservations.byUuid(eventType.id, uuid.toLowerCase()) : null;
    if (!r) throw new DomainError("not_found", "No reservation with this uuid exists for this event type.");
    // An occurrence of a series: its changes' messages say the whole series.
    return r.seriesId ? { ...r, seriesOthers: await this.store.reservations.series(eventType.id, r.seriesId) } : r;
  }

  /** `POST /reservations` (confirmed at once) and `POST /reservations/prepare` (held). */
  async book(
    listed: EventTypeRecord,
    input: ReservationInput,
    mode: "confirm" | "hold",
    options: ChangeOptions & { idempotencyKey?: string },
  ): Promise<ReservationResult> {
    const s = listed.settings;
    if (input.recurrence) throw new ValidationFailed({ recurrence: ["A series is booked in one step, with POST /reservations; a hold takes one time."] });
    if (mode === "confirm" && s.payment) {
      throw new DomainError("payment_required", "This event type is paid: prepare the reservation, pay, then confirm.");
    }
    const checked = checkReservationInput(input, s);
    const nowMs = this.now();
    // Time off leaves hosts out; a personal event type's away host has their colleague stand in.
    const { eventType, awayOf } = await awayView(this.store, listed, bufferedSpan(s, checked.startMs, checked.endMs));
    // The hosts whose hours offer the time: all of a collective event type, any of round robin.
    const candidates = offeringHosts(s, eventType.assignment, eventType.hosts, checked.startMs, checked.endMs, nowMs, { awayOf });
    if (candidates.length === 0 || (await busyAt(this.busy, eventType, checked.startMs, checked.endMs))) {
      throw failure("slot_unavailable", "This time is not offered; pick one of GET /time-slots.");
    }
    const uuid = crypto.randomUUID();
    const meetLink = mode === "confirm" ? meetLinkFor(this.config.meetBaseUrl, checked.location.type) : null;
    // Built at the instant the store judges the claim at (the database's clock on PostgreSQL).
    const recordAt = (at: number, hostIds: number[]): ReservationRecord => ({
      uuid,
      eventTypeId: eventType.id,
      hostIds,
      status: mode === "confirm" ? "confirmed" : "held",
      startMs: checked.startMs,
      endMs: checked.endMs,
      heldUntilMs: mode === "hold" ? at + s.holdMinutes * 60_000 : null,
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
      confirmedAtMs: mode === "confirm" ? at : null,
      cancelledAtMs: null,
      createdAtMs: at,
      updatedAtMs: at,
    });
    const manageUrl = manageUrlOf(options.origin, eventType.slug, uuid);
    const written = await this.claim(
      eventType,
      checked.startMs,
      checked.endMs,
      undefined,
      options.idempotencyKey,
      candidates,
      (holders, _current, at, _busy, hosts) => {
        const taken = hostsTaking(eventType, hosts, holders, checked.startMs, checked.endMs);
        if (!taken) return { refuse: "slot_unavailable" };
        const record = recordAt(at, taken);
        // A hold is not a reservation yet: only a confirmed booking is announced.
        return { write: record, events: mode === "confirm" ? outboxEvents(this.mail, eventType, "reservation.created", record, at, manageUrl) : [] };
      },
    );
    return resultOf(written, manageUrl, mode === "confirm", eventType.hosts);
  }

  /** `POST /reservations/{uuid}/confirm`: a held (or expired, if its seat can be had again) reservation becomes confirmed. */
  async confirm(eventType: EventTypeRecord, uuid: string | null, input: ConfirmInput, options: ChangeOptions): Promise<ReservationResult> {
    const r = await this.find(eventType, uuid);
    const s = eventType.settings;
    const nowMs = this.now();
    const manageUrl = manageUrlOf(options.origin, eventType.slug, r.uuid);
    const status = statusAt(r, nowMs);
    if (status === "confirmed") return resultOf(r, manageUrl, true, eventType.hosts);
    // A refund that could not be made yet is tried again while the payer asks.
    if (status === "cancelled") throw failure("reservation_finished", cancelledMessage(await this.retryRefund(eventType, r, options.origin)));
    const changes = checkConfirmInput(input, r.customFields, s);
    const paid = s.payment ? await this.payments.isPaid(eventType, r, options.origin) : "paid";
    if (paid === "refunded" || paid === "refunding") throw failure("reservation_finished", refundMessage(paid));
    if (paid === "unpaid") throw new DomainError("payment_required", "No successful payment exists for this reservation yet.");
    const written = await this.claim(eventType, r.startMs, r.endMs, r.uuid, undefined, heldHosts(r), (holders, current, at, _busy, hosts) => {
      if (!current) return { refuse: "reservation_finished" };
      if (moved(current, r)) return { refuse: "slot_locked" };
      const now = statusAt(current, at);
      if (now === "confirmed") return { write: current };
      if (now === "cancelled") return { refuse: "reservation_finished" };
      // A lapsed hold takes its seat anew: only if its hosts' calendars and other bookings have not filled the time meanwhile.
      if (now === "expired" && !hostsTaking(eventType, hosts, holders, current.startMs, current.endMs, { retake: { nowMs: at } }))
        return { refuse: "reservation_finished" };
      // A payment recorded meanwhile (by the webhook) is kept.
      const confirmed = confirmedAt(this.config.meetBaseUrl, { ...current, ...changes, payment: current.payment }, current, at);
      return { write: confirmed, events: outboxEvents(this.mail, eventType, "reservation.created", confirmed, at, manageUrl) };
    });
    return resultOf(written, manageUrl, true, eventType.hosts);
  }

  /**
   * Confirms paid holds whose hold time is over (run by the sweep): the visitor paid and then left
   * before confirming (a closed tab, a lost connection). Their seat is kept anyway, so confirming
   * with what they gave when preparing turns the money into the booking it paid for and tells the
   * organizer (`reservation.created`); waiting longer gains nothing, and after the meeting's start
   * nobody could confirm it any more. The visitor's own later confirm answers the confirmed booking.
   * Payments still processing past their hold time, or on reservations no longer held (lapsed at the
   * slot's start, cancelled by the organizer), are checked at Stripe (`recheckProcessing`), so a lost
   * webhook never keeps a seat for a payment that failed, nor money without a booking or a refund.
   * Both lists have their own `limit`, so neither crowds out the other. One hold that fails is logged
   * and left for the next sweep; the others go on. Answers how many were confirmed.
   */
  async confirmPaidHolds(origin: string, limit = 100): Promise<number> {
    let confirmed = 0;
    const nowMs = this.now();
    const dueList = [...(await this.store.reservations.paidHoldsDue(nowMs, limit)), ...(await this.store.reservations.processingDue(nowMs, limit))];
    for (const due of dueList) {
      try {
        const eventType = await this.store.eventTypes.byId(due.eventTypeId);
        if (!eventType) continue;
        const r = due.payment?.status === "processing" ? await this.payments.recheckProcessing(eventType, due, origin) : due;
        if (r.status !== "held" || r.payment?.status !== "succeeded") continue;
        const manageUrl = manageUrlOf(origin, eventType.slug, r.uuid);
        await this.claim(eventType, r.startMs, r.endMs, r.uuid, undefined, heldHosts(r), (_holders, current, at) => {
          // Confirmed, cancelled, refreshed or rescheduled by someone meanwhile: theirs to decide.
          if (!current || moved(current, r) || current.status !== "held" || current.payment?.status !== "succeeded" || (current.heldUntilMs ?? 0) > at)
            return { refuse: "reservation_finished" };
          const done = confirmedAt(this.config.meetBaseUrl, current, current, at);
          return { write: done, events: outboxEvents(this.mail, eventType, "reservation.created", done, at, manageUrl) };
        });
        confirmed++;
      } catch (error) {
        // Refused (changed meanwhile) or the store was busy: the next sweep looks again. Anything else
        // is logged, and must not keep the other paid holds from being confirmed.
        if (!(error instanceof BusinessFailure)) this.log({ level: "error", message: `confirming the paid hold ${due.uuid} failed`, error });
      }
    }
    return confirmed;
  }

  /** `POST /reservations/{uuid}/refresh`: a held or expired reservation is held again, if its seat is still free. */
  async refresh(eventType: EventTypeRecord, uuid: string | null, origin: string): Promise<void> {
    const r = await this.find(eventType, uuid);
    const s = eventType.settings;
    const nowMs = this.now();
    const status = statusAt(r, nowMs);
    if (status === "cancelled") throw failure("reservation_finished", cancelledMessage(await this.retryRefund(eventType, r, origin)));
    if (status !== "held" && status !== "expired") throw failure("reservation_finished", `A ${status} reservation cannot be refreshed.`);
    await this.claim(eventType, r.startMs, r.endMs, r.uuid, undefined, heldHosts(r), (holders, current, at, _busy, hosts) => {
      const now = current ? statusAt(current, at) : "cancelled";
      if (!current || (now !== "held" && now !== "expired")) return { refuse: "reservation_finished" };
      if (moved(current, r)) return { refuse: "slot_locked" };
      // A hold still held keeps its seat whatever filled the calendars since; a lapsed one takes it anew.
      const taken =
        now === "held"
          ? hostsTaking(
              eventType,
              hosts.map((h) => ({ ...h, busy: [] })),
              holders,
              current.startMs,
              current.endMs,
            )
          : hostsTaking(eventType, hosts, holders, current.startMs, current.endMs, { retake: { nowMs: at } });
      if (!taken) return { refuse: "reservation_finished" };
      return { write: { ...current, status: "held", heldUntilMs: at + s.holdMinutes * 60_000, updatedAtMs: stamp(current, at) } };
    });
  }

  /**
   * `PUT /reservations/{uuid}`: moves a held or confirmed reservation to another offered slot. A
   * visitor may do so until `rescheduleNoticeMinutes` before the current start; the organizer's
   * override token (or the organizer acting) lifts that rule and the minimum notice and horizon of
   * the new slot.
   */
  async reschedule(listed: EventTypeRecord, uuid: string | null, input: RescheduleInput, options: ChangeOptions): Promise<ReservationResult> {
    const r = await this.find(listed, uuid);
    const s = listed.settings;
    const nowMs = this.now();
    const override = this.checkOverride(listed, input.overrideToken) || options.organizer === true;
    const manageUrl = manageUrlOf(options.origin, listed.slug, r.uuid);
    const errors = new FieldErrors();
    const times = slotTimes(input, s, errors);
    ValidationFailed.check(errors);
    const status = statusAt(r, nowMs);
    if (status === "cancelled" || status === "expired") throw failure("reservation_finished", `A ${status} reservation cannot be rescheduled.`);
    if (!override && !withinPublicNotice(r.startMs, s.rescheduleNoticeMinutes, nowMs)) {
      throw new DomainError("forbidden", `Rescheduling closes ${s.rescheduleNoticeMinutes} minutes before the start; ask the organizer.`);
    }
    const { startMs, endMs } = times!;
    const { eventType, awayOf } = await awayView(this.store, listed, bufferedSpan(s, startMs, endMs));
    // The override lifts notice and horizon, never time itself: nothing moves into the past.
    const candidates =
      startMs <= nowMs ? [] : offeringHosts(s, eventType.assignment, eventType.hosts, startMs, endMs, nowMs, { ignoreNoticeAndHorizon: override, awayOf });
    if (candidates.length === 0 || (await busyAt(this.busy, eventType, startMs, endMs))) {
      throw failure("slot_unavailable", "This time is not offered; pick one of GET /time-slots.");
    }
    const written = await this.claim(eventType, startMs, endMs, r.uuid, undefined, candidates, (holders, current, at, _busy, hosts) => {
      const now = current ? statusAt(current, at) : "cancelled";
      if (!current || (now !== "held" && now !== "confirmed")) return { refuse: "reservation_finished" };
      // The host keeps the booking when free at the new time; round robin reassigns it otherwise.
      const taken = hostsTaking(eventType, hosts, holders, startMs, endMs, { keep: current.hostIds });
      if (!taken) return { refuse: "slot_unavailable" };
      // A new SEQUENCE: calendars replace the invite of the old time with this one.
      const moved: ReservationRecord = {
        ...current,
        hostIds: taken,
        startMs,
        endMs,
        timezone: times!.timezone ?? current.timezone,
        sequence: current.sequence + 1,
        updatedAtMs: stamp(current, at),
        ...(r.seriesOthers ? { seriesOthers: r.seriesOthers } : {}),
      };
      // Moving a hold changes nothing anyone was told about.
      const events = now === "confirmed" ? outboxEvents(this.mail, eventType, "reservation.rescheduled", moved, at, manageUrl, current) : [];
      return { write: moved, events };
    });
    // The meeting stays what it was: its link and place come with the new time.
    return resultOf(written, manageUrl, statusAt(written, this.now()) === "confirmed", eventType.hosts);
  }

  /**
   * `DELETE /reservations/{uuid}`: cancels, freeing the seat at once. Cancelling a cancelled
   * reservation succeeds again (a retried DELETE changes nothing); a meeting that has ended cannot
   * be cancelled; a confirmed one only until `cancelNoticeMinutes` before its start, unless the
   * organizer's override token is given (or the organizer acts). Holds can be let go, except by the
   * visitor once their payment succeeded (asked of Stripe when not yet recorded) or while it is being
   * processed; an unpaid intent is cancelled at Stripe with its hold. An intent found paid after all
   * while the hold's seat was gone has cancelled the reservation and been refunded: the DELETE succeeds, saying so.
   */
  async cancel(eventType: EventTypeRecord, uuid: string | null, overrideToken: string | undefined, options: ChangeOptions): Promise<string> {
    const reason = checkCancelReason(options.reason);
    const override = this.checkOverride(eventType, overrideToken) || options.organizer === true;
    let closedIntent: string | null = null;
    for (let attempt = 0; attempt < 5; attempt++) {
      const r = await this.find(eventType, uuid);
      const nowMs = this.now();
      const status = statusAt(r, nowMs);
      if (status === "cancelled") return "The reservation was already cancelled.";
      // The hold's unpaid intent is cancelled at Stripe first (again if a concurrent payment request
      // replaced it), so no page still open on it can pay for a seat that is gone; Stripe also tells
      // whether it was paid after all (then recorded, and read again).
      if (status !== "confirmed" && r.payment?.status === "processing" && !options.organizer)
        throw new DomainError("forbidden", "This hold's payment is being processed; it cannot be let go now.");
      if (status !== "confirmed" && r.payment && r.payment.status !== "succeeded" && r.payment.intentId !== closedIntent) {
        closedIntent = r.payment.intentId;
        const intent = await this.payments.closeIntent(eventType, r, options.origin);
        if (intent === "processing" && !options.organizer)
          throw new DomainError("forbidden", "This hold's payment is being processed; it cannot be let go now.");
        if (intent === "paid" && !options.organizer) throw new DomainError("forbidden", "This hold is paid: confirm it instead of cancelling it.");
        // Paid after all, but its seat was gone: cancelled by that, and the money given back.
        if (intent === "refunded" || intent === "refunding") return `The reservation is cancelled. ${refundMessage(intent)}`;
        if (intent === "paid") continue;
      }
      // A hold whose payment went through is the visitor's booking waiting for its confirm: letting it
      // go would keep the money and drop the booking. The organizer may still cancel it.
      if (status !== "confirmed" && r.payment?.status === "succeeded" && !options.organizer) {
        throw new DomainError("forbidden", "This hold is paid: confirm it instead of cancelling it.");
      }
      if (status === "confirmed") {
        if (r.endMs <= nowMs) throw failure("reservation_finished", "The meeting has already taken place.");
        if (!override && !withinPublicNotice(r.startMs, eventType.settings.cancelNoticeMinutes, nowMs)) {
          throw new DomainError("forbidden", `Cancelling closes ${eventType.settings.cancelNoticeMinutes} minutes before the start; ask the organizer.`);
        }
      }
      const cancelled: ReservationRecord = {
        ...r,
        status: "cancelled",
        cancelledAtMs: nowMs,
        cancelReason: reason,
        sequence: r.sequence + 1,
        updatedAtMs: stamp(r, nowMs),
      };
      // A hold let go was never a reservation: nothing to announce.
      const events =
        status === "confirmed"
          ? outboxEvents(this.mail, eventType, "reservation.cancelled", cancelled, nowMs, manageUrlOf(options.origin, eventType.slug, r.uuid))
          : [];
      try {
        if (await this.store.reservations.save(cancelled, r.updatedAtMs, events)) return "The reservation is cancelled.";
      } catch (error) {
        if (error instanceof StoreBusyError) throw failure("slot_locked", "The reservation is being changed by another request; try again.");
        throw error;
      }
    }
    throw failure("slot_locked", "The reservation is being changed by another request; try again.");
  }

  /** A cancelled reservation's refund that could not be made yet, tried again; answers the reservation as it then is. */
  private async retryRefund(eventType: EventTypeRecord, r: ReservationRecord, origin: string): Promise<ReservationRecord> {
    return r.payment?.status === "refunding" ? this.payments.finishRefund(eventType, r, origin) : r;
  }

  /** The override token, compared in constant time; a wrong one is refused, none means the public rules. */
  checkOverride(eventType: EventTypeRecord, token: string | undefined): boolean {
    if (token === undefined || token === "") return false;
    if (!matchesHash(token, eventType.overrideTokenHash)) throw new DomainError("forbidden", "The override token is not valid.");
    return true;
  }

  /** Runs a seat claim for [startMs, endMs) over the candidate hosts' time (see `claimSeat`). */
  private claim(
    eventType: EventTypeRecord,
    startMs: number,
    endMs: number,
    uuid: string | undefined,
    idempotencyKey: string | undefined,
    hostIds: number[] | undefined,
    decide: SeatDecide,
  ): Promise<ReservationRecord> {
    return claimSeat(this.store, this.now, eventType, { startMs, endMs, uuid, idempotencyKey, hostIds }, decide);
  }
}
