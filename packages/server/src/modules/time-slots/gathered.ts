import type { HostBlock } from "../../domain/exclusions.ts";
import type { HostBusyInterval } from "../../store/hosts.ts";
import type { LimitBooking, SeatHolder } from "../../store/reservations.ts";

/** What decides an event type's slots in a range (`TimeSlotService.gather`), read once for the slot page and the availability check. */
export interface Gathered {
  holders: SeatHolder[];
  hostBusy: HostBusyInterval[];
  blocksOf: (hostId: number) => HostBlock[];
  /** The bookings the booking limits count over the periods the range meets. */
  counted: LimitBooking[];
  /** True when a booking of [startMs, endMs) would pass one of the event type's own limits. */
  ownLimited: ((startMs: number, endMs: number) => boolean) | undefined;
  /** True when a booking of [startMs, endMs) would pass one of the host's limits. */
  limited: ((hostId: number, startMs: number, endMs: number) => boolean) | undefined;
}
