// All SQL of brand webhooks (the record and its keys). Deliveries: deliveries.repository.ts.
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/types.js';

export type WebhookRow = Selectable<DB['brand_webhooks']>;

export async function insertWebhook(db: Kysely<DB>, values: Insertable<DB['brand_webhooks']>): Promise<WebhookRow> {
  return db.insertInto('brand_webhooks').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A live webhook of the brand (another brand's id answers undefined, like a missing one). */
export async function findWebhook(db: Kysely<DB>, brand: string, id: string): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('brand_webhooks')
    .selectAll()
    .where('id', '=', id)
    .where('brand', '=', brand)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listWebhooks(
  db: Kysely<DB>,
  brand: string,
  topic: string | undefined,
  start: number,
  limit: number,
): Promise<{ rows: WebhookRow[]; total: number }> {
  let base = db.selectFrom('brand_webhooks').where('brand', '=', brand).where('deleted_at', 'is', null);
  if (topic) base = base.where('topic', '=', topic);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('created_at').orderBy('id').offset(start).limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function softDeleteWebhook(db: Kysely<DB>, brand: string, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('brand_webhooks')
    .set({ deleted_at: at, updated_at: at })
    .where('id', '=', id)
    .where('brand', '=', brand)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
