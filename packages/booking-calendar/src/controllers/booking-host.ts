import type { ReactiveControllerHost } from "lit";
import type { Prefill } from "../flow/draft.ts";
import type { Flow } from "../flow/flow.ts";

/**
 * What the controllers that move the visitor through booking need of `<booking-calendar>`: the
 * attributes a start is made from (and the form prefilled with), the flow they move and the busy flag
 * of the step shown.
 */
export interface BookingHost extends ReactiveControllerHost, HTMLElement, Prefill {
  token: string;
  apiBase: string;
  reservationUuid: string;
  manageAction: string;
  /** Where the visitor is in booking (see flow/flow.ts). */
  flow: Flow;
  /** A request of the step shown is under way (its buttons wait). */
  busy: boolean;
  /** The zone times are shown and booked in. */
  readonly visitorZone: string;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** Focuses what `selector` finds once the next render is done (the heading of a new step, the times of a day). */
export function focusAfterUpdate(host: BookingHost, selector: string): void {
  void host.updateComplete.then(() => host.renderRoot.querySelector<HTMLElement>(selector)?.focus());
}
