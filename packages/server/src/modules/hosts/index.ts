/**
 * Hosts and their schedules: the people whose time event types book (docs/hosts.md). Their admin
 * routes are mounted with the rest of the admin API (modules/admin/index.ts), behind the admin key.
 */
export { HostAdmin, MAX_SCHEDULES_PER_HOST, type HostBookingView, type HostReservationsQuery } from "./service.ts";
export { bookingHosts, organizerCopies, organizerOf } from "./organizer.ts";
