/** Thrown when an event type would take the slug of another; nothing was written. */
export class SlugTakenError extends Error {
  constructor(readonly slug: string) {
    super(`the slug "${slug}" belongs to another event type`);
  }
}

/** Thrown when another writer holds the store beyond a short wait; nothing was written. */
export class StoreBusyError extends Error {
  constructor() {
    super("another writer holds the store");
  }
}

/**
 * Thrown when the store's database cannot be reached or ended the session (a restart, a failover, a
 * terminated backend). A transaction that lost its connection is rolled back by the database, unless
 * the loss came during its COMMIT (then StoreOutcomeUnknownError); a request may be tried again once
 * the database is back.
 */
export class StoreUnavailableError extends Error {}

/**
 * Thrown when the connection was lost while a transaction's COMMIT was on its way or its answer
 * was: the database may have saved the transaction or not, and this process cannot tell. Unlike
 * other losses, something may have changed; a keyed request learns which from its key
 * (`idempotency.begin` answers `saved` when its booking was committed).
 */
export class StoreOutcomeUnknownError extends StoreUnavailableError {}
