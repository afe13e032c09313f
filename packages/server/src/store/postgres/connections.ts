import pg from "pg";
import { StoreBusyError, StoreOutcomeUnknownError, StoreUnavailableError } from "../errors.ts";
import { connectionLoss } from "./pools.ts";

/** Serialization failures and deadlocks are retried this often, then reported as StoreBusyError. */
const RETRIES = 3;

/** An error as one line for the messages of the store, including the errors pg reports without a message. */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Connecting to a name with several addresses fails with an AggregateError without a message.
  if (error.message === "" && error instanceof AggregateError) return error.errors.map(messageOf).join("; ");
  return error.message || String((error as { code?: unknown }).code ?? error.name);
}

const sqlState = (error: unknown): string | undefined => (error instanceof pg.DatabaseError ? error.code : undefined);

/** Connection exceptions (08) and the server ending the session (57P01-03: terminated, shutting down). */
const LOST_SESSION = /^(08|57P0[123])/;

/** True when the connection itself failed, as opposed to a statement: the client must be discarded. */
function isConnectionLoss(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof pg.DatabaseError) return LOST_SESSION.test(error.code ?? "");
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return true; // ECONNRESET, EPIPE, ETIMEDOUT: the socket failed
  return /^Connection terminated|not queryable|^Query read timeout/.test(error.message);
}

/** How a transaction's work may end it: `commitWith` replaces the plain COMMIT by statements that end with one. */
export interface TransactionEnd {
  commitWith(end: (client: pg.PoolClient) => Promise<unknown>): void;
  /** The rows the last statement of `beginWith` answered (e.g. the database's clock read once its locks were held). */
  readonly begun: pg.QueryResultRow[];
}

/** Checking out, transactions, retries and the naming of failures: how the engine uses its pool. */
export class Connections {
  constructor(
    readonly pool: pg.Pool,
    private readonly target: string,
    /** Connections of the pool: after a server restart each idle one may be dead once, so a safe retry tries this many. */
    private readonly size: number,
  ) {}

  /**
   * One statement in its own implicit transaction; `retryOnLoss` for statements that may safely run
   * twice. A `name` makes it a prepared statement of each connection (parsed and planned once per
   * connection, not per request): for hot statements whose text never varies.
   */
  async run<R extends pg.QueryResultRow>(sql: string, params: unknown[] = [], retryOnLoss = false, name?: string): Promise<pg.QueryResult<R>> {
    for (let attempt = 0; ; attempt++) {
      const lease = await this.checkout();
      try {
        return await lease.client.query<R>(name ? { name, text: sql, values: params } : { text: sql, values: params });
      } catch (error) {
        lease.broken(error);
        if (retryOnLoss && attempt < this.size && isConnectionLoss(error)) continue;
        throw this.failure(error);
      } finally {
        lease.release();
      }
    }
  }

  /**
   * Runs `work` between BEGIN and COMMIT on one connection (READ COMMITTED; the work takes the row
   * locks it needs). A serialization failure or deadlock rolls back and runs `work` again, up to
   * RETRIES times with jittered backoff; a connection found dead at BEGIN (nothing done yet) is replaced.
   * Whatever fails, the transaction is rolled back (or its connection discarded) and the client released.
   * A connection lost during COMMIT is StoreOutcomeUnknownError: the transaction may have been saved.
   * `lockWaitMs` bounds the transaction's lock waits and `beginWith` (statements without parameters)
   * runs right after BEGIN, both in BEGIN's round trip; work may end the transaction itself with
   * `tx.commitWith`, to send its last writes together with COMMIT.
   */
  async transaction<T>(work: (client: pg.PoolClient, tx: TransactionEnd) => Promise<T>, options: { lockWaitMs?: number; beginWith?: string } = {}): Promise<T> {
    const begin = [
      "BEGIN",
      ...(options.lockWaitMs === undefined ? [] : [`SET LOCAL lock_timeout = ${Math.trunc(options.lockWaitMs)}`]),
      ...(options.beginWith === undefined ? [] : [options.beginWith]),
    ].join("; ");
    let pauseMs = 0;
    let deadConnections = 0;
    for (let attempt = 0; ; ) {
      if (pauseMs > 0) await Bun.sleep(pauseMs);
      pauseMs = 0;
      const lease = await this.checkout();
      let begun = false;
      try {
        let begunRows: pg.QueryResultRow[];
        try {
          // Several statements in one query answer one result each; the last is beginWith's last.
          const answered = (await lease.client.query(begin)) as pg.QueryResult | pg.QueryResult[];
          begunRows = Array.isArray(answered) ? (answered[answered.length - 1]?.rows ?? []) : answered.rows;
        } catch (error) {
          // A statement after BEGIN failed (a lock wait ran out): the transaction is open, to roll back.
          if (!isConnectionLoss(error)) begun = true;
          throw error;
        }
        begun = true;
        let commit: (client: pg.PoolClient) => Promise<unknown> = (client) => client.query("COMMIT");
        const result = await work(lease.client, { commitWith: (end) => (commit = end), begun: begunRows });
        try {
          await commit(lease.client);
        } catch (error) {
          // The COMMIT (or its answer) may have reached the database or not: nothing to retry or roll back.
          if (!isConnectionLoss(error)) throw error;
          lease.broken(error, true);
          throw new StoreOutcomeUnknownError(
            `Lost the connection to PostgreSQL at ${this.target} during COMMIT; the transaction may have been saved: ${messageOf(error)}`,
            { cause: error },
          );
        }
        return result;
      } catch (error) {
        if (error instanceof StoreOutcomeUnknownError) throw error;
        if (begun && !isConnectionLoss(error)) await lease.client.query("ROLLBACK").catch((rollbackError) => lease.broken(rollbackError, true));
        else lease.broken(error, true);
        const state = sqlState(error);
        if ((state === "40001" || state === "40P01") && attempt < RETRIES) {
          pauseMs = (10 << attempt++) * (0.5 + Math.random());
          continue;
        }
        if (!begun && isConnectionLoss(error) && deadConnections++ < this.size) continue;
        throw this.failure(error);
      } finally {
        lease.release();
      }
    }
  }

  /**
   * A pooled client, and how to give it back: a client whose connection failed (as the statement
   * that failed says, or its 'error' event, heard by the pool's listener) is discarded, never reused.
   * A client that died between the pool handing it out and this taking it is replaced at once.
   */
  private async checkout() {
    for (let attempt = 0; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        // Every connection busy past the wait: the database is reachable, this instance is saturated.
        if (this.pool.totalCount >= this.size && /timeout exceeded when trying to connect/i.test(messageOf(error))) throw new StoreBusyError();
        // A store this process closed is its own failure, not the database's.
        if (this.pool.ending) throw new Error(`The PostgreSQL store of ${this.target} is closed.`, { cause: error });
        throw new StoreUnavailableError(`Cannot reach PostgreSQL at ${this.target}: ${messageOf(error)}`, { cause: error });
      }
      const dead = connectionLoss(client);
      if (dead !== undefined) {
        client.release(dead);
        if (attempt < this.size) continue;
        throw this.failure(dead);
      }
      let lost: Error | boolean = false;
      return {
        client,
        broken(error: unknown, always = false) {
          if (always || isConnectionLoss(error)) lost = error instanceof Error ? error : true;
        },
        release() {
          client.release(lost || connectionLoss(client) || false);
        },
      };
    }
  }

  /** What a caller sees of a failed statement: StoreBusyError for lock waits and exhausted retries, StoreUnavailableError for a lost connection. */
  private failure(error: unknown): unknown {
    const state = sqlState(error);
    if (state === "55P03" || state === "40001" || state === "40P01") return new StoreBusyError();
    if (isConnectionLoss(error)) return new StoreUnavailableError(`Lost the connection to PostgreSQL at ${this.target}: ${messageOf(error)}`, { cause: error });
    return error;
  }
}
