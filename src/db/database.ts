// Opens the database: embedded PGlite in DATA_DIR (default) or a PostgreSQL server (DATABASE_URL).
// Both are reached the same way, through a pg.Pool, so Kysely, pg-boss and every query are identical.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './types.js';
import { acquireLock, dataDirLockFile, type Lock } from './lock.js';
import { checkDuration, type SlowStatementWatch } from './slow-statements.js';
import { gatedConnect, SessionGate } from './session-gate.js';
import { queryKeepingParser, runKeepingParser } from './kept-row-parser.js';
import { currentWork } from '../lib/work-context.js';

// Return bigint/numeric as JS numbers and timestamps as Date (pg's defaults for the latter).
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export interface Database {
  readonly db: Kysely<DB>;
  readonly pool: pg.Pool;
  readonly embedded: boolean;
  /** The PGlite instance in embedded mode (for dumps in tests), otherwise null. */
  readonly pglite: PGlite | null;
  /**
   * Embedded: LISTEN on `channel` in the engine, `onPayload` for each NOTIFY; answers the UNLISTEN. (A server
   * listens on a connection of its own, outside the pool: the callers open one.)
   */
  listenEmbedded(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * One statement on a pooled connection, outside Kysely (named prepared statements, the job queue's own SQL),
   * timed like Kysely's: from the moment it has the connection, so waiting for it is not counted as slowness.
   */
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
  close(): Promise<void>;
}

/** The contrib extensions the migrations use; PGlite needs them registered up front. */
export const PGLITE_EXTENSIONS = { cube, earthdistance, pg_trgm };

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Pool size for a PostgreSQL server (PGlite is always one session). */
  poolSize?: number;
  /** An already opened PGlite (tests load a migrated template into memory). */
  pglite?: PGlite;
  /** Where statements slower than its threshold are reported (slow-statements.ts). */
  slowStatements?: SlowStatementWatch;
}

/**
 * How long a pooled connection may sit unused before it is closed (pg-pool's default: 10 s). Longer than the
 * minute between cron ticks, so an idle worker keeps the few connections each minute's jobs use instead of opening
 * them anew every minute (8 connections a minute, each a server process forked and, with a password, a SCRAM
 * exchange on both sides).
 */
const POOL_IDLE_TIMEOUT_MS = 2 * 60_000;

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    // JIT compilation pays off for long analytical queries; for ours (indexed, a few ms) it only adds latency
    // — measured at more than 300 ms on some search plans.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS,
      options: '-c jit=off',
    });
    await pool.query('select 1'); // fail at start, not on the first request
    return wrap(pool, false, null, options.slowStatements, async () => undefined);
  }
  let lock: Lock | null = null;
  let pglite = options.pglite;
  if (!pglite) {
    mkdirSync(options.dataDir, { recursive: true });
    lock = acquireLock(dataDirLockFile(options.dataDir));
    try {
      pglite = await PGlite.create({ dataDir: join(options.dataDir, 'pgdata'), extensions: PGLITE_EXTENSIONS });
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  const owned = !options.pglite;
  const instance = pglite;
  // PGlite is a single session: one pooled connection, and every query queues on it.
  const pool = new pg.Pool({ ...createPgConfig(yieldingEngine(instance)), max: 1 });
  return wrap(pool, true, instance, options.slowStatements, async () => {
    if (owned) await instance.close();
    lock?.release();
  });
}

/** Frontend message types that end a statement: a simple Query, or the Sync after parse/bind/execute. */
const QUERY = 0x51; // 'Q'
const SYNC = 0x53; // 'S'

/**
 * The engine as the pg adapter sees it, taking a turn of the event loop at the end of each statement. PGlite runs in this
 * thread and its answers settle as promise callbacks, which never give timers or sockets a turn: a job that runs
 * statement after statement starved the HTTP server of the same process — no request, not even /health, was
 * answered until the job ended (ADR 0039). One turn per statement lets waiting requests take the pool's connection
 * between a job's transactions and run their own code between its statements; it costs microseconds a statement.
 */
function yieldingEngine(pglite: PGlite): PGlite {
  const engine = {
    get waitReady() {
      return pglite.waitReady;
    },
    async execProtocolStream(message: Uint8Array, options?: Parameters<PGlite['execProtocolStream']>[1]) {
      if (message[0] === QUERY || message[0] === SYNC) await nextTurn();
      return pglite.execProtocolStream(message, options);
    },
  };
  // The adapter uses only these two members (it checks for execProtocolStream to tell an engine from options).
  return engine as unknown as PGlite;
}

/**
 * How long a job may wait for the embedded session while requests keep going first: under a steady stream of
 * requests a job still gets a turn every second.
 */
const BACKGROUND_MAX_WAIT_MS = 1000;

function wrap(
  pool: pg.Pool,
  embedded: boolean,
  pglite: PGlite | null,
  slow: SlowStatementWatch | undefined,
  closeEngine: () => Promise<void>,
): Database {
  // Embedded: one session, handed to waiting requests before waiting jobs (session-gate.ts). A server has a pool
  // of sessions, and its own queue is fair enough.
  const connect = embedded ? gatedConnect(pool, new SessionGate(BACKGROUND_MAX_WAIT_MS)) : () => pool.connect();
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: { connect, end: () => pool.end() } }),
    // Kysely times each statement from the moment it holds the connection, failed ones included.
    ...(slow ? { log: (event) => checkDuration(slow, event.query.sql, event.queryDurationMillis) } : {}),
  });

  /** Embedded: the one session, through the gate. */
  async function gatedQuery(config: pg.QueryConfig): Promise<pg.QueryResult> {
    const client = await connect();
    const started = performance.now();
    try {
      // Named statements keep their row parser between calls (kept-row-parser.ts).
      return await (config.name
        ? queryKeepingParser(client, config as pg.QueryConfig & { name: string })
        : client.query(config));
    } finally {
      client.release();
      checkDuration(slow, config.text, performance.now() - started);
    }
  }

  /**
   * A server: callbacks from the pool to the answer, and ONE promise, the caller's. Every promise costs the
   * request path more than its allocation: the work context (lib/work-context.ts) makes Node run hooks for each.
   * The work is read here, at the call: pg's callbacks run in the context of the socket's events.
   */
  function pooledQuery(config: pg.QueryConfig): Promise<pg.QueryResult> {
    const work = currentWork();
    return new Promise((resolve, reject) => {
      pool.connect((connectError, client, release) => {
        if (connectError) return reject(connectError);
        const started = performance.now();
        const settle = (error: Error | null, result?: pg.QueryResult) => {
          release();
          checkDuration(slow, config.text, performance.now() - started, work);
          if (error) reject(error);
          else resolve(result!);
        };
        // Named statements keep their row parser between calls (kept-row-parser.ts).
        if (config.name) runKeepingParser(client!, config as pg.QueryConfig & { name: string }, settle);
        else client!.query(config, settle);
      });
    });
  }

  let closed = false;
  return {
    db,
    pool,
    embedded,
    pglite,
    query: embedded ? gatedQuery : pooledQuery,
    async listenEmbedded(channel, onPayload) {
      if (!pglite) throw new Error('listenEmbedded needs the embedded database');
      // The pg adapter sends one statement as several protocol messages (parse, bind, execute, sync), each its
      // own call into the engine; PGlite's own LISTEN run between two of them drops the pooled statement
      // ("unnamed prepared statement does not exist"). Holding the pool's only connection keeps them apart.
      const alone = async <T>(run: () => Promise<T>): Promise<T> => {
        const client = await connect();
        try {
          return await run();
        } finally {
          client.release();
        }
      };
      const unlisten = await alone(() => pglite.listen(channel, onPayload));
      return () => alone(unlisten);
    },
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      // Kysely ends the pool only if a Kysely query ever ran; a process that ran only raw statements (pg-boss's,
      // prepared ones) kept its idle connections open until they timed out, and a database it used could not be
      // dropped until then.
      if (!pool.ending) await pool.end();
      await closeEngine();
    },
  };
}
