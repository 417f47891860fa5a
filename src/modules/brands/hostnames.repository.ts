// SQL of white-label host names (brand_hostnames): a brand may own host names on which the partner
// authorization pages show that brand.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

export interface HostBrand {
  id: string;
  name: string;
}

/** The live brand that owns `hostname` (already lowercased, without port), if any. */
export async function findBrandByHostname(db: Kysely<DB>, hostname: string): Promise<HostBrand | undefined> {
  return db
    .selectFrom('brand_hostnames as h')
    .innerJoin('brands as b', 'b.id', 'h.brand')
    .select(['b.id', 'b.name'])
    .where('h.hostname', '=', hostname)
    .where('b.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Whether a brand owns `hostname` (already lowercased), the brand live or not. */
export async function isBrandHostname(db: Kysely<DB>, hostname: string): Promise<boolean> {
  const host = await db
    .selectFrom('brand_hostnames')
    .select('hostname')
    .where('hostname', '=', hostname)
    .executeTakeFirst();
  return host !== undefined;
}

export async function listHostnames(db: Kysely<DB>, brandId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('brand_hostnames')
    .select('hostname')
    .where('brand', '=', brandId)
    .orderBy('hostname')
    .execute();
  return rows.map((r) => r.hostname);
}

/** Host names among `hostnames` that a brand other than `brandId` owns, with their owner. */
export async function findHostnamesOwnedElsewhere(
  db: Kysely<DB>,
  brandId: string,
  hostnames: string[],
): Promise<{ hostname: string; brand: string }[]> {
  if (hostnames.length === 0) return [];
  return db
    .selectFrom('brand_hostnames')
    .select(['hostname', 'brand'])
    .where('hostname', 'in', hostnames)
    .where('brand', '<>', brandId)
    .execute();
}

export async function replaceHostnames(db: Kysely<DB>, brandId: string, hostnames: string[]): Promise<void> {
  await db.deleteFrom('brand_hostnames').where('brand', '=', brandId).execute();
  if (hostnames.length > 0)
    await db
      .insertInto('brand_hostnames')
      .values(hostnames.map((hostname) => ({ hostname, brand: brandId })))
      .execute();
}

export async function liveBrandExists(db: Kysely<DB>, brandId: string): Promise<boolean> {
  const row = await db
    .selectFrom('brands')
    .select('id')
    .where('id', '=', brandId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}
