// Notification figures (issue 11): GET /notifications for a user with 10,000 notifications (vs the baseline);
// push fan-out of 10,000 notifications to Web Push devices on the loopback push service (pushes/s, target
// ≥ 1,000/s); notification → live stream event latency (p99, target ≤ 200 ms).
// The fan-out runs in a worker process of its own (`gable serve` with WORKERS_IN_PROCESS=true, as production
// runs workers apart from the API), started once every push is enqueued, against test/fakes/webpush.ts in this
// process, which decrypts and checks every push: the figure includes our encryption, the queue and the
// database, and shares the two cores with the service's decryption.
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { closeDeps, createDeps, startJobs } from '../src/deps.js';
import type { Deps } from '../src/platform/deps.js';
import { notify } from '../src/modules/notifications/notify.js';
import { addDevice, vapidKeys } from '../test/helpers/push.js';
import { openEventStream } from '../test/helpers/notifications.js';
import { startFakeWebPush } from '../test/fakes/webpush.js';
import type { FoundationFixture } from './foundation.bench.js';
import { cannon, type LoadResult } from './lib/load.js';
import { startProcess } from './lib/processes.js';

export interface NotificationsBenchOptions {
  /** Notifications in the feed, and pushes fanned out (10,000 in the issue). */
  notifications: number;
  /** Seconds of load on GET /notifications. */
  duration: number;
  /** Notification → stream event samples. */
  streamSamples: number;
  /** Environment of the bench database (DATABASE_URL, SECRET_KEY). */
  env: Record<string, string>;
  /** Port of the worker process of the fan-out (it serves /health only to say it is up). */
  workerPort: number;
}

export async function benchNotifications(
  deps: Deps,
  url: string,
  fixture: FoundationFixture,
  options: NotificationsBenchOptions,
): Promise<{ results: LoadResult[]; notes: string[] }> {
  const results: LoadResult[] = [];
  const notes: string[] = [];

  // 1. The feed: N notifications for the fixture user, written in bulk, a third of them seen.
  const started = performance.now();
  await sql`
    with created as (
      insert into notifications (action, notification_type, message, created_at, updated_at, transports)
      select 'Tested', 'BenchTested', 'Bench notification ' || n, now() - (n || ' seconds')::interval, now(), '{}'
      from generate_series(1, ${options.notifications}) as n
      returning id, created_at
    )
    insert into notification_recipients (notification, "user", created_at, seen_at)
    select id, ${fixture.userId}::uuid, created_at, case when random() < 0.33 then now() end from created order by created_at`.execute(
    deps.db,
  );
  await sql`analyze notifications; analyze notification_recipients`.execute(deps.db);
  notes.push(
    `notifications: ${options.notifications} in the bench user's feed, written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const headers = { authorization: `Bearer ${fixture.accessToken}` };
  const probe = await fetch(`${url}/notifications`, { headers });
  if (!probe.ok) throw new Error(`GET /notifications answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`);
  const info = ((await probe.json()) as { info: { total: number; new: number } }).info;
  notes.push(`notifications: GET /notifications (20 per page) total ${info.total}, new ${info.new}`);
  results.push(
    await cannon({
      name: `GET /notifications (${options.notifications} in the feed)`,
      url: `${url}/notifications`,
      headers,
      duration: options.duration,
    }),
  );

  // 2. The stream: notify() commits here, the server's stream (over LISTEN/NOTIFY) delivers the event.
  results.push(await benchStreamLatency(deps, url, fixture, options.streamSamples));

  // 3. Push fan-out on real workers to the loopback Web Push service.
  const fanOut = await benchFanOut(options);
  results.push(fanOut.result);
  notes.push(...fanOut.notes);
  return { results, notes };
}

async function benchStreamLatency(
  deps: Deps,
  url: string,
  fixture: FoundationFixture,
  samples: number,
): Promise<LoadResult> {
  const stream = await openEventStream(`${url}/notifications/stream`, {
    authorization: `Bearer ${fixture.accessToken}`,
  });
  if (!stream.response.ok) throw new Error(`GET /notifications/stream answered ${stream.response.status}`);
  await stream.next((e) => e.event === 'unseen');
  const latencies: number[] = [];
  const notifyDeps = await benchQueueDeps(deps.config);
  try {
    for (let i = 0; i < samples; i++) {
      const message = `stream sample ${i}`;
      const t0 = performance.now();
      await notifyDeps.db
        .transaction()
        .execute((trx) =>
          notify(trx, notifyDeps, { recipients: [fixture.userId], action: 'Tested', message, transports: [] }),
        );
      await stream.next((e) => e.event === 'notification' && e.data.includes(message));
      latencies.push(performance.now() - t0);
    }
  } finally {
    await stream.close();
    await closeDeps(notifyDeps);
  }
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  const total = latencies.reduce((a, b) => a + b, 0) / 1000;
  return {
    name: `notify() commit → stream event (${samples} one after another)`,
    requests: samples,
    errors: 0,
    rps: samples / total,
    p50: at(50),
    p95: at(95),
    p99: at(99),
  };
}

/** Deps on the bench database that can enqueue (the queue started, no workers). */
async function benchQueueDeps(config: Deps['config']): Promise<Deps> {
  const deps = await createDeps(config, { workers: false });
  await startJobs(deps);
  return deps;
}

async function benchFanOut(options: NotificationsBenchOptions): Promise<{ result: LoadResult; notes: string[] }> {
  const vapid = vapidKeys();
  const fake = await startFakeWebPush(vapid.publicKey);
  const pushEnv = {
    ...options.env,
    LOG_LEVEL: 'warn',
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  };
  const enqueuer = await benchQueueDeps(loadConfig(pushEnv));
  let worker: Awaited<ReturnType<typeof startProcess>> | undefined;
  try {
    // 100 users with one browser each; N notifications spread over them, one push each.
    const users: string[] = [];
    for (let u = 0; u < 100; u++) {
      const row = await enqueuer.db
        .insertInto('users')
        .values({
          email: `push-bench-${Date.now()}-${u}@example.com`,
          first_name: 'Push',
          last_name: `Bench ${u}`,
          timezone: 'UTC',
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      users.push(row.id);
      await addDevice(enqueuer, row.id, 'webpush', fake.subscribe().json);
    }
    const enqueueStarted = performance.now();
    for (let i = 0; i < options.notifications; i += 100) {
      await enqueuer.db.transaction().execute(async (trx) => {
        for (let j = i; j < Math.min(i + 100, options.notifications); j++) {
          await notify(trx, enqueuer, {
            recipients: [users[j % users.length]!],
            action: 'Tested',
            message: `Push ${j}`,
            title: 'Bench',
          });
        }
      });
    }
    const enqueueSeconds = (performance.now() - enqueueStarted) / 1000;
    // Every push is waiting when the worker process starts; the clock starts at the first push it delivers, so
    // the process's own start (loading the code, ~2 s) is not counted.
    const starting = startProcess(
      ['bin/gable.js', 'serve'],
      { ...pushEnv, WORKERS_IN_PROCESS: 'true' },
      options.workerPort,
    );
    starting.catch(() => undefined);
    const deadline = Date.now() + Math.max(120_000, options.notifications * 20);
    while (fake.accepted.length === 0) {
      if (Date.now() > deadline) throw new Error('the worker process delivered no push');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const started = performance.now();
    worker = await starting;
    for (;;) {
      const row = await sql<{
        open: string;
      }>`select count(*) filter (where status = 'pending') as open from push_deliveries where "user" = any(${users}::uuid[])`.execute(
        enqueuer.db,
      );
      if (Number(row.rows[0]!.open) === 0) break;
      if (Date.now() > deadline)
        throw new Error(`pushes still pending after ${((performance.now() - started) / 1000).toFixed(0)} s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    // This run's pushes only: a kept bench database (--keep) holds the earlier runs' too.
    const counts = await sql<{
      status: string;
      n: string;
    }>`select status, count(*) as n from push_deliveries where "user" = any(${users}::uuid[]) group by status`.execute(
      enqueuer.db,
    );
    const sent = Number(counts.rows.find((r) => r.status === 'sent')?.n ?? 0);
    const notes = [
      `push fan-out: ${options.notifications} notifications → ${sent} Web Push pushes accepted by the loopback service (${fake.accepted.length} decrypted, ${fake.problems.length} refused) in ${seconds.toFixed(1)} s from the first = ${Math.round(sent / seconds)} pushes/s (1 worker process: 8 workers × batches of 50); notify() + enqueue: ${Math.round(options.notifications / enqueueSeconds)} notifications/s`,
    ];
    return {
      result: {
        name: `push fan-out, Web Push (${options.notifications} notifications)`,
        requests: sent,
        errors: options.notifications - sent,
        rps: sent / seconds,
        p50: undefined as unknown as number,
        p99: undefined as unknown as number,
      },
      notes,
    };
  } finally {
    await worker?.stop();
    await closeDeps(enqueuer);
    await fake.close();
  }
}
