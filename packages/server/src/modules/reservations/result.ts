import { refundMessage } from "../payments/service.ts";
import type { ReservationResult } from "@booking/wire";
import type { EventTypeHostInfo } from "../../store/event-types.ts";
import type { ReservationRecord } from "../../store/reservations.ts";

/**
 * ReservationResult: `userId`, `userName` and `userEmail` name the host the booking is with (the
 * first of a collective booking's hosts; docs/hosts.md), and the visitor's manage link.
 */
export function resultOf(r: ReservationRecord, manageUrl: string | null, withMeetLink = false, hosts: readonly EventTypeHostInfo[] = []): ReservationResult {
  const hostId = r.hostIds[0];
  const host = hosts.find((h) => h.hostId === hostId);
  const result: ReservationResult = { uuid: r.uuid, userId: hostId ?? null, userName: host?.name || null, userEmail: host?.email ?? null };
  if (withMeetLink) {
    result.meetLink = r.meetLink;
    // Where to meet: the organizer's address or number, or the link (with `meetLink` for a video meeting).
    result.location = r.location;
  }
  result.manageUrl = manageUrl;
  if (r.seriesId) result.seriesId = r.seriesId;
  return result;
}

/** Why a cancelled reservation cannot be confirmed or refreshed; a refund (or one under way) is said, so the payer knows where their money is. */
export function cancelledMessage(r: ReservationRecord): string {
  if (r.payment?.status === "refunded" || r.payment?.status === "refunding") return refundMessage(r.payment.status);
  return "The reservation was cancelled.";
}
