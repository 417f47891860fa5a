// SQL of the brand profile and roster (decisions §19): brands with their ancestors, children, members of a subtree.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { userRowQuery, type UserRow } from '../users/index.js';
import type { Palette } from './palette.js';

export interface ProfileRow {
  id: string;
  name: string;
  brand_type: string;
  parent: string | null;
  marketing_palette: Palette;
}

/** These live brands and all their live ancestors, by id (one recursive query, whatever the number of brands). */
export async function brandsWithAncestors(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, ProfileRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<ProfileRow>`
    with recursive up(id, name, brand_type, parent, marketing_palette, depth) as (
      select id, name, brand_type, parent, marketing_palette, 0 from brands where id = any(${[...ids]}::uuid[]) and deleted_at is null
      union
      select b.id, b.name, b.brand_type, b.parent, b.marketing_palette, up.depth + 1
        from brands b join up on b.id = up.parent where b.deleted_at is null and up.depth < 32
    )
    select distinct on (id) id, name, brand_type, parent, marketing_palette from up
  `.execute(db);
  return new Map(rows.map((row) => [row.id, row]));
}

/** Live children of a brand, by name. */
export async function childIds(db: Kysely<DB>, brand: string): Promise<string[]> {
  const rows = await db
    .selectFrom('brands')
    .select('id')
    .where('parent', '=', brand)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function setOwnPalette(db: Kysely<DB>, brand: string, palette: Palette, now: Date): Promise<void> {
  await db
    .updateTable('brands')
    .set({ marketing_palette: JSON.stringify(palette), updated_at: now })
    .where('id', '=', brand)
    .where('deleted_at', 'is', null)
    .execute();
}

export interface RosterPage {
  members: { row: UserRow; brands: string[] }[];
  total: number;
}

/**
 * Live users with a live membership in the brand or any brand below it, by name: each with their user row (the
 * same query as the user record) and the brands of the subtree they belong to. One statement for the page.
 */
export async function rosterPage(
  db: Kysely<DB>,
  subtree: readonly string[],
  start: number,
  limit: number,
): Promise<RosterPage> {
  const members = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user')
    .select(['m.user', sql<string[]>`array_agg(distinct m.brand)`.as('brands')])
    .select(['u.first_name', 'u.last_name'])
    .where('m.brand', '=', sql<string>`any(${[...subtree]}::uuid[])`)
    .where('m.deleted_at', 'is', null)
    .where('u.deleted_at', 'is', null)
    .groupBy(['m.user', 'u.first_name', 'u.last_name']);
  const rows = await db
    .with('members', () => members)
    .selectFrom('members')
    .innerJoinLateral(userRowQuery(db, sql.ref<string>('members.user')).as('ur'), (join) => join.onTrue())
    .selectAll('ur')
    .select(['members.brands', sql<string>`count(*) over ()`.as('total')])
    .orderBy(sql`lower(members.first_name)`)
    .orderBy(sql`lower(members.last_name)`)
    .orderBy('members.user')
    .limit(limit)
    .offset(start)
    .execute();
  if (rows.length === 0 && start > 0) {
    const count = await db
      .with('members', () => members)
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return { members: [], total: Number(count.n) };
  }
  return {
    members: rows.map(({ brands, total: _total, ...row }) => ({ row: row as unknown as UserRow, brands })),
    total: Number(rows[0]?.total ?? 0),
  };
}
