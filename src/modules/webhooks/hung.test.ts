// Issue 34 row 21: a receiver that accepts the connection and never answers costs only its own deliveries. Brand
// A's receiver hangs while A sends more events than the deliver task has slots; brand B's delivery, committed
// after them, must reach its receiver while every one of A's attempts is still hanging (each waits out the 15 s
// attempt timeout). A's attempts hold at most its share of the slots (receiver-share.ts): the rest are deferred,
// not parked in slots. The assertion is an order of events, not a time limit: B's arrival before the first hung
// attempt gives up.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { slotsOf } from '../../jobs/task.js';
import { brandUser, Receiver } from '../../../test/helpers/webhooks.js';
import { ATTEMPT_TIMEOUT_MS } from './deliveries.service.js';
import { receiverShare } from './receiver-share.js';
import { deliverTask } from './webhooks.tasks.js';

/** A loopback TCP server that accepts every connection, reads what comes, and never answers. */
class HungReceiver {
  readonly sockets = new Set<Socket>();
  connections = 0;
  /** Set when a hung connection is closed by the client: an attempt gave up. */
  firstClosedAt: number | null = null;
  private readonly closeWaiters: (() => void)[] = [];
  private readonly server = createServer((socket) => {
    this.connections++;
    this.sockets.add(socket);
    socket.resume();
    socket.on('close', () => {
      this.sockets.delete(socket);
      if (this.firstClosedAt === null && !this.stopping) {
        this.firstClosedAt = performance.now();
        for (const wake of this.closeWaiters.splice(0)) wake();
      }
    });
  });
  private stopping = false;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hang`;
  }

  /** Resolves when the first hung attempt gives up (its connection closes). */
  firstClose(): Promise<void> {
    return this.firstClosedAt !== null ? Promise.resolve() : new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('a hung webhook receiver', () => {
  const t = useTestApp({ workers: true, env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });
  const hung = new HungReceiver();
  const receiver = new Receiver();
  beforeAll(async () => {
    await hung.start();
    await receiver.start();
  });
  afterAll(async () => {
    await hung.stop();
    await receiver.stop();
  });

  const subscribe = async (admin: Awaited<ReturnType<typeof brandUser>>, url: string) => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/brands/${admin.brand}/webhooks`,
      headers: admin.headers,
      payload: { topic: 'Contacts', url },
    });
    expect(created.statusCode, created.body).toBe(200);
  };
  /** One contact per request, so one event and one delivery each; `parallel` requests at a time. */
  const createContacts = async (admin: Awaited<ReturnType<typeof brandUser>>, names: string[], parallel = 20) => {
    for (let i = 0; i < names.length; i += parallel) {
      const answers = await Promise.all(
        names.slice(i, i + parallel).map((name) =>
          t.app.inject({
            method: 'POST',
            url: '/contacts',
            headers: { ...admin.headers, 'x-rechat-brand': admin.brand },
            payload: { first_name: name },
          }),
        ),
      );
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    }
  };
  /** Attempts queued again for later without having been made: deferred (no attempt has failed yet). */
  const deferred = async () =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from pgboss.job
          where name = ${deliverTask.name} and state = 'created' and start_after > now()`.execute(t.deps.db)
      ).rows[0]!.n,
    );

  it(
    'delays no other brand’s delivery: B’s arrives while every attempt to A’s receiver still hangs',
    { timeout: ATTEMPT_TIMEOUT_MS + 30_000 },
    async () => {
      const slots = slotsOf(deliverTask, t.deps.config.embedded);
      const share = receiverShare(t.deps.config.embedded);
      expect(share).toBeLessThan(slots);
      const a = await brandUser(t.deps, { acl: ['Admin', 'CRM'] });
      const b = await brandUser(t.deps, { acl: ['Admin', 'CRM'] });
      await subscribe(a, hung.url());
      await subscribe(b, receiver.url('/b'));

      // More events for A than there are slots: without a share, every slot would wait on A's receiver.
      const events = slots + 2;
      const firstHungAt = performance.now();
      await createContacts(
        a,
        Array.from({ length: events }, (_, i) => `Hung ${i + 1}`),
      );
      // Well before the first hung attempt gives up: its share hangs side by side, the rest wait outside the slots.
      await expect
        .poll(async () => [hung.connections, await deferred()], { timeout: ATTEMPT_TIMEOUT_MS / 2, interval: 20 })
        .toEqual([share, events - share]);
      const hungTook = performance.now() - firstHungAt;

      const committed = performance.now();
      await createContacts(b, ['Prompt']);
      let check: NodeJS.Timeout | undefined;
      const arrived = new Promise<string>((resolve) => {
        check = setInterval(() => {
          if (receiver.received.some((r) => r.url === '/b')) resolve('arrived');
        }, 10);
      });
      const winner = await Promise.race([arrived, hung.firstClose().then(() => 'a hung attempt gave up first')]);
      clearInterval(check);
      const latency = performance.now() - committed;
      expect(
        winner,
        `B arrived ${latency.toFixed(0)} ms after its commit; A's ${share} attempts began within ${hungTook.toFixed(0)} ms`,
      ).toBe('arrived');
      expect(hung.sockets.size).toBe(share);
      // Nothing of A's is recorded yet: its attempts are all still waiting on the receiver.
      const attemptsOfA = await t.deps.db
        .selectFrom('webhook_attempts as at')
        .innerJoin('webhook_deliveries as d', 'd.id', 'at.delivery')
        .innerJoin('brand_webhooks as w', 'w.id', 'd.webhook')
        .where('w.brand', '=', a.brand)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(attemptsOfA.n)).toBe(0);
    },
  );
});
