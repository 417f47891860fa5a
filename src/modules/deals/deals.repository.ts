// All SQL of deals. Writers go through dealColumns() so the derived title and search lexemes change with
// every write.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DealContext, DealRoleValue } from './deals.columns.js';
import { narrowed } from '../../db/narrow.js';
import type { DB, Narrowed } from '../../db/types.js';
import { dealLexemes, titleOf, type DealFields } from './deals.derive.js';
import type { DealOrderKey } from './deals.schemas.js';

export const DEAL_COLUMNS = [
  'id',
  'brand',
  'deal_type',
  'property_type',
  'title',
  'title_given',
  'listing',
  'status',
  'context',
  'roles',
  'created_by',
  'created_at',
  'updated_at',
  'deleted_at',
] as const satisfies readonly (keyof DB['deals'])[];

/** A deal as read: its context and roles typed (deals.columns.ts). */
export type DealRow = Narrowed<
  Pick<Selectable<DB['deals']>, (typeof DEAL_COLUMNS)[number]>,
  { context: DealContext; roles: DealRoleValue[] }
>;

export function fieldsOf(row: DealRow): DealFields {
  return {
    deal_type: row.deal_type,
    property_type: row.property_type,
    title_given: row.title_given,
    listing: row.listing,
    status: row.status,
    context: row.context,
    roles: row.roles,
  };
}

function dealColumns(fields: DealFields) {
  return {
    ...fields,
    context: JSON.stringify(fields.context),
    roles: JSON.stringify(fields.roles),
    title: titleOf(fields),
    search_tsv: sql<string>`array_to_tsvector(${dealLexemes(fields)}::text[])`,
  };
}

export async function insertDeal(
  db: Kysely<DB>,
  brand: string,
  createdBy: string | null,
  fields: DealFields,
  at: Date,
): Promise<DealRow> {
  return narrowed<DealRow>(
    await db
      .insertInto('deals')
      .values({ ...dealColumns(fields), brand, created_by: createdBy, created_at: at, updated_at: at })
      .returning(DEAL_COLUMNS)
      .executeTakeFirstOrThrow(),
  );
}

/** Many deals of one brand in one statement per 1,000 (the benchmark's fill; no events). */
export async function insertDealsBulk(
  db: Kysely<DB>,
  brand: string,
  createdBy: string | null,
  deals: { fields: DealFields; at: Date }[],
): Promise<void> {
  for (let i = 0; i < deals.length; i += 1000) {
    await db
      .insertInto('deals')
      .values(
        deals
          .slice(i, i + 1000)
          .map((d) => ({ ...dealColumns(d.fields), brand, created_by: createdBy, created_at: d.at, updated_at: d.at })),
      )
      .execute();
  }
}

export async function findDeal(
  db: Kysely<DB>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<DealRow | undefined> {
  let query = db.selectFrom('deals').select(DEAL_COLUMNS).where('id', '=', id).where('deleted_at', 'is', null);
  if (options.forUpdate) query = query.forUpdate();
  return narrowed<DealRow | undefined>(await query.executeTakeFirst());
}

export async function updateDeal(db: Kysely<DB>, id: string, fields: DealFields, at: Date): Promise<DealRow> {
  return narrowed<DealRow>(
    await db
      .updateTable('deals')
      .set({ ...dealColumns(fields), updated_at: at })
      .where('id', '=', id)
      .returning(DEAL_COLUMNS)
      .executeTakeFirstOrThrow(),
  );
}

export async function softDeleteDeal(db: Kysely<DB>, id: string, at: Date): Promise<DealRow> {
  return narrowed<DealRow>(
    await db
      .updateTable('deals')
      .set({ deleted_at: at, updated_at: at })
      .where('id', '=', id)
      .returning(DEAL_COLUMNS)
      .executeTakeFirstOrThrow(),
  );
}

export interface DealFilter {
  brands: string[];
  /** tsquery text (lib/search-words.ts prefixQuery). */
  query: string | null;
  /** null = every status. */
  statuses: string[] | null;
  dealType: string | null;
}

function filtered(db: Kysely<DB>, filter: DealFilter) {
  let query = db
    .selectFrom('deals')
    .where(sql<boolean>`brand = any(${filter.brands}::uuid[])`)
    .where('deleted_at', 'is', null);
  if (filter.query) query = query.where(sql<boolean>`search_tsv @@ ${filter.query}::tsquery`);
  if (filter.statuses) query = query.where(sql<boolean>`status = any(${filter.statuses}::text[])`);
  if (filter.dealType) query = query.where('deal_type', '=', filter.dealType);
  return query;
}

/** The SQL of each `$order` key: a closed map, so a client's column name never reaches SQL. */
const ORDER_SQL: Record<DealOrderKey, ReturnType<typeof sql.ref> | ReturnType<typeof sql>> = {
  created_at: sql.ref('created_at'),
  updated_at: sql.ref('updated_at'),
  title: sql`lower(title)`,
  status: sql.ref('status'),
  deal_type: sql.ref('deal_type'),
  list_price: sql`(context->>'list_price')::numeric`,
  closing_date: sql`(context->>'closing_date')`,
};

/**
 * A page of the matching deals and the exact total. With a text query the matches are collected once: one pass
 * over their rows gives both the count and the page, where two statements would visit every match twice (the
 * matches of a prefix query are spread over the whole table). Without one, the page walks the (brand, updated_at)
 * index while the count runs beside it.
 */
export async function filterDealsPage(
  db: Kysely<DB>,
  filter: DealFilter,
  page: DealPage,
): Promise<{ rows: DealRow[]; total: number }> {
  if (!filter.query) {
    const [total, rows] = await Promise.all([countDeals(db, filter), filterDeals(db, filter, page)]);
    return { rows, total };
  }
  const orderBy = (table: string) =>
    sql`${sql.ref(`${table}.k`)} ${sql.raw(page.descending ? 'desc nulls last' : 'asc nulls last')}, ${sql.ref(`${table}.id`)} ${sql.raw(page.descending ? 'desc' : 'asc')}`;
  const matches = filtered(db, filter).select(['id', ORDER_SQL[page.order].as('k')]);
  const columns = sql.join(DEAL_COLUMNS.map((column) => sql.ref(`d.${column}`)));
  // The count row is left-joined to the page, so a page past the end still tells the total.
  const result = await sql<(DealRow & { total: string }) | { total: string; id: null }>`
    with m as materialized (${matches}),
         p as (select id, k from m order by ${orderBy('m')} offset ${page.start} limit ${page.limit})
    select t.total, ${columns}
    from (select count(*) as total from m) t
    left join (p join deals d on d.id = p.id) on true
    order by ${orderBy('p')}`.execute(db);
  const total = Number(result.rows[0]?.total ?? 0);
  return {
    rows: result.rows
      .filter((row): row is DealRow & { total: string } => row.id !== null)
      .map(({ total: _total, ...row }) => row),
    total,
  };
}

interface DealPage {
  order: DealOrderKey;
  descending: boolean;
  start: number;
  limit: number;
}

async function filterDeals(db: Kysely<DB>, filter: DealFilter, page: DealPage): Promise<DealRow[]> {
  const direction = sql.raw(page.descending ? 'desc nulls last' : 'asc nulls last');
  return narrowed<DealRow[]>(
    await filtered(db, filter)
      .select(DEAL_COLUMNS)
      .orderBy(sql`${ORDER_SQL[page.order]} ${direction}`)
      .orderBy('id', page.descending ? 'desc' : 'asc')
      .offset(page.start)
      .limit(page.limit)
      .execute(),
  );
}

async function countDeals(db: Kysely<DB>, filter: DealFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function brandSummaries(db: Kysely<DB>, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('brands')
    .select(['id', 'name', 'brand_type', 'parent'])
    .where(sql<boolean>`id = any(${ids}::uuid[])`)
    .execute();
}

export async function userSummaries(db: Kysely<DB>, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email', 'deleted_at'])
    .where(sql<boolean>`id = any(${ids}::uuid[])`)
    .execute();
}

export async function listingSummaries(db: Kysely<DB>, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('listings')
    .select(['id', 'mls', 'mls_number', 'status', 'price', 'full_address', 'street_address', 'deleted_at'])
    .where(sql<boolean>`id = any(${ids}::uuid[])`)
    .execute();
}

/** A live user, with the fields a role copies. */
export async function findUser(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email', 'phone_number'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
