// Operator actions on brands and memberships (`gable admin brand|member …`, the demo world). No actor: the
// operator has the database. Mistakes are catalogue errors with messages written for a person at a terminal.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { findLiveUserByRef } from '../users/index.js';
import { ACL_WORDS, reachableBrandIds, type AclWord } from './access.js';
import {
  clearActiveBrand,
  findActiveBrand,
  findLiveBrand,
  findLiveMembership,
  insertBrand,
  insertMembership,
  listLiveBrands,
  softDeleteMembership,
  updateMembership,
  type BrandRow,
  type MembershipRow,
} from './brands.repository.js';
import { isUuid } from '../../lib/uuid.js';
import { BRAND_TYPES } from './brands.words.js';

/** Decisions §19: a Region sits between a brokerage and its offices; Personal and Other exist for clients' data. */
export { BRAND_TYPES };
export type BrandType = (typeof BRAND_TYPES)[number];

export interface NewBrand {
  name: string;
  parent?: string | null;
  type?: string;
}

export async function createBrand(db: Kysely<DB>, brand: NewBrand): Promise<BrandRow> {
  const name = brand.name.trim();
  if (name === '') throw errors.invalidField('name', 'must not be empty');
  const type = brand.type ?? (brand.parent ? 'Office' : 'Brokerage');
  if (!(BRAND_TYPES as readonly string[]).includes(type))
    throw errors.invalidField('type', `must be one of ${BRAND_TYPES.join(', ')}`);
  const parent = brand.parent ?? null;
  if (parent !== null) await requireLiveBrand(db, parent, 'parent');
  return insertBrand(db, { name, parent, brandType: type });
}

export async function listBrands(db: Kysely<DB>) {
  return listLiveBrands(db);
}

/** "Admin,CRM" → ['Admin', 'CRM']; any other word is an error naming the allowed ones. Case-insensitive input. */
export function parseAcl(text: string): AclWord[] {
  const words = text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  const acl: AclWord[] = [];
  for (const word of words) {
    const known = ACL_WORDS.find((allowed) => allowed.toLowerCase() === word.toLowerCase());
    if (!known) throw errors.invalidField('acl', `"${word}" is not an ACL word; use ${ACL_WORDS.join(', ')}`);
    if (!acl.includes(known)) acl.push(known);
  }
  return acl;
}

export interface MemberChange {
  /** User id or email. */
  user: string;
  brand: string;
  acl: AclWord[];
  role?: string;
}

export interface MemberResult {
  membership: MembershipRow;
  /** false when the user already was a member and only role/ACL changed. */
  created: boolean;
}

/** Makes the user a member of the brand with exactly these ACL words (an existing membership is updated). */
export async function addMember(db: Kysely<DB>, clock: Clock, change: MemberChange): Promise<MemberResult> {
  const user = await requireLiveUser(db, change.user);
  await requireLiveBrand(db, change.brand, 'brand');
  const role = change.role?.trim() || 'Member';
  return db.transaction().execute(async (trx) => {
    const existing = await findLiveMembership(trx, user.id, change.brand);
    if (existing)
      return {
        membership: await updateMembership(trx, existing.id, { role, acl: change.acl }, clock.now()),
        created: false,
      };
    return {
      membership: await insertMembership(trx, { user: user.id, brand: change.brand, role, acl: change.acl }),
      created: true,
    };
  });
}

/**
 * Ends the membership. When the user can no longer reach their active brand, the active brand is cleared so
 * that brand context falls back to a brand they still have instead of answering 403 on every request.
 */
export async function removeMember(
  db: Kysely<DB>,
  clock: Clock,
  ref: { user: string; brand: string },
): Promise<MembershipRow> {
  const user = await requireLiveUser(db, ref.user);
  if (!isUuid(ref.brand)) throw errors.invalidField('brand', 'must be a brand id (uuid)');
  return db.transaction().execute(async (trx) => {
    const existing = await findLiveMembership(trx, user.id, ref.brand);
    if (!existing) throw errors.notFound(`Membership of ${user.email} in brand ${ref.brand}`);
    const now = clock.now();
    await softDeleteMembership(trx, existing.id, now);
    const active = await findActiveBrand(trx, user.id);
    if (active && !(await reachableBrandIds(trx, user.id)).includes(active)) await clearActiveBrand(trx, user.id, now);
    return existing;
  });
}

async function requireLiveBrand(db: Kysely<DB>, id: string, field: string): Promise<BrandRow> {
  if (!isUuid(id)) throw errors.invalidField(field, 'must be a brand id (uuid)');
  const brand = await findLiveBrand(db, id);
  if (!brand) throw errors.notFound(`Brand ${id}`);
  return brand;
}

async function requireLiveUser(db: Kysely<DB>, ref: string) {
  const user = await findLiveUserByRef(db, ref.trim());
  if (!user) throw errors.notFound(`User ${ref}`);
  return user;
}
