// The live stream (GET /notifications/stream, docs/notifications.md): each new notification of the user and
// the new unseen count, as Server-Sent Events, across processes. notify() and the seen/delete changes call
// pg_notify in their transaction; PostgreSQL delivers it on commit to every process LISTENing, including this
// one — through a dedicated pg.Client on a PostgreSQL server (a pooled connection cannot hold a LISTEN), through
// PGlite's own listen() in embedded mode. One listener per process, however many streams are open.
import { PassThrough } from 'node:stream';
import pg from 'pg';
import type { Deps } from '../../platform/deps.js';
import { presentFeed } from './notifications.presenter.js';
import * as repo from './notifications.repository.js';

/** Events replayed at most after a Last-Event-ID (older ones are in GET /notifications). */
const MAX_REPLAY = 200;
const RECONNECT_MS = 1000;

class Subscriber {
  readonly stream = new PassThrough();
  private chain: Promise<void> = Promise.resolve();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly deps: Deps,
    readonly user: string,
    /** The newest feed position sent (the SSE id); null until one is. */
    private lastSeq: number | null,
    heartbeatMs: number,
  ) {
    this.heartbeat = setInterval(() => this.write(`: heartbeat\n\n`), heartbeatMs);
    this.heartbeat.unref();
  }

  /** Runs stream work in order: a replay finishes before live events are written. */
  run(task: () => Promise<void>): void {
    this.chain = this.chain.then(task).catch((error: unknown) => {
      this.deps.log.error({ err: error }, 'notification stream event failed');
    });
  }

  write(text: string): void {
    if (!this.stream.writableEnded && !this.stream.destroyed) this.stream.write(text);
  }

  /** New notifications after the last one sent (a replay, or a catch-up after the listener reconnected), then the count. */
  async catchUp(): Promise<void> {
    // A stream opened without Last-Event-ID starts at the present: a catch-up after a reconnect starts there.
    if (this.lastSeq === null) this.lastSeq = await repo.latestSeq(this.deps.db, this.user);
    else {
      const rows = await repo.feedAfter(this.deps.db, this.user, this.lastSeq, MAX_REPLAY);
      await this.sendRows(rows);
    }
    await this.sendCount();
  }

  async onMessage(message: repo.StreamMessage): Promise<void> {
    if (message.n !== undefined && message.s !== undefined && (this.lastSeq === null || message.s > this.lastSeq)) {
      const row = await repo.findFeedRow(this.deps.db, this.user, message.n);
      if (row) await this.sendRows([row]);
    }
    await this.sendCount();
  }

  private async sendRows(rows: repo.FeedRow[]): Promise<void> {
    const records = await presentFeed(this.deps.db, rows, this.deps.clock.now());
    records.forEach((record, i) => {
      const seq = rows[i]!.seq;
      this.write(`id: ${seq}\nevent: notification\ndata: ${JSON.stringify(record)}\n\n`);
      this.lastSeq = Math.max(this.lastSeq ?? 0, seq);
    });
  }

  private async sendCount(): Promise<void> {
    const unseen = await repo.unseenCount(this.deps.db, this.user);
    this.write(`event: unseen\ndata: ${JSON.stringify({ new: unseen })}\n\n`);
  }

  end(): void {
    clearInterval(this.heartbeat);
    if (!this.stream.writableEnded) this.stream.end();
  }
}

export class NotificationStreamHub {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private listening: Promise<void> | null = null;
  private stopListening: (() => Promise<void>) | null = null;
  private closed = false;

  constructor(private readonly deps: Deps) {}

  /** Opens a stream for the user, replaying what came after `after` (a Last-Event-ID), then live events. */
  async open(user: string, after: number | null): Promise<PassThrough> {
    const subscriber = new Subscriber(this.deps, user, after, this.deps.config.streamHeartbeatSeconds * 1000);
    // The first bytes send the response head: the client knows it is connected before any event.
    subscriber.write(`retry: 3000\n: connected\n\n`);
    await this.listen(); // before reading the replay: nothing committed after it can be missed
    subscriber.run(() => subscriber.catchUp());
    const set = this.subscribers.get(user) ?? new Set<Subscriber>();
    set.add(subscriber);
    this.subscribers.set(user, set);
    subscriber.stream.on('close', () => {
      subscriber.end();
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(user) === set) this.subscribers.delete(user);
    });
    if (this.closed) subscriber.end();
    return subscriber.stream;
  }

  private dispatch(payload: string): void {
    let message: repo.StreamMessage;
    try {
      message = JSON.parse(payload) as repo.StreamMessage;
    } catch {
      return;
    }
    for (const subscriber of this.subscribers.get(message.u) ?? []) subscriber.run(() => subscriber.onMessage(message));
  }

  private listen(): Promise<void> {
    this.listening ??= this.startListening().catch((error: unknown) => {
      this.listening = null; // the next stream tries again
      throw error;
    });
    return this.listening;
  }

  private async startListening(): Promise<void> {
    if (this.deps.database.embedded) {
      const unlisten = await this.deps.database.listenEmbedded(repo.STREAM_CHANNEL, (payload) =>
        this.dispatch(payload),
      );
      this.stopListening = unlisten;
      return;
    }
    await this.connectClient();
  }

  private async connectClient(): Promise<void> {
    const client = new pg.Client({ connectionString: this.deps.config.databaseUrl ?? undefined });
    client.on('notification', (message) => {
      if (message.channel === repo.STREAM_CHANNEL && message.payload) this.dispatch(message.payload);
    });
    client.on('error', (error) => {
      this.deps.log.warn({ err: error }, 'notification stream listener lost its connection; reconnecting');
      this.stopListening = null;
      void client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.reconnect(), RECONNECT_MS).unref();
    });
    await client.connect();
    await client.query(`listen ${repo.STREAM_CHANNEL}`);
    this.stopListening = () => client.end();
  }

  /** After a lost connection: listen again, then every open stream catches up on what it missed. */
  private async reconnect(): Promise<void> {
    if (this.closed) return;
    try {
      await this.connectClient();
    } catch (error) {
      this.deps.log.warn({ err: error }, 'notification stream listener could not reconnect; retrying');
      setTimeout(() => void this.reconnect(), RECONNECT_MS).unref();
      return;
    }
    for (const set of this.subscribers.values())
      for (const subscriber of set) subscriber.run(() => subscriber.catchUp());
  }

  /** Ends every open stream (before the server stops accepting, so its close does not wait for them). */
  endStreams(): void {
    this.closed = true;
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber.end();
  }

  async close(): Promise<void> {
    this.endStreams();
    await this.listening?.catch(() => undefined);
    await this.stopListening?.();
    this.stopListening = null;
  }
}
