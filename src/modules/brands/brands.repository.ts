// SQL of brands and memberships (operator commands, the demo world, the brand a request acts in).
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export interface BrandRow {
  id: string;
  name: string;
  parent: string | null;
  brand_type: string;
  created_at: Date;
}

export async function insertBrand(
  db: Kysely<DB>,
  brand: { id?: string; name: string; parent: string | null; brandType: string },
): Promise<BrandRow> {
  return db
    .insertInto('brands')
    .values({
      ...(brand.id ? { id: brand.id } : {}),
      name: brand.name,
      parent: brand.parent,
      brand_type: brand.brandType,
      deleted_at: null,
    })
    .returning(['id', 'name', 'parent', 'brand_type', 'created_at'])
    .executeTakeFirstOrThrow();
}

/** Inserts the brand with this fixed id unless it exists (deleted or not); returns the stored row. */
export async function ensureBrand(
  db: Kysely<DB>,
  brand: { id: string; name: string; parent: string | null; brandType: string },
): Promise<BrandRow> {
  await db
    .insertInto('brands')
    .values({ id: brand.id, name: brand.name, parent: brand.parent, brand_type: brand.brandType, deleted_at: null })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return db
    .selectFrom('brands')
    .select(['id', 'name', 'parent', 'brand_type', 'created_at'])
    .where('id', '=', brand.id)
    .executeTakeFirstOrThrow();
}

export async function findLiveBrand(db: Kysely<DB>, id: string): Promise<BrandRow | undefined> {
  return db
    .selectFrom('brands')
    .select(['id', 'name', 'parent', 'brand_type', 'created_at'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listLiveBrands(db: Kysely<DB>): Promise<(BrandRow & { members: number })[]> {
  return db
    .selectFrom('brands as b')
    .select(['b.id', 'b.name', 'b.parent', 'b.brand_type', 'b.created_at'])
    .select((eb) =>
      eb
        .selectFrom('memberships as m')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('m.brand', '=', 'b.id')
        .where('m.deleted_at', 'is', null)
        .as('members'),
    )
    .where('b.deleted_at', 'is', null)
    .orderBy('b.created_at')
    .orderBy('b.id')
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, members: Number(row.members ?? 0) })));
}

export interface MembershipRow {
  id: string;
  brand: string;
  user: string;
  role: string;
  acl: string[];
}

export async function findLiveMembership(
  db: Kysely<DB>,
  userId: string,
  brandId: string,
): Promise<MembershipRow | undefined> {
  return db
    .selectFrom('memberships')
    .select(['id', 'brand', 'user', 'role', 'acl'])
    .where('user', '=', userId)
    .where('brand', '=', brandId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function insertMembership(
  db: Kysely<DB>,
  membership: { user: string; brand: string; role: string; acl: string[] },
): Promise<MembershipRow> {
  return db
    .insertInto('memberships')
    .values({ ...membership, deleted_at: null })
    .returning(['id', 'brand', 'user', 'role', 'acl'])
    .executeTakeFirstOrThrow();
}

export async function updateMembership(
  db: Kysely<DB>,
  id: string,
  changes: { role: string; acl: string[] },
  now: Date,
): Promise<MembershipRow> {
  return db
    .updateTable('memberships')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returning(['id', 'brand', 'user', 'role', 'acl'])
    .executeTakeFirstOrThrow();
}

export async function softDeleteMembership(db: Kysely<DB>, id: string, now: Date): Promise<void> {
  await db.updateTable('memberships').set({ deleted_at: now, updated_at: now }).where('id', '=', id).execute();
}

/** The brand of the user's newest live membership in a live brand (a request's brand when nothing names one). */
export async function findNewestMembershipBrand(db: Kysely<DB>, userId: string): Promise<string | null> {
  const newest = await db
    .selectFrom('memberships as m')
    .innerJoin('brands as b', 'b.id', 'm.brand')
    .select('m.brand')
    .where('m.user', '=', userId)
    .where('m.deleted_at', 'is', null)
    .where('b.deleted_at', 'is', null)
    .orderBy('m.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return newest?.brand ?? null;
}

export async function findActiveBrand(db: Kysely<DB>, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('active_brand').where('id', '=', userId).executeTakeFirst();
  return row?.active_brand ?? null;
}

export async function clearActiveBrand(db: Kysely<DB>, userId: string, now: Date): Promise<void> {
  await db.updateTable('users').set({ active_brand: null, updated_at: now }).where('id', '=', userId).execute();
}

/** Whether the user is an Admin of a root brand (one without a parent): the operators of this server. */
export async function isRootBrandAdmin(db: Kysely<DB>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships as m')
    .innerJoin('brands as b', 'b.id', 'm.brand')
    .select('m.id')
    .where('m.user', '=', userId)
    .where('m.deleted_at', 'is', null)
    .where('b.deleted_at', 'is', null)
    .where('b.parent', 'is', null)
    .where(sql<boolean>`'Admin' = any(m.acl)`)
    .executeTakeFirst();
  return row !== undefined;
}

/** These brands' names, each with its parent's name (null at a root), for the brand picker. */
export async function findBrandsWithParentNames(
  db: Kysely<DB>,
  ids: string[],
): Promise<{ id: string; name: string; parent: string | null; parentName: string | null }[]> {
  return db
    .selectFrom('brands as b')
    .leftJoin('brands as p', 'p.id', 'b.parent')
    .select(['b.id', 'b.name', 'b.parent', 'p.name as parentName'])
    .where('b.id', 'in', ids)
    .execute();
}
