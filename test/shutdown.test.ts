// Graceful shutdown with real signals (issue 31 item 6): a real `gable serve` stops accepting on SIGTERM, answers
// the request in flight and the ones that follow on its connection (`/ready` says 503 to the balancer meanwhile),
// then exits 0 — after SHUTDOWN_DELAY_SECONDS of still accepting when that is set; a second SIGTERM exits at once; a request still running at SHUTDOWN_TIMEOUT_SECONDS is cut. A real
// worker (`gable worker` on PostgreSQL, `gable serve` embedded) stopped mid-delivery hands its job back, ready at
// once and with its retries untouched, and the next worker delivers it.
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, until, useCrashHarness } from './helpers/crash.js';
import { createBrand } from './helpers/factories.js';
import { freePort } from './helpers/ports.js';
import { Receiver } from './helpers/webhooks.js';
import { firstStartSteps } from '../src/bootstrap.js';
import { completeStep } from '../src/db/first-start.repository.js';
import { recordEvents } from '../src/events/outbox.js';
import { deliverTask } from '../src/modules/webhooks/webhooks.tasks.js';

const receiver = new Receiver();
const harness = useCrashHarness({ env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32' } });

beforeAll(async () => {
  await receiver.start();
  // The server's first start would load demo data: recorded as done, it starts at once.
  await harness.withDatabase(async (deps) => {
    for (const step of firstStartSteps) await completeStep(deps.db, step.name, new Date());
  });
});
afterAll(() => receiver.stop());

/** A raw HTTP/1.1 connection: what the server wrote, and whether it closed. */
class Connection {
  text = '';
  closed = false;
  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (this.text += chunk));
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined); // a reset shows as `closed`
  }

  static open(port: number): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  /** Status lines of the responses received so far. */
  get statuses(): number[] {
    return [...this.text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
  }
}

const TOKEN_BODY = 'grant_type=password&username=nobody%40example.com&password=wrong';
/** A token request whose body has not all arrived: in flight until `rest` is written. */
const heldTokenRequest = {
  head:
    'POST /oauth2/token HTTP/1.1\r\nHost: gable.test\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
    `Content-Length: ${TOKEN_BODY.length}\r\n\r\n${TOKEN_BODY.slice(0, 10)}`,
  rest: TOKEN_BODY.slice(10),
};

/** Resolves once a new connection to the port is refused: the server has stopped accepting. */
async function refusesConnections(port: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const refused = await Connection.open(port).then(
      (c) => (c.socket.destroy(), false),
      (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
    );
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the server kept accepting connections');
}

async function startedServer(env: Record<string, string>) {
  const port = await freePort();
  const server = harness.startServer(port, env);
  await expect
    .poll(
      () =>
        fetch(`http://127.0.0.1:${port}/ready`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 60_000 },
    )
    .toBe(200);
  return { port, server };
}

describe('gable serve on SIGTERM', () => {
  it('stops accepting, answers what is in flight and what follows on its connection, and exits 0', async () => {
    const { port, server } = await startedServer({ SHUTDOWN_TIMEOUT_SECONDS: '30' });
    const held = await Connection.open(port);
    held.socket.write(heldTokenRequest.head);
    // Give the server the head, so the request is in flight when the signal comes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.kill('SIGTERM');
    await refusesConnections(port);
    expect(server.exitCode).toBeNull(); // still draining: the token request has not finished
    // The rest of the body, and a readiness check pipelined behind it on the same connection.
    held.socket.write(`${heldTokenRequest.rest}GET /ready HTTP/1.1\r\nHost: gable.test\r\n\r\n`);
    await exited(server);
    await until(() => held.closed, 10, 'the connection to close');
    expect(server.exitCode).toBe(0);
    // The token request names no client: the token endpoint's own answer, not a bare 503 of a closing server.
    expect(held.statuses).toEqual([401, 503]);
    expect(held.text).toContain('"error":"invalid_client"');
    expect(held.text).toContain('"shutting_down":true');
  });

  it('with SHUTDOWN_DELAY_SECONDS goes on accepting, unready, each answer closing its connection', async () => {
    const { port, server } = await startedServer({ SHUTDOWN_DELAY_SECONDS: '3', SHUTDOWN_TIMEOUT_SECONDS: '30' });
    const kept = await Connection.open(port);
    kept.socket.write('GET /health HTTP/1.1\r\nHost: gable.test\r\n\r\n');
    await until(() => kept.statuses.length === 1, 10, 'the first answer');
    expect(kept.text).toMatch(/connection: keep-alive/i);
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A connection opened after the signal is still accepted, and answered.
    const late = await Connection.open(port);
    late.socket.write('GET /health HTTP/1.1\r\nHost: gable.test\r\n\r\n');
    kept.socket.write('GET /ready HTTP/1.1\r\nHost: gable.test\r\n\r\n');
    await until(() => late.closed && kept.closed, 10, 'both answers to close their connections');
    expect(late.statuses).toEqual([200]);
    expect(late.text).toMatch(/connection: close/i);
    expect(kept.statuses).toEqual([200, 503]);
    expect(kept.text).toContain('"shutting_down":true');
    expect(server.exitCode).toBeNull(); // the delay has not run out yet
    await exited(server);
    expect(server.exitCode).toBe(0);
  });

  it('exits at once on a second SIGTERM, with the request still in flight', async () => {
    const { port, server } = await startedServer({ SHUTDOWN_TIMEOUT_SECONDS: '120' });
    const held = await Connection.open(port);
    held.socket.write(heldTokenRequest.head);
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.kill('SIGTERM');
    await refusesConnections(port);
    server.kill('SIGTERM');
    await exited(server);
    expect(server.exitCode).toBe(1);
    await until(() => held.closed, 10, 'the connection to close');
    expect(held.statuses).toEqual([]);
  });

  it('cuts a request still running at SHUTDOWN_TIMEOUT_SECONDS and exits 0', async () => {
    const { port, server } = await startedServer({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const held = await Connection.open(port);
    held.socket.write(heldTokenRequest.head);
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.kill('SIGTERM');
    await exited(server);
    expect(server.exitCode).toBe(0);
    await until(() => held.closed, 10, 'the connection to close');
    expect(held.statuses).toEqual([]);
  });
});

describe('a worker on SIGTERM with a delivery in flight', () => {
  it('hands the job back ready at once, retries untouched, and the next worker delivers it', async () => {
    const brand = await harness.withDatabase(async (deps) => {
      const created = (await createBrand(deps)).id;
      await deps.db
        .insertInto('brand_webhooks')
        .values({
          brand: created,
          topic: 'Deals',
          url: receiver.url('/shutdown'),
          key_sealed: deps.secrets.encrypt(randomBytes(32).toString('hex')),
        })
        .execute();
      await deps.db
        .transaction()
        .execute((trx) =>
          recordEvents(trx, [{ brand: created, topic: 'Deals', event: 'Created', subject: created, payload: {} }]),
        );
      return created;
    });
    expect(brand).toBeTruthy();

    // The receiver takes the request and does not answer: the delivery is running when the signal comes.
    receiver.respond = () => undefined;
    const worker = harness.startWorker({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
    await until(() => receiver.received.length === 1 || worker.exitCode !== null, 60, 'the delivery to start');
    worker.kill('SIGTERM');
    await exited(worker);
    expect(worker.exitCode).toBe(0);

    const job = await harness.withDatabase(
      async (deps) =>
        (
          await sql<{ state: string; retry_count: number; ready: boolean }>`
          select state, retry_count, start_after <= now() as ready from pgboss.job where name = ${deliverTask.name}`.execute(
            deps.db,
          )
        ).rows,
    );
    // Failed, it would wait out its retry delay (start_after ahead) and have spent a retry when fetched again.
    expect(job).toEqual([{ state: 'retry', retry_count: 0, ready: true }]);

    receiver.respond = (_req, res) => res.writeHead(204).end();
    const next = harness.startWorker();
    try {
      await until(() => receiver.received.length === 2, 60, 'the delivery to arrive');
    } finally {
      next.kill('SIGTERM');
      await exited(next);
    }
    const [first, second] = receiver.received;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
  }, 180_000);
});
