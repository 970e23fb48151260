import { randomBytes, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import type { PoolClient } from 'pg';
import type { Event } from '../../core/emitter';
import type { StoreChange } from '../../core/ports/store';
import type {
  AsyncSqlReader,
  AsyncSqlWriter,
  EngineDescription,
  LedgerEngine,
  WaitOptions,
  WaitResult,
} from '../engine';
import { StoreError } from '../errors';
import { latestVersion } from '../migrations';
import { StatementGuard } from '../statementGuard';
import { CHANNEL, LedgerPgClient, pgTarget } from './pgConnect';
import type { PgTarget, SessionLimits } from './pgConnect';
import { PgChangeFeed } from './pgChangeFeed';
import { migrateSchema, schemaVersionOf } from './pgSchema';
import {
  BEGIN_READ,
  BEGIN_WRITE,
  commitSql,
  committedSeq,
  query,
  readerOn,
  TransientPgError,
  wrapPgError,
  writerOn,
} from './pgStatements';
import type { ErrorContext } from './pgStatements';

export interface PostgresEngineOptions extends SessionLimits {
  /** `postgres://user@host:5432/database` (the password may be in it, or in the environment). */
  url: string;
  /** Where AGENT_LEDGER_DB_PASSWORD / PGPASSWORD are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Create or upgrade the schema when it is absent or older (default: refuse, `notInitialized` / `needsMigration`). */
  migrate?: boolean;
  /** How long a call keeps retrying while the server cannot be reached (default 15,000 ms). */
  retryMs?: number;
  /** Connections per process besides the listening one (default 4; idle ones close after 30 s). */
  poolSize?: number;
  /** Poll interval of the clock while LISTEN is down (default 500 ms; 30 s while it is up, as a safety net). */
  pollMs?: number;
}

/**
 * The PostgreSQL engine (node-postgres). Writes are transactions that first lock the one row of
 * `ledger_clock` — so writers of every process and machine commit one at a time, in seq order —
 * and end by bumping it, recording the write's id and announcing the seq with NOTIFY. Reads run
 * in a REPEATABLE READ, READ ONLY transaction (one snapshot). A call whose connection fails
 * before COMMIT was sent is retried with backoff; a COMMIT whose answer was lost is resolved by
 * looking its write id up. Waits are woken by LISTEN on a dedicated connection that reconnects
 * by itself, with polling of the clock while it is down.
 */
export class PostgresEngine implements LedgerEngine {
  readonly kind = 'postgres' as const;
  private readonly pool: Pool;
  private readonly ctx: ErrorContext;
  private readonly origin = randomBytes(6).toString('hex');
  private readonly feed: PgChangeFeed;
  private version = 0;
  private closed = false;

  private constructor(
    private readonly target: PgTarget,
    private readonly options: PostgresEngineOptions,
  ) {
    this.ctx = { where: target.display, password: target.password };
    // Pipelined connections: a statement goes out as soon as it is issued, without waiting for the
    // answers before it (answers still come in order). BEGIN then travels with a call's first
    // statement, a read's `Promise.all` costs one round trip, and a read's COMMIT is not waited for.
    this.pool = new Pool({
      ...target.config,
      Client: LedgerPgClient,
      pipeline: true,
      max: options.poolSize ?? 4,
      idleTimeoutMillis: 30_000,
    } as ConstructorParameters<typeof Pool>[0]);
    // An idle connection the server dropped (restart, network) is removed by the pool; the next call gets a new one.
    this.pool.on('error', () => undefined);
    this.feed = new PgChangeFeed(
      target,
      this.origin,
      () => this.readClock(),
      () => this.currentSeq(),
      options.pollMs ?? 500,
    );
  }

  /** Connects (retrying while the server is out of reach), checks the schema version (migrating when asked) and learns the current seq. */
  static async open(options: PostgresEngineOptions): Promise<PostgresEngine> {
    const engine = new PostgresEngine(pgTarget(options.url, options.env, options), options);
    try {
      let version = await engine.adminCall((c) => schemaVersionOf(c));
      if (version < latestVersion && options.migrate)
        version = (await engine.adminCall((c) => migrateSchema(c, CHANNEL))).to;
      if (version === 0)
        throw new StoreError(
          'notInitialized',
          `${engine.target.display} holds no ledger yet: run \`agent-ledger db init --db <url>\``,
        );
      if (version < latestVersion)
        throw new StoreError(
          'needsMigration',
          `${engine.target.display} holds ledger schema v${version}, this Agent Ledger needs v${latestVersion}: run \`agent-ledger db migrate --db <url>\``,
        );
      if (version > latestVersion)
        throw new StoreError(
          'tooNew',
          `${engine.target.display} holds ledger schema v${version}, this Agent Ledger knows v${latestVersion}: update Agent Ledger`,
        );
      engine.version = version;
      engine.feed.learn(await engine.currentSeq(), false);
    } catch (err) {
      await engine.close();
      throw err;
    }
    return engine;
  }

  get seq(): number {
    return this.feed.seq;
  }

  get onDidChange(): Event<StoreChange> {
    return this.feed.onDidChange;
  }

  /**
   * One read transaction, round trips cut to what `fn` needs: BEGIN is pipelined with the first
   * statement, statements issued together (`Promise.all`) share a round trip, and COMMIT (a read
   * only ends its snapshot) is sent without waiting for its answer — the connection answers it
   * before anything the next user of the connection sends. A read of one statement is one round trip.
   */
  read<T>(fn: (db: AsyncSqlReader) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.retrying(() =>
      this.withClient(async (client, discard) => {
        const guard = new StatementGuard(true);
        const begun = settled(query(client, this.ctx, BEGIN_READ));
        try {
          const value = await fn(readerOn(client, this.ctx, guard));
          await throwFailure(begun);
          guard.check();
          void client.query('COMMIT').catch(() => undefined);
          return value;
        } catch (err) {
          await client.query('ROLLBACK').catch(discard);
          throw (await begun) ?? err;
        }
      }),
    );
  }

  write<T>(fn: (tx: AsyncSqlWriter) => Promise<T>): Promise<T> {
    this.assertOpen();
    return this.retrying(() => this.writeOnce(fn));
  }

  waitForChange(afterSeq: number, options: WaitOptions = {}): Promise<WaitResult> {
    this.assertOpen();
    return this.feed.wait(afterSeq, options);
  }

  describe(): EngineDescription {
    return { kind: 'postgres', location: this.target.display, schemaVersion: this.version };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.feed.close();
    await this.pool.end().catch(() => undefined);
  }

  // ---- writing ------------------------------------------------------------------------

  private async writeOnce<T>(fn: (tx: AsyncSqlWriter) => Promise<T>): Promise<T> {
    const writeId = randomUUID();
    let value: T;
    let commitSent = false;
    try {
      const seq = await this.withClient(async (client, discard) => {
        let changed = false;
        const guard = new StatementGuard(true);
        // BEGIN and the clock's lock go out with the first statement (pipelined).
        const begun = settled(query(client, this.ctx, BEGIN_WRITE));
        try {
          value = await fn(writerOn(client, this.ctx, guard, () => (changed = true)));
          await throwFailure(begun);
          guard.check();
          if (!changed) {
            // Nothing written: end it as a read ends (the connection answers it before its next user's statements).
            void client.query('ROLLBACK').catch(() => undefined);
            return undefined;
          }
          commitSent = true;
          return await this.commitOn(client, writeId);
        } catch (err) {
          if (!commitSent) await client.query('ROLLBACK').catch(discard);
          else discard();
          throw (await begun) ?? err;
        }
      });
      if (seq !== undefined) this.feed.learn(seq, false);
      return value!;
    } catch (err) {
      if (!(commitSent && err instanceof TransientPgError)) throw err;
      // The connection broke with COMMIT in flight: find out whether it committed.
      const seq = await this.resolveCommit(writeId, err);
      if (seq === undefined) throw err; // rolled back: retrying() runs the write again
      this.feed.learn(seq, false);
      return value!;
    }
  }

  private async commitOn(client: PoolClient, writeId: string): Promise<number> {
    try {
      const results = (await client.query(commitSql(writeId, this.origin))) as unknown as { rows: { seq: number }[] }[];
      return Number(results[0].rows[0].seq);
    } catch (err) {
      throw wrapPgError(err, this.ctx);
    }
  }

  /** The seq of write `writeId` if it committed, undefined if it did not; `ambiguousCommit` when the server stays out of reach. */
  private async resolveCommit(writeId: string, cause: TransientPgError): Promise<number | undefined> {
    const idle = this.options.idleInTransactionMs ?? 10_000;
    const deadline = Date.now() + Math.max(this.options.retryMs ?? 15_000, idle + 5_000);
    let delay = 50;
    for (;;) {
      try {
        return await this.withClient((client) => committedSeq(client, this.ctx, writeId, idle + 5_000));
      } catch (err) {
        if (!(err instanceof TransientPgError) || Date.now() + delay > deadline) {
          throw new StoreError(
            'ambiguousCommit',
            `the connection to ${this.target.display} broke while the write was committing, and whether it committed could not be checked (${(err as Error).message}); look before writing it again`,
            { cause },
          );
        }
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 1_000);
    }
  }

  // ---- connections, retries, changes ---------------------------------------------------

  /**
   * Runs `fn` on a pooled connection. A connection that failed, or whose ROLLBACK failed
   * (`discard`), is closed instead of going back to the pool.
   */
  private async withClient<T>(fn: (client: PoolClient, discard: () => void) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw wrapPgError(err, this.ctx);
    }
    let broken = false;
    // A connection that breaks during a call also emits 'error': the call's own query already
    // rejects with it, and an unheard 'error' would end the process.
    const onError = (): void => void (broken = true);
    client.on('error', onError);
    try {
      return await fn(client, () => (broken = true));
    } catch (err) {
      if (err instanceof TransientPgError) broken = true;
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken ? new Error('connection discarded') : undefined);
    }
  }

  /** Runs store-level statements of our own (schema checks, migrations) with coded errors and retries. */
  private adminCall<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.retrying(() =>
      this.withClient(async (client) => {
        try {
          return await fn(client);
        } catch (err) {
          throw wrapPgError(err, this.ctx);
        }
      }),
    );
  }

  /** Runs `attempt` again (with backoff) while it fails transiently and the deadline allows. */
  private async retrying<T>(attempt: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + (this.options.retryMs ?? 15_000);
    let delay = 25;
    for (;;) {
      try {
        return await attempt();
      } catch (err) {
        if (!(err instanceof TransientPgError) || this.closed || Date.now() + delay > deadline) throw err;
      }
      await sleep(delay * (1 + Math.random()));
      delay = Math.min(delay * 2, 1_000);
    }
  }

  private currentSeq(): Promise<number> {
    return this.retrying(() => this.readClock());
  }

  /** The clock's seq, one try (polls). */
  private readClock(): Promise<number> {
    return this.withClient(async (c) =>
      Number((await query<{ seq: number }>(c, this.ctx, 'SELECT seq FROM ledger_clock WHERE id = 1'))[0]?.seq ?? 0),
    );
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('closed', 'the ledger store is closed');
  }
}

/** A statement sent ahead: resolves with its failure (or undefined), never rejects, so nobody must await it at once. */
function settled(sent: Promise<unknown>): Promise<unknown> {
  return sent.then(
    () => undefined,
    (err: unknown) => err ?? new Error('statement failed'),
  );
}

async function throwFailure(outcome: Promise<unknown>): Promise<void> {
  const failure = await outcome;
  if (failure !== undefined) throw failure;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
