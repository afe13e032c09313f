import { Task } from "@lit/task";
import type { InitData } from "@booking/wire";
import { ApiFailure, BookingApi } from "../api.ts";
import { addDays, todayIn } from "../dates.ts";
import { emptyDraft, prefilled } from "../flow/draft.ts";
import * as flows from "../flow/flow.ts";
import { emit } from "../events.ts";
import { loadCatalog } from "../i18n/load.ts";
import { localizedInit } from "../i18n/organizer.ts";
import { loadPart } from "../parts/load.ts";
import { focusAfterUpdate, type BookingHost } from "./booking-host.ts";
import type { BookingController } from "./booking-controller.ts";
import type { EnvironmentController } from "./environment-controller.ts";

let scriptApiBase = "";

/** Sets the API origin used when `api-base` is not given: the script-tag build passes the origin it was served from. */
export function setDefaultApiBase(origin: string): void {
  scriptApiBase = origin;
}

/**
 * A start of the element: (re)loads the event type under the element's token, API and reservation,
 * gives back the holds of the start before, and opens the month of the closest bookable day. Only the
 * latest run's answer or failure counts (an older start's is dropped). Also the zones the picker
 * offers, asked for once per start when the visitor first reaches for it.
 */
export class StartController {
  /** Where the zone list is asked for, and the zones to offer without it. */
  #zonesFrom: [BookingApi, string[]] | null = null;
  /** The zones the picker offers: the server's list; without it, the visitor's and the organizer's. */
  readonly #zones: Task<[BookingApi, string[]], string[]>;
  readonly #loader: Task<readonly [string, string, string], { api: BookingApi; init: InitData }>;
  readonly #host: BookingHost;
  readonly #environment: EnvironmentController;
  readonly #booking: BookingController;

  constructor(host: BookingHost, environment: EnvironmentController, booking: BookingController) {
    this.#host = host;
    this.#environment = environment;
    this.#booking = booking;
    this.#zones = new Task(host, {
      autoRun: false,
      task: ([api, own]: [BookingApi, string[]]) => api.timezones().catch(() => own),
    });
    this.#loader = new Task(host, {
      autoRun: false,
      args: () => [host.token, host.apiBase, host.reservationUuid] as const,
      task: async ([token, apiBase, reservationUuid]) => {
        const { notices, calendar, holds } = booking;
        const api = new BookingApi((apiBase || scriptApiBase || location.origin).replace(/\/+$/, ""), token);
        host.flow = flows.starting(host.flow);
        notices.clear();
        calendar.restart();
        // A hold made under another token or API is given back (through the API it was made with),
        // and so are the holds this tab left behind under the new ones.
        await holds.restart(api, token);
        const loaded = await api.init(reservationUuid || undefined);
        // The organizer's texts in the visitor's language, where the event type gives them.
        const init = localizedInit(loaded, environment.wanted(loaded.configuration));
        // The first paint of the calendar waits for its language, so it does not flash English;
        // a catalog that cannot be loaded leaves it in English. A booking's manage screens are a part
        // of their own, fetched meanwhile; without them there is nothing to show (Retry).
        await Promise.all([
          loadCatalog(environment.languageFor(init.configuration)).catch(() => undefined),
          init.reservation &&
            loadPart("manage").catch((error: unknown) => {
              throw new ApiFailure("network", "network_error", String(error));
            }),
        ]);
        return { api, init };
      },
      onComplete: ({ api, init }) => this.#opened(init, api),
      onError: (error) => this.#loadFailed(error),
    });
  }

  /** (Re)loads the event type from the element's attributes as they are now. */
  run(): Promise<void> {
    return this.#loader.run();
  }

  /** The zones the picker offers (none until the visitor reaches for it). */
  get zones(): string[] {
    return this.#zones.value ?? [];
  }

  /** The visitor reached for the zone picker: the server's zone list, asked once per start. */
  wantZones(): void {
    const from = this.#zonesFrom;
    this.#zonesFrom = null;
    if (from) void this.#zones.run(from);
  }

  /** The event type is loaded: the month that holds the closest bookable day, and the zones to offer. */
  #opened(init: InitData, api: BookingApi): void {
    const host = this.#host;
    const { notices, calendar } = this.#booking;
    // A Task drops what its onComplete throws, so a configuration this browser cannot open (a zone
    // it does not know) is caught here and shown like a failed load, with Retry.
    try {
      const config = init.configuration;
      const kept = host.flow.kind === "loading" ? host.flow.kept : null;
      host.flow = flows.loaded(init, api, prefilled(kept ?? emptyDraft(), host));
      if (!init.disabled) {
        const today = todayIn(config.timezone);
        if (config.closestBookableDay < 0) notices.say(this.#environment.textsFor(config)("nothingFree"), false);
        calendar.open(api, addDays(today, config.closestBookableDay >= 0 ? config.closestBookableDay : config.min));
        // The zone list is asked for when the visitor reaches for the picker, not while the page starts.
        this.#zonesFrom = [api, [...new Set([host.visitorZone, config.timezone])]];
      }
      // A manage link's action: the question to cancel, open, or the new times, in view.
      if (init.reservation && host.manageAction === "cancel") {
        host.flow = flows.cancelAsked(host.flow, "");
        focusAfterUpdate(host, "#cancel-reason");
      } else if (init.reservation && host.manageAction === "reschedule") focusAfterUpdate(host, "#new-times");
      emit(host, "booking-ready", { configuration: config, disabled: init.disabled, rescheduling: !!init.reservation });
    } catch (error) {
      this.#loadFailed(error);
    }
  }

  #loadFailed(error: unknown): void {
    this.#host.flow = flows.loadFailed(this.#host.flow);
    this.#booking.report(error, () => void this.run());
  }
}
