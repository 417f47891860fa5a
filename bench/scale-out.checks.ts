// What the scale-out bench (bench/scale-out.bench.ts) counts once its load is over: work still unfinished (the
// drain), deliveries lost or repeated, and whether the rate-limit windows and the locks hold across processes.
import { sql } from 'kysely';
import http from 'node:http';
import type { Deps } from '../src/platform/deps.js';
import { QUEUE_SCHEMA } from '../src/jobs/queue.js';
import { SEND_LEASE_SECONDS } from '../src/mail/mail.service.js';
import { exchange } from './lib/load.js';
import type { SmtpSink } from './lib/smtp-sink.js';
import type { WebhookReceiver } from './lib/webhook-receiver.js';

/** What the load wrote: its brands (webhooks, contacts, campaigns), its saved search, and since when. */
export interface Scope {
  brands: string[];
  search: string;
  since: Date;
}

/** The queues the load's work goes through. */
export const LOAD_TASKS = [
  'webhooks.deliver',
  'saved-searches.match',
  'saved-searches.deliver',
  'emails.execute',
  'mail.send',
];

const count = async (deps: Deps, query: ReturnType<typeof sql<{ n: string }>>) =>
  Number((await query.execute(deps.db)).rows[0]!.n);

/** Work the load caused that is not done yet, by step; all zero once drained. */
export async function unfinishedWork(deps: Deps, scope: Scope): Promise<Record<string, number>> {
  const { brands, search, since } = scope;
  return {
    'events not fanned out': await count(
      deps,
      // Events after the fan-out's position (a delivery carries up to 50 Contacts events: counted by position).
      sql`select count(*) as n from domain_events e, webhook_outbox_position p
          where e.brand = any(${brands}::uuid[]) and (p.tx is null or (e.tx, e.id) > (p.tx, p.event_id))`,
    ),
    'webhook deliveries not delivered': await count(
      deps,
      sql`select count(*) as n from webhook_deliveries d join brand_webhooks w on w.id = d.webhook
          where w.brand = any(${brands}::uuid[]) and d.status <> 'delivered'`,
    ),
    'listing events not matched': await count(
      deps,
      sql`select count(*) as n from listing_events where created_at >= ${since} and matched_at is null`,
    ),
    'matches not delivered': await count(
      deps,
      sql`select count(*) as n from saved_search_matches where saved_search = ${search} and delivered_at is null`,
    ),
    'campaigns not executed': await count(
      deps,
      sql`select count(*) as n from email_campaigns where brand = any(${brands}::uuid[]) and executed_at is null`,
    ),
    'emails not sent': await count(
      deps,
      sql`select count(*) as n from mail_messages where created_at >= ${since} and state <> 'sent'`,
    ),
    'jobs waiting or running': await count(
      deps,
      sql`select count(*) as n from ${sql.id(QUEUE_SCHEMA, 'job')}
          where name = any(${LOAD_TASKS}::text[]) and state in ('created', 'retry', 'active')`,
    ),
  };
}

export interface DeliveryCounts {
  webhookDeliveries: number;
  webhooksLost: number;
  /** Arrivals beyond the first of a webhook-id (a retry of a job whose worker died: same id). */
  webhookRepeats: number;
  /** Contacts events no delivery that arrived announces: must be 0. */
  contactEventsLost: number;
  /** A contact announced by two different deliveries (a second fan-out): must be 0. */
  webhookDifferentIdRepeats: number;
  /** webhook-ids the receiver got that no delivery row has: must be 0. */
  webhookUnknownIds: number;
  emails: number;
  emailsLost: number;
  emailRepeats: number;
  /** A campaign recipient with two ledger rows (two Message-IDs): must be 0. */
  emailDifferentIdRepeats: number;
  emailUnknownIds: number;
}

export async function deliveryCounts(
  deps: Deps,
  scope: Scope,
  receiver: WebhookReceiver,
  sink: SmtpSink,
): Promise<DeliveryCounts> {
  const { rows: deliveries } = await sql<{ id: string }>`
    select d.id from webhook_deliveries d join brand_webhooks w on w.id = d.webhook
    where w.brand = any(${scope.brands}::uuid[])`.execute(deps.db);
  const known = new Set(deliveries.map((d) => d.id));
  const announced = new Map<string, Set<string>>();
  for (const [id, body] of receiver.bodies) {
    if (body.topic !== 'Contacts') continue;
    for (const contact of (body.payload.contacts as { id: string }[] | undefined) ?? []) {
      const key = `${body.event}:${contact.id}`;
      announced.set(key, (announced.get(key) ?? new Set()).add(id));
    }
  }
  const { rows: contactEvents } = await sql<{ key: string }>`
    select event || ':' || subject as key from domain_events where brand = any(${scope.brands}::uuid[]) and topic = 'Contacts'`.execute(
    deps.db,
  );
  const { rows: mails } = await sql<{ message_id: string }>`
    select message_id from mail_messages where created_at >= ${scope.since}`.execute(deps.db);
  const ledger = new Set(mails.map((m) => m.message_id));
  const received = sink.messageIds();
  const repeats = (arrivals: ReadonlyMap<string, number>) => [...arrivals.values()].reduce((sum, n) => sum + n - 1, 0);
  return {
    webhookDeliveries: known.size,
    webhooksLost: [...known].filter((id) => !receiver.arrivals.has(id)).length,
    webhookRepeats: repeats(receiver.arrivals),
    contactEventsLost: contactEvents.filter((e) => !announced.has(e.key)).length,
    webhookDifferentIdRepeats: [...announced.values()].filter((ids) => ids.size > 1).length,
    webhookUnknownIds: [...receiver.arrivals.keys()].filter((id) => !known.has(id)).length,
    emails: ledger.size,
    emailsLost: [...ledger].filter((id) => !received.has(id)).length,
    emailRepeats: repeats(received),
    emailDifferentIdRepeats: await count(
      deps,
      sql`select count(*) as n from (select 1 from mail_messages where campaign is not null and created_at >= ${scope.since}
          group by campaign, to_addresses having count(*) > 1) twice`,
    ),
    emailUnknownIds: [...received.keys()].filter((id) => !ledger.has(id)).length,
  };
}

/**
 * The public rate limit through the proxy, which sends consecutive requests to different serve processes: of
 * `limit + over` requests from one client address, exactly `limit` may pass when the window is shared (each process
 * counting its own would let up to twice as many through).
 */
export async function checkRateLimit(
  proxyUrl: string,
  brand: string,
  limit: number,
  over = 20,
): Promise<{ sent: number; passed: number; limited: number; other: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const result = { sent: 0, passed: 0, limited: 0, other: 0 };
  for (let i = 0; i < limit + over; i++) {
    const { status } = await exchange(agent, proxyUrl, {
      method: 'GET',
      path: `/brands/${brand}`,
      headers: { 'x-forwarded-for': '203.0.113.77' },
    });
    result.sent++;
    if (status === 200) result.passed++;
    else if (status === 429) result.limited++;
    else result.other++;
  }
  agent.destroy();
  return result;
}

/**
 * The refresh-token rotation under a race between processes: each trial sends one refresh token to both serve
 * processes at once. Both may answer 200 (the second waits for the first's row lock and is a replay, which
 * retires the first's pair: docs/oauth.md), but afterwards exactly one of the two pairs may still refresh.
 */
export async function checkRefreshRace(
  serveUrls: [string, string],
  client: { clientId: string; clientSecret: string },
  tokens: string[],
): Promise<{ trials: number; oneLivePair: number; answers: Map<string, number> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const refresh = (url: string, token: string) =>
    exchange(
      agent,
      url,
      {
        method: 'POST',
        path: '/oauth2/token',
        body: {
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: client.clientId,
          client_secret: client.clientSecret,
        },
      },
      true,
    );
  const answers = new Map<string, number>();
  let oneLivePair = 0;
  for (const token of tokens) {
    const both = await Promise.all(serveUrls.map((url) => refresh(url, token)));
    const key = both
      .map((a) => a.status)
      .sort()
      .join('+');
    answers.set(key, (answers.get(key) ?? 0) + 1);
    const issued = both.flatMap((a) =>
      a.status === 200 ? [(JSON.parse(a.body) as { refresh_token: string }).refresh_token] : [],
    );
    let live = 0;
    for (const next of issued) if ((await refresh(serveUrls[0], next)).status === 200) live++;
    if (live === 1) oneLivePair++;
  }
  agent.destroy();
  return { trials: tokens.length, oneLivePair, answers };
}

/**
 * Cron ticks of these tasks per minute since `since`, over every worker process: pg-boss's schedule must send each
 * minute's job once whatever the number of workers (a tick sent twice is a lock that did not hold).
 */
export async function cronTicks(
  deps: Deps,
  names: string[],
  since: Date,
): Promise<{ minutes: number; repeated: number }> {
  const { rows } = await sql<{ n: string }>`
    select count(*) as n from (
      select name, created_on from ${sql.id(QUEUE_SCHEMA, 'job')} where name = any(${names}::text[]) and created_on >= ${since}
      union all
      select name, created_on from ${sql.id(QUEUE_SCHEMA, 'archive')} where name = any(${names}::text[]) and created_on >= ${since}
    ) ticks group by name, date_trunc('minute', created_on)`.execute(deps.db);
  return { minutes: rows.length, repeated: rows.filter((r) => Number(r.n) > 1).length };
}

/** Jobs still active since before the kill: the killed worker's, waiting for their expiry (by task). */
export async function deadWorkerJobs(
  deps: Deps,
  killedAt: Date,
): Promise<{ name: string; n: number; expiresInSeconds: number }[]> {
  const { rows } = await sql<{ name: string; n: string; expires: number }>`
    select name, count(*) as n, max(extract(epoch from started_on + expire_in - now())) as expires
    from ${sql.id(QUEUE_SCHEMA, 'job')} where state = 'active' and started_on < ${killedAt}
    group by name order by name`.execute(deps.db);
  return rows.map((r) => ({ name: r.name, n: Number(r.n), expiresInSeconds: Number(r.expires) }));
}

/**
 * Moves the expiry of the killed worker's jobs, and the send lease of the messages they held, into the past (as
 * the crash tests do) instead of waiting for them: pg-boss's maintenance then hands the jobs to a live worker,
 * and the mail ledger's recovery sends the messages again, same Message-ID.
 */
export async function expireDeadWorkerJobs(deps: Deps, killedAt: Date): Promise<void> {
  await sql`update ${sql.id(QUEUE_SCHEMA, 'job')} set started_on = now() - expire_in - interval '1 second'
    where state = 'active' and started_on < ${killedAt}`.execute(deps.db);
  await sql`update mail_messages set claimed_until = now() - interval '1 second'
    where state = 'sending' and claimed_until < ${killedAt}::timestamptz + make_interval(secs => ${SEND_LEASE_SECONDS})`.execute(
    deps.db,
  );
}
