// Webhook delivery figures (issue 13): events committed at a steady rate into the outbox, one worker process
// delivering to a loopback receiver. Measures first attempts per second and the time from each event's
// commit to its first attempt reaching the receiver (target: ≥ 1,000 deliveries/s, p99 ≤ 1 s), then the same
// with a second webhook whose receiver fails every request: the good half must keep its rate; then with another
// brand's webhook whose receiver accepts the connection and never answers (each of its attempts hangs for the
// 15 s attempt timeout): the good deliveries must keep their latency (issue 34 row 21).
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Deps } from '../src/platform/deps.js';
import { recordEvents, type DomainEvent } from '../src/events/outbox.js';

export interface WebhookFigures {
  name: string;
  /** Deliveries the scenario asked for (events × webhooks). */
  planned: number;
  /** First attempts that reached the good receiver within the window and the drain after it. */
  arrived: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Where the time went, in the database's clock: event → delivery row (fan-out), delivery → first attempt (queue). */
  fanOutP99: number;
  queueP99: number;
}

/**
 * The loopback receiver: `/good` answers 204, `/bad` 500, `/hang` never answers; records when each delivery's
 * first attempt came.
 */
class Receiver {
  readonly firstSeen = new Map<string, number>();
  requests = 0;
  hung = 0;
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      this.requests++;
      if (req.url === '/hang') {
        this.hung++;
      } else if (req.url === '/good') {
        const { payload } = JSON.parse(Buffer.concat(chunks).toString()) as { payload: { seq: string } };
        if (!this.firstSeen.has(payload.seq)) this.firstSeen.set(payload.seq, at);
        res.writeHead(204).end();
      } else {
        res.writeHead(500).end('failing on purpose');
      }
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * Events a second to the receiver that never answers (a brand whose endpoint hangs, as in the issue): each attempt
 * holds a job slot for the 15 s attempt timeout, so 2/s keeps about 30 slots hung per worker process.
 */
export const HANGING_RATE = 2;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/**
 * Commits `rate` Deals events a second for `seconds` (a transaction every 10 ms), each to the brand's webhooks,
 * then waits for the good receiver to have them all (or 30 s). Latency: commit (taken right after COMMIT
 * returns) → the first attempt's arrival, on this machine's one clock.
 */
async function scenario(
  deps: Deps,
  receiver: Receiver,
  name: string,
  paths: string[],
  options: { rate: number; seconds: number; hangingRate?: number },
): Promise<WebhookFigures> {
  const brandWith = async (brandName: string, brandPaths: string[]) => {
    const id = (
      await deps.db.insertInto('brands').values({ name: brandName }).returning('id').executeTakeFirstOrThrow()
    ).id;
    for (const path of brandPaths) {
      await deps.db
        .insertInto('brand_webhooks')
        .values({
          brand: id,
          topic: 'Deals',
          url: receiver.url(path),
          key_sealed: deps.secrets.encrypt(randomBytes(32).toString('hex')),
        })
        .execute();
    }
    return id;
  };
  const brand = await brandWith(`Webhooks bench ${name}`, paths);
  // Another brand whose receiver never answers, sent `hangingRate` events a second beside the measured ones.
  const hangingBrand = options.hangingRate ? await brandWith(`Webhooks bench ${name}, hanging`, ['/hang']) : null;
  let hangingDue = 0;
  const committedAt = new Map<string, number>();
  const perTick = Math.max(1, Math.round(options.rate / 100));
  const ticks = options.seconds * 100;
  const started = performance.now();
  for (let tick = 0; tick < ticks; tick++) {
    const seqs = Array.from({ length: perTick }, (_, i) => `${name}:${tick}:${i}`);
    const events: DomainEvent[] = seqs.map((seq) => ({
      brand,
      topic: 'Deals',
      event: 'Created',
      subject: brand,
      payload: { seq },
    }));
    if (hangingBrand) {
      hangingDue += (options.hangingRate ?? 0) / 100;
      for (; hangingDue >= 1; hangingDue--)
        events.push({ brand: hangingBrand, topic: 'Deals', event: 'Created', subject: hangingBrand, payload: {} });
    }
    await deps.db.transaction().execute((trx) => recordEvents(trx, events));
    const at = performance.timeOrigin + performance.now();
    for (const seq of seqs) committedAt.set(seq, at);
    const due = started + ((tick + 1) * 1000) / 100;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const writeSeconds = (performance.now() - started) / 1000;
  const deadline = performance.now() + 30_000;
  const arrivedOf = () => [...committedAt.keys()].filter((seq) => receiver.firstSeen.has(seq)).length;
  while (arrivedOf() < committedAt.size && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const latencies = [...committedAt]
    .flatMap(([seq, at]) => (receiver.firstSeen.has(seq) ? [receiver.firstSeen.get(seq)! - at] : []))
    .sort((a, b) => a - b);
  const arrivals = [...committedAt.keys()]
    .flatMap((seq) => (receiver.firstSeen.has(seq) ? [receiver.firstSeen.get(seq)!] : []))
    .sort((a, b) => a - b);
  const split = await sql<{ fan_out: number; queue: number }>`
    select percentile_disc(0.99) within group (order by extract(epoch from d.created_at - e.created_at) * 1000) as fan_out,
           percentile_disc(0.99) within group (order by extract(epoch from a.at - d.created_at) * 1000) as queue
    from webhook_deliveries d
    join brand_webhooks w on w.id = d.webhook
    join domain_events e on e.id = d.event_id
    join webhook_attempts a on a.delivery = d.id and a.attempt = 1
    where w.brand = ${brand}`.execute(deps.db);
  const span = arrivals.length > 1 ? (arrivals[arrivals.length - 1]! - arrivals[0]!) / 1000 : writeSeconds;
  const hanging = options.hangingRate
    ? `, and ${options.hangingRate} events/s to another brand's receiver that never answers`
    : '';
  return {
    name: `${name}: ${options.rate} events/s for ${options.seconds} s (written in ${writeSeconds.toFixed(1)} s), ${paths.length} webhook(s)${hanging}`,
    planned: committedAt.size * paths.length,
    arrived: latencies.length,
    perSecond: latencies.length / Math.max(span, writeSeconds),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? NaN,
    fanOutP99: Number(split.rows[0]?.fan_out ?? NaN),
    queueP99: Number(split.rows[0]?.queue ?? NaN),
  };
}

export async function benchWebhooks(
  deps: Deps,
  options: { rate: number; seconds: number; hangingRate?: number },
): Promise<{ figures: WebhookFigures[]; notes: string[] }> {
  const receiver = new Receiver();
  await receiver.start();
  try {
    // The hanging receiver joins the third scenario only: the first two are measured without it.
    const { hangingRate = HANGING_RATE, ...rest } = options;
    const figures: WebhookFigures[] = [];
    figures.push(await scenario(deps, receiver, 'all good', ['/good'], rest));
    // The same number of deliveries, half of them to a receiver failing every request (each retried 5 s
    // later, adding load): the good half must keep its rate (half the first figure) and its latency.
    const failing = await scenario(deps, receiver, 'half failing', ['/good', '/bad'], {
      ...rest,
      rate: rest.rate / 2,
    });
    figures.push(failing);
    // The good deliveries at the full rate, while another brand's receiver hangs on every attempt it gets: the
    // hung attempts hold only their own job slots (src/jobs/slots.ts), so p99 must stay near the first figure's.
    figures.push(await scenario(deps, receiver, 'one hanging', ['/good'], { ...rest, hangingRate }));
    return {
      figures,
      notes: [
        `webhooks: the receiver answered ${receiver.requests - receiver.hung} requests in all, and left ${receiver.hung} hanging`,
      ],
    };
  } finally {
    await receiver.stop();
  }
}

export function printWebhookTable(figures: WebhookFigures[]): void {
  console.log(
    '\n| webhooks scenario | deliveries planned | good first attempts | good/s | p50 ms | p95 ms | p99 ms | max ms | p99 event→delivery row ms | p99 row→first attempt ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const f of figures) {
    console.log(
      `| ${f.name} | ${f.planned} | ${f.arrived} | ${f.perSecond.toFixed(0)} | ${f.p50.toFixed(0)} | ${f.p95.toFixed(0)} | ${f.p99.toFixed(0)} | ${f.max.toFixed(0)} | ${f.fanOutP99.toFixed(0)} | ${f.queueP99.toFixed(0)} |`,
    );
  }
  console.log();
}
