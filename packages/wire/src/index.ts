export * from "./envelope.ts";
export * from "./limits.ts";
export * from "./languages.ts";
export * from "./time-slots.ts";
export * from "./event-types.ts";
export * from "./reservations.ts";
export * from "./admin.ts";
export * from "./hosts.ts";
