import type { Clock } from "../../clock.ts";
import type { LogEntry } from "../../context.ts";
import { redactUrls } from "../../lib/redact.ts";
import type { AttemptFollowUps, ChannelOutbox, OutboxChannel, OutboxDelivery, WebhookAttempt } from "../../store/outbox.ts";
import type { Store } from "../../store/store.ts";

/** Waits between attempts (decisions.md): the 8th failed attempt gives up. The same for every channel. */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
/** A lease outlives every deliverer's timeout, so a worker that died mid-delivery frees its events for another. */
const LEASE_MS = 60_000;
/** Deliveries one worker has under way at once, not counting the first of an event type that has none under way. */
export const MAX_IN_FLIGHT = 64;
/**
 * Deliveries one worker has under way at once, all counted: the room kept for event types with
 * nothing under way, so receivers that hang (each for its deliverer's timeout) hold back the events
 * of other event types only once this many deliveries hang.
 */
const MAX_IN_FLIGHT_TOTAL = 256;
/**
 * Free slots a delivery that ends waits for before it claims again: a busy worker claims a batch of
 * due events at a time rather than one per delivery that ends (each claim is a transaction, and a
 * scan of the due events).
 */
const REFILL_AT = MAX_IN_FLIGHT / 2;
/** Leases one event type holds at once (see `claimDue` for how exact that is across workers): a receiver that hangs takes this many slots, never all. */
const PER_EVENT_TYPE = 2;

/**
 * What one attempt at delivering an event came to. `error: null` is delivered; otherwise the event
 * is tried again by the backoff, unless `final` says another try cannot help.
 */
export interface DeliveryOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** Give up now (the receiver said no for good, or there is nothing to deliver to). */
  final?: boolean;
  /** The receiver asked to wait at least this long before the next try. */
  retryAfterMs?: number | null;
  /** Where the attempt went, recorded as the event's `url`. */
  url?: string;
  /** Written with the attempt's record, whatever its outcome (see `AttemptFollowUps`). */
  followUps?: AttemptFollowUps;
}

/**
 * Delivers the events of one outbox channel. A channel (webhooks, emails, a calendar writer) is a
 * deliverer and a worker running it: the outbox, its leases, ordering, backoff and bookkeeping are
 * shared, so a new channel needs no schema change.
 */
export interface Deliverer {
  readonly channel: OutboxChannel;
  /**
   * Leases one event type may hold at once on this channel (PER_EVENT_TYPE without): a channel
   * whose receiver is the event type's own (a webhook URL) keeps it low, so one that hangs takes
   * few slots; one whose receiver all event types share (the SMTP server) gains nothing from it.
   */
  readonly perEventType?: number;
  /** One attempt at a leased event; never throws for a failed delivery, it answers it. */
  deliver(event: OutboxDelivery): Promise<DeliveryOutcome>;
}

/**
 * Delivers one channel of the outbox, at least once: leases due events, hands each to the channel's
 * deliverer and records the attempt, then delivered, the next try by the backoff (or a later wait
 * the receiver asked for), or failed after the last try or a final refusal. Events of one
 * reservation go out in order on each channel. Deliveries run side by side: a receiver that hangs
 * holds at most two delivery slots, and an event type with nothing under way gets a slot of its
 * own while fewer than MAX_IN_FLIGHT_TOTAL deliveries are under way, so other event types' events
 * do not wait on it. Runs in every server process; the store's leases keep two workers from
 * holding the same attempt.
 */
export class OutboxWorker {
  private timer: ReturnType<typeof setInterval> | null = null;
  /** Claims one at a time, so the count of deliveries under way is right when the next claim is sized. */
  private claiming: Promise<unknown> = Promise.resolve();
  private readonly inFlight = new Set<Promise<void>>();
  /** Claims asked of the store and not yet answered: a tick while one hangs (a pool exhausted) adds no other. */
  private claimsPending = 0;
  /** A slot came free while a claim was unanswered: claim again once it is. */
  private passWanted = false;
  /** A pass is due on the next turn of the event loop (see `soon`). */
  private passSoon: ReturnType<typeof setTimeout> | null = null;
  private readonly outbox: ChannelOutbox;

  constructor(
    store: Store,
    private readonly clock: Clock,
    private readonly deliverer: Deliverer,
    protected readonly log: (entry: LogEntry) => void,
  ) {
    this.outbox = store.outbox.channel(deliverer.channel);
  }

  /**
   * Claims what is due now (as many as there are free delivery slots), delivers it and waits for
   * these deliveries; answers how many attempts were made. Passes may overlap: one waiting on a slow
   * receiver does not keep the next from claiming and delivering other events.
   */
  async runOnce(): Promise<number> {
    this.claimsPending++;
    const claim = this.claiming
      .then(() => this.claim())
      .finally(() => {
        this.claimsPending--;
        if (this.passWanted && this.claimsPending === 0) {
          this.passWanted = false;
          this.soon();
        }
      });
    this.claiming = claim.catch(() => undefined);
    const started = await claim;
    // allSettled: one failed bookkeeping write must not let `stop()` return while others still send.
    const results = await Promise.allSettled(started);
    for (const r of results)
      if (r.status === "rejected") this.log({ level: "error", message: `${this.deliverer.channel} delivery bookkeeping failed`, error: r.reason });
    return started.length;
  }

  /**
   * Polls every `everyMs`, and while started also claims again as soon as a delivery ends (once
   * REFILL_AT slots are free), so a backlog (a burst of bookings of one event type, whose deliveries go at most PER_EVENT_TYPE at
   * a time) drains at the receivers' pace instead of PER_EVENT_TYPE events per poll.
   */
  start(everyMs = 1000): void {
    this.timer ??= setInterval(() => this.pass(), everyMs);
  }

  /**
   * A pass on the next turn of the event loop, while started. Never straight away: with SQLite a claim,
   * an instant delivery (a logged email) and its record are all synchronous, so passes chained without
   * a turn in between would keep the process from answering any request until the backlog is gone.
   */
  private soon(): void {
    if (!this.timer || this.passSoon) return;
    this.passSoon = setTimeout(() => {
      this.passSoon = null;
      this.pass();
    }, 0);
  }

  /** A pass now, or once the claim still unanswered is (only one is asked of the store at a time). */
  private pass(): void {
    if (this.claimsPending > 0) {
      this.passWanted = true;
      return;
    }
    this.runOnce().catch((error) => this.log({ level: "error", message: `${this.deliverer.channel} delivery pass failed`, error }));
  }

  /** Stops polling and waits for the attempts under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.passSoon) clearTimeout(this.passSoon);
    this.passSoon = null;
    await this.claiming;
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Leases due events and starts their deliveries in two steps: first one event of each event type
   * that has none leased (the room kept for them), then more, up to PER_EVENT_TYPE per event type,
   * for the free slots.
   */
  private async claim(): Promise<Promise<void>[]> {
    const now = this.clock.now();
    const room = MAX_IN_FLIGHT_TOTAL - this.inFlight.size;
    const started = room > 0 ? this.deliverAll(await this.outbox.claimDue(now, LEASE_MS, room, 1)) : [];
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    if (free <= 0) return started;
    try {
      started.push(...this.deliverAll(await this.outbox.claimDue(now, LEASE_MS, free, this.deliverer.perEventType ?? PER_EVENT_TYPE)));
    } catch (error) {
      // The deliveries of the first step are under way: the pass answers for them, and the next claims again.
      if (started.length === 0) throw error;
      this.log({ level: "error", message: `${this.deliverer.channel} claim failed`, error });
    }
    return started;
  }

  /** Starts the deliveries of leased events, counted in flight until each is recorded. */
  private deliverAll(due: OutboxDelivery[]): Promise<void>[] {
    return due.map((d) => {
      const delivery = this.deliver(d).finally(() => {
        this.inFlight.delete(delivery);
        // Slots came free: the next events need not wait for the next poll. Claimed once a few are
        // free, so a worker with many deliveries under way claims them in batches, not one by one.
        if (MAX_IN_FLIGHT - this.inFlight.size >= REFILL_AT) this.soon();
      });
      this.inFlight.add(delivery);
      // The pass looks at the outcome only once its claim is done; a bookkeeping write failing before
      // that (the database restarting) would meanwhile be an unhandled rejection, which ends the process.
      delivery.catch(() => undefined);
      return delivery;
    });
  }

  private async deliver(d: OutboxDelivery): Promise<void> {
    const atMs = this.clock.now();
    let outcome: DeliveryOutcome;
    try {
      outcome = await this.deliverer.deliver(d);
    } catch (error) {
      // A deliverer answers failures; one that threw anyway is an ordinary failed attempt, retried.
      outcome = { statusCode: null, error: `delivery failed: ${error instanceof Error ? error.message : String(error)}`, durationMs: 0 };
    }
    const record: WebhookAttempt = { attempt: d.attempts, atMs, statusCode: outcome.statusCode, error: outcome.error, durationMs: outcome.durationMs };
    const url = { ...(outcome.url === undefined ? {} : { url: outcome.url }), ...(outcome.followUps ? { followUps: outcome.followUps } : {}) };
    if (outcome.error === null) return this.outbox.recordAttempt(d.id, record, { status: "delivered", ...url });
    if (outcome.final) return this.outbox.recordAttempt(d.id, record, { status: "failed", ...url });
    const delay = RETRY_DELAYS_MS[d.attempts - 1];
    if (delay === undefined) {
      // Logs reach more readers than the organizer: an endpoint's query (a token) stays out of them.
      this.log({
        level: "warn",
        message: redactUrls(`${this.deliverer.channel} ${d.msgId} to ${outcome.url ?? d.url} failed after ${d.attempts} attempts: ${outcome.error}`),
      });
      return this.outbox.recordAttempt(d.id, record, { status: "failed", ...url });
    }
    return this.outbox.recordAttempt(d.id, record, {
      status: "pending",
      nextAttemptAtMs: this.clock.now() + Math.max(delay, outcome.retryAfterMs ?? 0),
      ...url,
    });
  }
}
