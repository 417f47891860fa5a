// All SQL of webhook deliveries: the outbox position, fan-out targets, deliveries and their attempts.
import { sql, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import type { OutboxPosition } from '../../events/outbox.js';

export type DeliveryRow = Selectable<DB['webhook_deliveries']>;

/**
 * The fan-out position, locked for this transaction. Undefined when another worker holds it: that one is
 * fanning out now, so this one has nothing to do (skip locked keeps workers from queueing up behind it).
 */
export async function lockPosition(trx: Transaction<DB>): Promise<{ position: OutboxPosition | null } | undefined> {
  const row = await trx
    .selectFrom('webhook_outbox_position')
    .select(['tx', 'event_id'])
    .where('id', '=', 1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (!row) return undefined;
  return { position: row.tx !== null && row.event_id !== null ? { tx: row.tx, id: Number(row.event_id) } : null };
}

export async function savePosition(trx: Transaction<DB>, position: OutboxPosition): Promise<void> {
  await trx
    .updateTable('webhook_outbox_position')
    .set({ tx: sql<string>`${position.tx}::xid8`, event_id: position.id })
    .where('id', '=', 1)
    .execute();
}

/** Whether committed events exist after the position (readable or not yet: see FanOutStep.heldBack). */
export async function eventsAfter(trx: Transaction<DB>, position: OutboxPosition | null): Promise<boolean> {
  let query = trx.selectFrom('domain_events').select('id').limit(1);
  if (position) query = query.where(sql<boolean>`(tx, id) > (${position.tx}::xid8, ${position.id}::bigint)`);
  return (await query.executeTakeFirst()) !== undefined;
}

export interface TargetWebhook {
  id: string;
  brand: string;
  topic: string;
  /** Set while its attempts fail (cleared by a delivered one). */
  failing_since: Date | null;
}

/** Live, enabled webhooks of these brands and topics. */
export async function liveWebhooks(
  db: Kysely<DB>,
  brands: readonly string[],
  topics: readonly string[],
): Promise<TargetWebhook[]> {
  if (brands.length === 0 || topics.length === 0) return [];
  return db
    .selectFrom('brand_webhooks')
    .select(['id', 'brand', 'topic', 'failing_since'])
    .where('brand', 'in', brands)
    .where('topic', 'in', topics)
    .where('deleted_at', 'is', null)
    .where('disabled_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

/** brand → its live ancestors (nearest first), for the topics that also reach parent brands. */
export async function ancestorsOf(db: Kysely<DB>, brands: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>(brands.map((b) => [b, []]));
  if (brands.length === 0) return result;
  const rows = await sql<{ origin: string; id: string }>`
    with recursive up(origin, id, depth) as (
      select b.id, b.parent, 1 from brands b where b.id = any(${sql.val(brands)}::uuid[]) and b.parent is not null
      union all
      select up.origin, b.parent, up.depth + 1 from up join brands b on b.id = up.id where b.parent is not null and up.depth < 32
    )
    select up.origin, up.id from up join brands b on b.id = up.id where b.deleted_at is null order by up.origin, up.depth
  `.execute(db);
  for (const row of rows.rows) result.get(row.origin)?.push(row.id);
  return result;
}

/** Rows per insert statement: 8 parameters each, below PostgreSQL's 65,535. */
const INSERT_CHUNK = 5000;

export async function insertDeliveries(
  db: Kysely<DB>,
  rows: Insertable<DB['webhook_deliveries']>[],
): Promise<{ id: string; webhook: string }[]> {
  const inserted: { id: string; webhook: string }[] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    inserted.push(
      ...(await db
        .insertInto('webhook_deliveries')
        .values(chunk)
        .onConflict((oc) => oc.columns(['webhook', 'event_id']).doNothing())
        .returning(['id', 'webhook'])
        .execute()),
    );
  }
  return inserted;
}

/** What attempts of these deliveries need: the body, the webhook's target and keys, and where each stands. */
export async function deliveriesForAttempt(db: Kysely<DB>, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('brand_webhooks as w', 'w.id', 'd.webhook')
    .select([
      'd.id',
      'd.webhook',
      'd.body',
      'd.status',
      'd.attempts',
      'w.brand',
      'w.url',
      'w.key_sealed',
      'w.previous_key_sealed',
      'w.previous_key_until',
      'w.deleted_at as webhook_deleted_at',
      'w.disabled_at as webhook_disabled_at',
    ])
    .where('d.id', 'in', [...ids])
    .execute();
}
export type AttemptRow = Awaited<ReturnType<typeof deliveriesForAttempt>>[number];

export async function insertAttempt(db: Kysely<DB>, row: Insertable<DB['webhook_attempts']>): Promise<void> {
  await db.insertInto('webhook_attempts').values(row).execute();
}

/** Moves a pending delivery on from `attempts` (false when another run already did: nothing is written then). */
export async function advanceDelivery(
  db: Kysely<DB>,
  id: string,
  fromAttempts: number,
  values: Pick<
    DeliveryRow,
    'status' | 'attempts' | 'next_attempt_at' | 'last_status' | 'last_error' | 'delivered_at' | 'updated_at'
  >,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set(values)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('attempts', '=', fromAttempts)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Notes a failure; returns since when the webhook has been failing (this failure when it was healthy). Writes
 * only when it was healthy: an update of the webhook row by every failed attempt would queue the attempts of
 * a failing receiver one behind the other on that row's lock.
 */
export async function markWebhookFailing(db: Kysely<DB>, webhook: string, at: Date): Promise<Date> {
  const started = await db
    .updateTable('brand_webhooks')
    .set({ failing_since: at })
    .where('id', '=', webhook)
    .where('failing_since', 'is', null)
    .returning('failing_since')
    .executeTakeFirst();
  if (started) return started.failing_since ?? at;
  const row = await db
    .selectFrom('brand_webhooks')
    .select('failing_since')
    .where('id', '=', webhook)
    .executeTakeFirstOrThrow();
  return row.failing_since ?? at;
}

/** A delivered attempt: the delivery, the attempt it moves on to, the receiver's answer. */
export interface DeliveredAttempt {
  delivery: string;
  webhook: string;
  attempt: number;
  at: Date;
  http_status: number;
  duration_ms: number;
  response_excerpt: string | null;
}

/**
 * Delivered attempts in one statement (the hot path, for the attempts of one turn: deliveries.batching.ts): each
 * delivery still at `attempt - 1` moves on, its attempt row is written and its webhook is marked healthy (only if
 * it was failing) — or nothing, for a delivery another run already moved on. Answers the deliveries it moved.
 */
export async function recordDelivered(db: Kysely<DB>, attempts: readonly DeliveredAttempt[]): Promise<Set<string>> {
  if (attempts.length === 0) return new Set();
  const column = <K extends keyof DeliveredAttempt>(key: K) => attempts.map((a) => a[key]);
  const result = await sql<{ id: string }>`
    with input as (
      select * from unnest(${column('delivery')}::uuid[], ${column('attempt')}::int[], ${column('at')}::timestamptz[],
          ${column('http_status')}::int[], ${column('duration_ms')}::int[], ${column('response_excerpt')}::text[])
        as i(delivery, attempt, at, http_status, duration_ms, response_excerpt)
    ), moved as (
      update webhook_deliveries d
      set status = 'delivered', attempts = i.attempt, next_attempt_at = null, last_status = i.http_status, last_error = null,
          delivered_at = i.at, updated_at = i.at
      from input i
      where d.id = i.delivery and d.status = 'pending' and d.attempts = i.attempt - 1
      returning d.id, d.webhook, i.attempt, i.at, i.http_status, i.duration_ms, i.response_excerpt
    ), healthy as (
      update brand_webhooks set failing_since = null
      where id in (select webhook from moved) and failing_since is not null
    ), logged as (
      insert into webhook_attempts (delivery, attempt, at, http_status, duration_ms, error, response_excerpt)
      select id, attempt, at, http_status, duration_ms, null, response_excerpt from moved
    )
    select id from moved`.execute(db);
  return new Set(result.rows.map((r) => r.id));
}

export async function disableWebhook(db: Kysely<DB>, webhook: string, at: Date, reason: string): Promise<boolean> {
  const result = await db
    .updateTable('brand_webhooks')
    .set({ disabled_at: at, disabled_reason: reason, updated_at: at })
    .where('id', '=', webhook)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function webhookForNotice(
  db: Kysely<DB>,
  webhook: string,
): Promise<{ brand: string; topic: string; url: string }> {
  return db
    .selectFrom('brand_webhooks')
    .select(['brand', 'topic', 'url'])
    .where('id', '=', webhook)
    .executeTakeFirstOrThrow();
}

/**
 * Users with Admin on the brand or one of its live ancestors (live memberships): those who manage the brand's
 * webhooks (access.ts grants Admin down the tree), so they hear about them.
 */
export async function brandAdmins(db: Kysely<DB>, brand: string): Promise<string[]> {
  const chain = [brand, ...((await ancestorsOf(db, [brand])).get(brand) ?? [])];
  const rows = await db
    .selectFrom('memberships')
    .select('user')
    .distinct()
    .where('brand', 'in', chain)
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`'Admin' = any(acl)`)
    .execute();
  return rows.map((r) => r.user);
}
