import type { ReservationRecord } from "../../store/reservations.ts";
import { nextStamp as stamp } from "../../domain/reservation.ts";

/** A new video meeting's link under `meetBaseUrl` for a booking with a `video-meet` location; none for other places. */
export function meetLinkFor(meetBaseUrl: string, type: string | undefined): string | null {
  if (type !== "video-meet") return null;
  const room = Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("base64url");
  return `${meetBaseUrl.replace(/\/?$/, "/")}booking-${room}`;
}

/** `held` (with whatever the visitor changed) as a confirmed booking at `at`, with its meeting link. */
export function confirmedAt(meetBaseUrl: string, held: ReservationRecord, stored: ReservationRecord, at: number): ReservationRecord {
  return {
    ...held,
    status: "confirmed",
    heldUntilMs: null,
    meetLink: stored.meetLink ?? meetLinkFor(meetBaseUrl, stored.location?.type),
    confirmedAtMs: at,
    updatedAtMs: stamp(stored, at),
  };
}
