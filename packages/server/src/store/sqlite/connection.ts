import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { StoreBusyError } from "../errors.ts";

/** Page cache of the store's connection, in KiB (SQLite's negative cache_size). */
const PAGE_CACHE_KIB = 64 * 1024;
/** WAL pages (4 KiB each) after which a commit checkpoints. */
const WAL_CHECKPOINT_PAGES = 4000;
/** Most claims committed in one transaction: enough to share a commit widely, few enough that one turn of the event loop stays short. */
const MOST_CLAIMS_PER_BATCH = 64;

/** Wait for the write lock while migrating at start, and for any write of a request (then StoreBusyError). */
const STARTUP_WAIT_MS = 10_000;
const WRITE_WAIT_MS = 100;

/**
 * Opens (creating when needed) the database file at `path` (`:memory:` allowed) in WAL mode, set
 * to wait long for the write lock, as migrations at start need; `SqliteConnection` shortens the wait.
 */
export function openDatabase(path: string): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  // Processes starting together wait for each other's migrations...
  db.exec(`PRAGMA busy_timeout = ${STARTUP_WAIT_MS}`);
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA synchronous = NORMAL");
  // The default 2 MB page cache holds a few thousand reservations' pages: beyond that every booking
  // reads its index pages back and its commit costs several times as much. Pages are allocated as
  // used, so a small calendar stays small. Checkpoints every 16 MB of WAL rather than 4 MB: each
  // costs a sync, and fewer, larger ones copy a page rewritten by many bookings once.
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  return db;
}

/**
 * Where the database stood for one connection: `version` moves when another connection (another
 * process) commits, `changes` counts every row this connection wrote. Equal stamps mean nothing was
 * written in between, by anyone.
 */
export interface DatabaseStamp {
  version: number;
  changes: number;
}

/** The revisions a batch of claims bumped, once each per bump: hosts' booking revisions, and event types' own (a claim with no host). */
export interface ClaimBumps {
  hosts: number[];
  eventTypes: number[];
}

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: string } | null)?.code ?? "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
};

/**
 * The one connection of the engine and its transactions: a write runs in an immediate transaction,
 * claims arriving together share one (`batched`), and another writer holding on beyond the short
 * wait is StoreBusyError. The twin of postgres/connections.ts.
 */
export class SqliteConnection {
  private readonly q: ReturnType<typeof prepareTransactions>;

  /** Claims waiting for the next batch (see `batched`). */
  private pending: { work: () => unknown; resolve: (value: never) => void; reject: (error: unknown) => void }[] = [];

  /** The bumps of the claim running now (see `claimed`), and of the claims of the batch before it that kept their writes. */
  private claimBumps: ClaimBumps | null = null;
  private readonly claimListeners: ((from: DatabaseStamp, to: DatabaseStamp, bumps: ClaimBumps) => void)[] = [];

  constructor(readonly db: Database) {
    // ...but a request never does for long: bun:sqlite waits synchronously, stalling the whole process.
    db.exec(`PRAGMA busy_timeout = ${WRITE_WAIT_MS}`);
    this.q = prepareTransactions(db);
  }

  /** Where the database stands now for this connection (two cheap statements, no table read). */
  stamp(): DatabaseStamp {
    return { version: this.q.dataVersion.get()!.data_version, changes: this.q.totalChanges.get()!.changes };
  }

  /**
   * Tells the connection which revisions the claim running now (inside `batched`) bumped. Once its
   * batch has committed, listeners hear the bumps of the claims that kept their writes, with the
   * stamps of the database before the batch's first claim and after its last: a cache current at
   * the first knows exactly what the batch changed of it, and is current at the second.
   */
  claimed(hostIds: readonly number[], eventTypeId: number | null): void {
    if (!this.claimBumps) return;
    this.claimBumps.hosts.push(...hostIds);
    if (eventTypeId !== null) this.claimBumps.eventTypes.push(eventTypeId);
  }

  /** Listens to the revisions each committed batch of claims bumped (see `claimed`). */
  onClaimsCommitted(listener: (from: DatabaseStamp, to: DatabaseStamp, bumps: ClaimBumps) => void): void {
    this.claimListeners.push(listener);
  }

  /**
   * Runs `work` like `write`, but together with the other claims that arrive before the next turn
   * of the event loop: one immediate transaction, each work in a savepoint of its own (a work that
   * throws undoes only its own writes and rejects only its own promise), one COMMIT for all. Each
   * claim still runs alone on what the ones before it wrote, and is answered only once its writes
   * are committed; what the batch saves is a commit (and its share of WAL pages and checkpoints)
   * per booking, the largest cost of a booking on SQLite. Only claims and the outbox's bookkeeping
   * run here: a work that changed event types, hosts or schedules other than by the revisions it
   * tells `claimed` would break what `onClaimsCommitted` promises its listeners.
   */
  batched<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: never) => void, reject });
      if (this.pending.length === 1) setImmediate(() => this.runBatch());
    });
  }

  /**
   * One transaction of waiting claims (at most MOST_CLAIMS_PER_BATCH; the rest go in the next
   * turn, so a burst never holds the event loop for long). Every claim of it is answered, whatever
   * fails: its own outcome once the commit succeeded, else the error that undid the transaction.
   */
  private runBatch(): void {
    const batch = this.pending.splice(0, MOST_CLAIMS_PER_BATCH);
    if (this.pending.length > 0) setImmediate(() => this.runBatch());
    const outcomes: ({ value: unknown } | { error: unknown })[] = [];
    let failed: { error: unknown } | null = null;
    const bumps: ClaimBumps = { hosts: [], eventTypes: [] };
    let stamps: { from: DatabaseStamp; to: DatabaseStamp } | null = null;
    try {
      this.q.begin.run();
      // Read under the write lock: no other connection commits until this batch has.
      const from = this.stamp();
      for (const item of batch) {
        this.q.savepoint.run();
        let value: unknown;
        this.claimBumps = { hosts: [], eventTypes: [] };
        try {
          value = item.work();
          this.q.release.run();
          bumps.hosts.push(...this.claimBumps.hosts);
          bumps.eventTypes.push(...this.claimBumps.eventTypes);
        } catch (error) {
          // Some errors (SQLITE_FULL, IOERR, NOMEM, a trigger's RAISE(ROLLBACK)) end the whole
          // transaction, savepoints and the claims before included: the batch fails with this error.
          if (!this.undoClaim()) throw error;
          outcomes.push({ error });
          continue;
        }
        outcomes.push({ value });
      }
      this.claimBumps = null;
      // Before COMMIT: after it, another process may commit before the stamp is read.
      const to = this.stamp();
      this.q.commit.run();
      stamps = { from, to };
    } catch (error) {
      this.claimBumps = null;
      failed = { error: isBusy(error) ? new StoreBusyError() : error };
      try {
        if (this.db.inTransaction) this.q.rollback.run();
      } catch {
        // The error that broke the batch is the one to answer with, not the rollback's.
      }
    } finally {
      batch.forEach((item, i) => {
        const outcome = failed ?? outcomes[i] ?? { error: new Error("claim not run") };
        if ("error" in outcome) item.reject(outcome.error);
        else item.resolve(outcome.value as never);
      });
      // Synchronously after COMMIT, before any answer's continuation runs or another request reads.
      if (stamps) for (const listener of this.claimListeners) listener(stamps.from, stamps.to, bumps);
    }
  }

  /** Undoes the writes of the claim in the current savepoint; false when that cannot be done, the transaction being gone or broken. */
  private undoClaim(): boolean {
    if (!this.db.inTransaction) return false;
    try {
      this.q.rollbackTo.run();
      this.q.release.run();
      return true;
    } catch {
      return false;
    }
  }

  /** Runs `work` in one immediate transaction; another writer holding on beyond the short wait is StoreBusyError. */
  write<T>(work: () => T): T {
    try {
      return this.db.transaction(work).immediate();
    } catch (error) {
      if (isBusy(error)) throw new StoreBusyError();
      throw error;
    }
  }
}

/** The statements of a claims' batch, prepared once per connection. */
function prepareTransactions(db: Database) {
  return {
    begin: db.query("BEGIN IMMEDIATE"),
    savepoint: db.query("SAVEPOINT claim"),
    release: db.query("RELEASE claim"),
    rollbackTo: db.query("ROLLBACK TO claim"),
    commit: db.query("COMMIT"),
    rollback: db.query("ROLLBACK"),
    dataVersion: db.query<{ data_version: number }, []>("PRAGMA data_version"),
    totalChanges: db.query<{ changes: number }, []>("SELECT total_changes() AS changes"),
  };
}
