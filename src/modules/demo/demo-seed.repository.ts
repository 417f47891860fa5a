// SQL of the demo world: existence checks and repairs of its fixed rows.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { ClientKind } from '../auth/index.js';

/** Serialises concurrent seeds (two CLI runs, or a CLI run during first start) on any database. */
export async function lockDemoSeed(db: Kysely<DB>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('gable:demo-seed'))`.execute(db);
}

export async function anyUserExists(db: Kysely<DB>): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Which of these brand ids have a row, deleted or not. */
export async function existingBrandIds(db: Kysely<DB>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('brands').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

export async function findUserForSeed(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function reviveUser(
  db: Kysely<DB>,
  id: string,
  fields: { email: string; passwordHash: string },
  now: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ email: fields.email, password_hash: fields.passwordHash, deleted_at: null, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** A client by client_id whether deleted or not (client_id stays unique after deletion). */
export async function findClientForSeed(db: Kysely<DB>, clientId: string) {
  return db
    .selectFrom('oauth_clients')
    .select(['id', 'client_id', 'secret_hash', 'kind', 'redirect_uris', 'deleted_at'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

export async function repairClient(
  db: Kysely<DB>,
  id: string,
  fields: { secretHash: string | null; kind: ClientKind; redirectUris: string[]; grants: string[] },
  now: Date,
): Promise<void> {
  await db
    .updateTable('oauth_clients')
    .set({
      secret_hash: fields.secretHash,
      kind: fields.kind,
      redirect_uris: fields.redirectUris,
      grants: fields.grants,
      deleted_at: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** Puts a fixed brand back to its demo shape when it was renamed, moved or deleted. No write when it matches. */
export async function repairBrand(
  db: Kysely<DB>,
  brand: { id: string; name: string; parent: string | null; brandType: string },
  now: Date,
): Promise<void> {
  await db
    .updateTable('brands')
    .set({ name: brand.name, parent: brand.parent, brand_type: brand.brandType, deleted_at: null, updated_at: now })
    .where('id', '=', brand.id)
    .where((eb) =>
      eb.or([
        eb('name', '!=', brand.name),
        sql<boolean>`parent is distinct from ${brand.parent}::uuid`,
        eb('brand_type', '!=', brand.brandType),
        eb('deleted_at', 'is not', null),
      ]),
    )
    .execute();
}

/** Sets the brand's own palette when it has none (an operator's palette is never overwritten). */
export async function ensurePalette(
  db: Kysely<DB>,
  brand: string,
  palette: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await db
    .updateTable('brands')
    .set({ marketing_palette: JSON.stringify(palette), updated_at: now })
    .where('id', '=', brand)
    .where(sql<boolean>`marketing_palette = '{}'::jsonb`)
    .execute();
}
