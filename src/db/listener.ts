// LISTEN for a channel's NOTIFYs, for the life of a process: in the engine on the embedded database, on a connection
// of its own (outside the pool) on a server. A server's connection that is lost is opened again, with a growing
// pause, and `onReconnected` then lets the caller look for what it missed while nobody listened.
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './database.js';

const RECONNECT_MIN_MS = 1000;
const RECONNECT_MAX_MS = 30_000;

export interface ListenOptions {
  database: Database;
  /** The server's address; null on the embedded database. */
  databaseUrl: string | null;
  log: FastifyBaseLogger;
  channel: string;
  onPayload(payload: string): void;
  /** Called when a connection listens after a time without one (a lost connection, a failed first connect). */
  onReconnected?(): void;
}

/** Starts listening and answers the function that stops it. Never fails: a server it cannot reach is retried. */
export async function listen(options: ListenOptions): Promise<() => Promise<void>> {
  const { database, databaseUrl, log, channel, onPayload } = options;
  if (database.embedded) return database.listenEmbedded(channel, onPayload);
  if (!databaseUrl) return async () => undefined;

  let stopped = false;
  // Read through a function after an await: the stop function may have set it meanwhile.
  const isStopped = () => stopped;
  let client: pg.Client | null = null;
  let pauseMs = RECONNECT_MIN_MS;
  let retry: NodeJS.Timeout | null = null;

  const connect = async (again: boolean): Promise<void> => {
    retry = null;
    if (isStopped()) return;
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      if (message.channel === channel) onPayload(message.payload ?? '');
    });
    next.on('error', (error) => {
      if (isStopped() || client !== next) return;
      log.warn({ err: error, channel }, 'lost the connection that listens for notifications; connecting again');
      client = null;
      void next.end().catch(() => undefined);
      schedule(true);
    });
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      void next.end().catch(() => undefined);
      if (isStopped()) return;
      log.warn({ err: error, channel }, 'could not listen for notifications; trying again');
      // Whatever was notified meanwhile was missed: once listening, the caller looks for it (onReconnected).
      schedule(true);
      return;
    }
    if (isStopped()) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    pauseMs = RECONNECT_MIN_MS;
    if (again) options.onReconnected?.();
  };

  const schedule = (again: boolean) => {
    retry = setTimeout(() => void connect(again), pauseMs);
    retry.unref();
    pauseMs = Math.min(pauseMs * 2, RECONNECT_MAX_MS);
  };

  await connect(false);
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const open = client;
    client = null;
    await open?.end().catch(() => undefined);
  };
}
