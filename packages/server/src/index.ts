export { createApp, type AppDependencies } from "./app.ts";
export { configFromEnv, DEFAULT_CONFIG, type ServerConfig } from "./config.ts";
export { systemClock, ManualClock, type Clock } from "./clock.ts";
export { openSqliteStore, type SqliteStoreOptions } from "./store/sqlite/index.ts";
export { SecretBox, parseSecretKey, type SecretKey } from "./lib/secrets.ts";
export type { Store } from "./store/store.ts";
export type { EventTypeRecord } from "./store/event-types.ts";
export type { ReservationRecord } from "./store/reservations.ts";
export { seedDemo, type SeededEventType } from "./seed.ts";
