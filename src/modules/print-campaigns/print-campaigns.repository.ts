// All SQL of print campaigns.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/types.js';
import type { PrintCampaignOrderKey } from './print-campaigns.schemas.js';

export type CampaignRow = Selectable<DB['print_campaigns']>;

export async function insertCampaign(
  db: Kysely<DB>,
  campaign: { brand: string; created_by: string; template_instance: string },
  at: Date,
): Promise<CampaignRow> {
  return db
    .insertInto('print_campaigns')
    .values({ ...campaign, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findCampaign(
  db: Kysely<DB>,
  brand: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<CampaignRow | undefined> {
  let query = db
    .selectFrom('print_campaigns')
    .selectAll()
    .where('id', '=', id)
    .where('brand', '=', brand)
    .where('deleted_at', 'is', null);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function setInstance(db: Kysely<DB>, id: string, instance: string, at: Date): Promise<CampaignRow> {
  return db
    .updateTable('print_campaigns')
    .set({ template_instance: instance, updated_at: at })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface CampaignFilter {
  brand: string;
  user: string | null;
  mediums: string[];
}

function filtered(db: Kysely<DB>, filter: CampaignFilter) {
  let query = db
    .selectFrom('print_campaigns as c')
    .where('c.brand', '=', filter.brand)
    .where('c.deleted_at', 'is', null);
  if (filter.user) query = query.where('c.created_by', '=', filter.user);
  if (filter.mediums.length > 0) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('template_instances as i')
          .select(sql`1`.as('one'))
          .whereRef('i.id', '=', 'c.template_instance')
          .where(sql<boolean>`i.medium = any(${filter.mediums}::text[])`),
      ),
    );
  }
  return query;
}

export async function countCampaigns(db: Kysely<DB>, filter: CampaignFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function listCampaigns(
  db: Kysely<DB>,
  filter: CampaignFilter,
  page: { order: PrintCampaignOrderKey; descending: boolean; start: number; limit: number },
): Promise<CampaignRow[]> {
  const direction = page.descending ? 'desc' : 'asc';
  return filtered(db, filter)
    .selectAll('c')
    .orderBy(`c.${page.order}`, direction)
    .orderBy('c.id', direction)
    .offset(page.start)
    .limit(page.limit)
    .execute();
}

/** Live campaigns per medium of their instance (only mediums that have one). */
export async function countByMedium(
  db: Kysely<DB>,
  brand: string,
  user: string | null,
): Promise<{ medium: string; count: string }[]> {
  return filtered(db, { brand, user, mediums: [] })
    .innerJoin('template_instances as i', 'i.id', 'c.template_instance')
    .select(['i.medium as medium', (eb) => eb.fn.countAll<string>().as('count')])
    .groupBy('i.medium')
    .orderBy('i.medium')
    .execute();
}
