export { AvailabilityCheck, AvailabilityCheckQuery, HostAvailabilityCheck, HostAvailabilityCheckQuery } from "@booking/wire";
