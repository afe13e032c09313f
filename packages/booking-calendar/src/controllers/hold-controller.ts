import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { TimeSlot } from "@booking/wire";
import { ApiFailure, type BookingApi } from "../api.ts";
import type { PaymentSetup } from "../views/payment-step.ts";

const HOLD_CHECK_MS = 5_000;
const REFRESH_BEFORE_MS = 120_000;
const ACTIVE_WITHIN_MS = 120_000;

/**
 * The seat held while the visitor pays: made by the attempt with Idempotency-Key `key` for `slot`,
 * through `api` under `token`; `charging` once a card payment was sent and not clearly refused.
 * `payment` is the one opened for it, kept as long as the hold, so a visitor who goes back to the
 * form (or the times) and on again returns to it while money may have moved.
 */
export interface Hold {
  uuid: string;
  heldUntil: number;
  key: string;
  slot: TimeSlot;
  charging: boolean;
  api: BookingApi;
  token: string;
  payment: PaymentSetup | null;
}

/** What the controller needs from the element that holds seats. */
export interface HoldOptions {
  /** Minutes a refresh adds to the hold (the configuration's `holdMinutes`). */
  holdMinutes(): number;
  /** The hold ended on the server (ran out, taken back): the visitor goes back to the times. */
  lost(): void;
  /** The hold is over here, whatever the reason: the element drops what belonged to it (the card form's mount). */
  ended(): void;
}

/**
 * Holds a tab left behind while not yet paying for them, written as the page goes away or when
 * giving one back failed (session storage, by API and token), and given back before the next hold
 * or when the tab loads the calendar again.
 */
const leftHolds = {
  key: (base: string, token: string) => `booking-calendar:left-holds:${base}:${token}`,
  write(base: string, token: string, uuid: string): void {
    try {
      const key = this.key(base, token);
      sessionStorage.setItem(key, JSON.stringify([...this.read(key), uuid]));
    } catch {
      // Storage refused (private mode, sandboxed frame): the hold runs out by itself.
    }
  },
  take(base: string, token: string): string[] {
    try {
      const key = this.key(base, token);
      const uuids = this.read(key);
      sessionStorage.removeItem(key);
      return uuids;
    } catch {
      return [];
    }
  },
  read(key: string): string[] {
    const stored: unknown = JSON.parse(sessionStorage.getItem(key) ?? "[]");
    return Array.isArray(stored) ? stored.filter((u): u is string => typeof u === "string") : [];
  },
};

/**
 * The seat a visitor holds while paying, from the hold to its end: keeps it alive while the visitor
 * is at work, and is the one way a hold is given back ({@link release}), whether the visitor goes
 * back, picks another time, the element leaves the page, or the page itself goes away. A hold that
 * cannot be given back for now is written down and given back by the next {@link release}, here or
 * after a reload, so it never stands in the visitor's own way. Never given back once a card payment
 * was sent for it.
 */
export class HoldController implements ReactiveController {
  #held: Hold | null = null;
  /** The API and token of the current start: holds left behind under them are given back by every release. */
  #api: BookingApi | null = null;
  #token = "";
  #timer: ReturnType<typeof setInterval> | undefined;
  #refreshing = false;
  #lastActivity = Date.now();
  /** The last hold given back, until the server has answered. */
  #releasing: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly options: HoldOptions,
  ) {
    host.addController(this);
    const active = () => {
      this.#lastActivity = Date.now();
    };
    host.addEventListener("pointerdown", active);
    host.addEventListener("keydown", active);
    host.addEventListener("input", active);
  }

  /** The seat held now, if any. */
  get current(): Hold | null {
    return this.#held;
  }

  hostConnected(): void {
    window.addEventListener("pagehide", this.#onPageHide);
    if (this.#held) this.#startTimer();
  }

  hostDisconnected(): void {
    window.removeEventListener("pagehide", this.#onPageHide);
    clearInterval(this.#timer);
    // A page that removes the element (not one that only moves it) gives its hold back.
    setTimeout(() => {
      if (!this.host.isConnected) void this.release();
    }, 0);
  }

  /**
   * A new start through `api` under `token`: the seat held under the one before is given back
   * (through the API it was held with), and so is every hold this tab left behind under the new ones.
   */
  restart(api: BookingApi, token: string): Promise<void> {
    this.#api = api;
    this.#token = token;
    return this.release();
  }

  /** A seat was held through `api`, the current start's: it is kept alive from now on. */
  hold(api: BookingApi, uuid: string, key: string, slot: TimeSlot): Hold {
    const held: Hold = {
      uuid,
      heldUntil: Date.now() + this.options.holdMinutes() * 60_000,
      key,
      slot,
      charging: false,
      api,
      token: this.#token,
      payment: null,
    };
    this.#held = held;
    this.#startTimer();
    this.host.requestUpdate();
    return held;
  }

  /** A payment was opened for the hold: kept with it until the hold ends. */
  paymentOpened(payment: PaymentSetup): void {
    this.#change({ payment });
  }

  /** A card payment was sent for the hold (or clearly refused): while charging it is never given back. */
  charging(charging: boolean): void {
    this.#change({ charging });
  }

  #change(change: Partial<Hold>): void {
    if (this.#held) {
      this.#held = { ...this.#held, ...change };
      this.host.requestUpdate();
    }
  }

  /** The hold is over without giving it back (booked, or lost on the server). */
  end(): void {
    clearInterval(this.#timer);
    this.#held = null;
    this.options.ended();
    this.host.requestUpdate();
  }

  /**
   * Gives the held seat back (not once a card payment was sent), and every hold this tab left
   * behind under the current API and token. Answers when all of them, and any release before, have
   * been answered, so a new hold never races them.
   */
  release(): Promise<void> {
    const hold = this.#held;
    if (hold && !hold.charging) {
      this.end();
      this.#releasing = this.#releasing.then(() => giveBack(hold.api, hold.token, hold.uuid));
    }
    const api = this.#api;
    const token = this.#token;
    const left = api ? Promise.all(leftHolds.take(api.base, token).map((uuid) => giveBack(api, token, uuid))) : Promise.resolve();
    return Promise.all([this.#releasing, left]).then(() => undefined);
  }

  /**
   * A visitor who leaves the page gives back a seat they were not yet paying for (unless the page is
   * kept to come back to). Browsers send this last request only where it needs no CORS preflight, as
   * on the server's own booking pages; so the tab also writes the hold down, and the next release
   * gives it back when the tab loads the calendar again (a reload).
   */
  readonly #onPageHide = (event: PageTransitionEvent) => {
    const hold = this.#held;
    if (event.persisted || !hold || hold.charging) return;
    hold.api.release(hold.uuid);
    leftHolds.write(hold.api.base, hold.token, hold.uuid);
  };

  #startTimer(): void {
    clearInterval(this.#timer);
    this.#timer = setInterval(() => void this.#check(), HOLD_CHECK_MS);
  }

  /** Extends the hold shortly before it ends while the visitor is still at work, or after it ended. */
  async #check(): Promise<void> {
    const hold = this.#held;
    if (!hold || this.#refreshing) return;
    const now = Date.now();
    const remaining = hold.heldUntil - now;
    const active = now - this.#lastActivity < ACTIVE_WITHIN_MS;
    if (!(remaining <= 0 || (remaining < REFRESH_BEFORE_MS && active))) return;
    this.#refreshing = true;
    try {
      await hold.api.refresh(hold.uuid);
      if (this.#held?.uuid === hold.uuid) this.#change({ heldUntil: Date.now() + this.options.holdMinutes() * 60_000 });
    } catch (error) {
      // Only the hold still held is lost; one given back or replaced meanwhile is nobody's concern.
      if (error instanceof ApiFailure && error.code === "reservation_finished" && this.#held?.uuid === hold.uuid) this.options.lost();
      // Other failures (offline for a moment) are retried at the next check.
    } finally {
      this.#refreshing = false;
    }
  }
}

/**
 * Gives one hold back. One that does not reach the server for now (offline, a server failure, too
 * many requests, the reservation busy with another request) is written down for the next release.
 */
async function giveBack(api: BookingApi, token: string, uuid: string): Promise<void> {
  try {
    await api.cancel(uuid);
  } catch (error) {
    const passing = error instanceof ApiFailure && (["network", "server", "rate_limited"].includes(error.kind) || error.code === "slot_locked");
    if (passing) leftHolds.write(api.base, token, uuid);
  }
}
