// SQL of the delivery log, replays, pings, key rotation and the attempt purge.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/types.js';

export async function listDeliveries(db: Kysely<DB>, webhook: string, start: number, limit: number) {
  const base = db.selectFrom('webhook_deliveries').where('webhook', '=', webhook);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('event_id', 'desc')
      .orderBy('id')
      .offset(start)
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function attemptsOf(
  db: Kysely<DB>,
  deliveries: readonly string[],
): Promise<Selectable<DB['webhook_attempts']>[]> {
  if (deliveries.length === 0) return [];
  return db.selectFrom('webhook_attempts').selectAll().where('delivery', 'in', deliveries).orderBy('attempt').execute();
}

export async function findDelivery(
  db: Kysely<DB>,
  webhook: string,
  id: string,
): Promise<Selectable<DB['webhook_deliveries']> | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('webhook', '=', webhook)
    .executeTakeFirst();
}

export async function reopenDelivery(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: at, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function insertDelivery(
  db: Kysely<DB>,
  row: Insertable<DB['webhook_deliveries']>,
): Promise<Selectable<DB['webhook_deliveries']>> {
  return db.insertInto('webhook_deliveries').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function enableWebhook(db: Kysely<DB>, webhook: string, at: Date): Promise<void> {
  await db
    .updateTable('brand_webhooks')
    .set({ disabled_at: null, disabled_reason: null, failing_since: null, updated_at: at })
    .where('id', '=', webhook)
    .execute();
}

export async function rotateKey(
  db: Kysely<DB>,
  webhook: string,
  sealed: string,
  previousSealed: string,
  previousUntil: Date,
  at: Date,
): Promise<void> {
  await db
    .updateTable('brand_webhooks')
    .set({ key_sealed: sealed, previous_key_sealed: previousSealed, previous_key_until: previousUntil, updated_at: at })
    .where('id', '=', webhook)
    .execute();
}

export async function purgeAttempts(db: Kysely<DB>, before: Date): Promise<number> {
  const result = await db.deleteFrom('webhook_attempts').where('at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
