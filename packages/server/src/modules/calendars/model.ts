// The busy-source bodies are the wire's: the route checks their keys, the calendar service their values.
export { BusySourceCreate, WriteBookingsBody } from "@booking/wire";
