// Deals (decisions §17): brand-owned, Deals ACL. Every method checks access first (brands/access.ts); every
// change records its Deals event in the outbox within the same transaction. Closing a Buying deal sets each
// Buyer contact's home_anniversary through the contacts module's own writer.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors, type ErrorAttributes } from '../../errors.js';
import { recordEvent } from '../../events/outbox.js';
import { prefixQuery } from '../../lib/search-words.js';
import type { Actor } from '../auth/index.js';
import { brandReach, requireAccess, subtreeIds } from '../brands/index.js';
import { setHomeAnniversaryIn, findContact } from '../contacts/index.js';
import { findListingSummary } from '../listings/index.js';
import { applyContext } from './deals.context.js';
import type { DealFields } from './deals.derive.js';
import { isClosedStatus, presentDeal, presentDeals } from './deals.presenter.js';
import * as repo from './deals.repository.js';
import {
  DEAL_ORDER_KEYS,
  STATUS_GROUPS,
  type CreateDealBody,
  type DealOrderKey,
  type DealRecord,
  type FilterDealsBody,
  type RoleInput,
  type StatusGroup,
  type UpdateDealBody,
} from './deals.schemas.js';
import type { DealContext, DealRoleValue } from './deals.columns.js';

function throwIfInvalid(attributes: ErrorAttributes): void {
  const [field, messages] = Object.entries(attributes)[0] ?? [];
  if (field) throw errors.validation(`${field} ${messages?.[0] ?? 'is invalid'}`, attributes);
}

const clean = (value: string | null | undefined): string | null =>
  value == null || value.trim() === '' ? null : value.trim();

/** The context a listing fills: its address, price and MLS number (404 when no live listing has the id). */
async function listingContext(db: Kysely<DB>, id: string): Promise<DealContext> {
  const listing = await findListingSummary(db, { id });
  if (!listing) throw errors.notFound('Listing');
  const context: DealContext = { mls_number: listing.mls_number };
  if (listing.address) context.full_address = listing.address;
  if (listing.price !== null) context.list_price = listing.price;
  return context;
}

/**
 * A role as stored: names, email and phone taken from its contact or user where the input leaves them out. A
 * contact of another brand, or a user who is not a member in reach of the brand, answers 404.
 */
async function resolveRole(
  db: Kysely<DB>,
  brand: string,
  input: RoleInput,
  at: number,
  path: string,
  attributes: ErrorAttributes,
): Promise<DealRoleValue> {
  const role: DealRoleValue = {
    id: randomUUID(),
    role: input.role,
    legal_first_name: clean(input.legal_first_name),
    legal_last_name: clean(input.legal_last_name),
    email: clean(input.email),
    phone_number: clean(input.phone_number),
    contact: input.contact?.toLowerCase() ?? null,
    user: input.user?.toLowerCase() ?? null,
    created_at: at,
  };
  if (role.contact) {
    const contact = await findContact(db, role.contact);
    if (!contact || contact.brand !== brand) throw errors.notFound('Contact');
    role.legal_first_name ??= contact.first_name;
    role.legal_last_name ??= contact.last_name;
    role.email ??= contact.emails[0] ?? null;
    role.phone_number ??= contact.phone_numbers[0] ?? null;
  }
  if (role.user) {
    const user = await repo.findUser(db, role.user);
    const reach = user ? await brandReach(db, user.id, brand) : null;
    if (!user || !reach?.acl) throw errors.notFound('User');
    role.legal_first_name ??= clean(user.first_name);
    role.legal_last_name ??= clean(user.last_name);
    role.email ??= user.email;
    role.phone_number ??= user.phone_number;
  }
  if (!role.legal_first_name && !role.legal_last_name)
    attributes[`${path}legal_first_name`] = ['is required (or legal_last_name, or a contact or user that has a name)'];
  if (!role.email) attributes[`${path}email`] = ['is required (or a contact or user that has one)'];
  return role;
}

async function resolveRoles(
  db: Kysely<DB>,
  brand: string,
  inputs: RoleInput[],
  at: number,
  attributes: ErrorAttributes,
): Promise<DealRoleValue[]> {
  const roles: DealRoleValue[] = [];
  for (const [i, input] of inputs.entries())
    roles.push(await resolveRole(db, brand, input, at, `roles.${i}.`, attributes));
  return roles;
}

/** Closing a Buying deal (its status entering the closed group) dates each Buyer contact's home anniversary. */
async function afterWrite(
  trx: Transaction<DB>,
  deps: Deps,
  before: repo.DealRow | null,
  after: repo.DealRow,
): Promise<void> {
  const closing =
    after.deal_type === 'Buying' && isClosedStatus(after.status) && !(before && isClosedStatus(before.status));
  if (closing) {
    const date =
      typeof after.context.closing_date === 'string'
        ? after.context.closing_date
        : deps.clock.now().toISOString().slice(0, 10);
    const buyers = after.roles.filter((r) => r.role === 'Buyer' && r.contact).map((r) => r.contact as string);
    await setHomeAnniversaryIn(trx, deps, buyers, date, 'deal_closed');
  }
}

const dealEvent = (row: repo.DealRow, event: 'Created' | 'Updated' | 'Deleted') => ({
  brand: row.brand,
  topic: 'Deals' as const,
  event,
  subject: row.id,
  payload: { deal: presentDeal(row) },
});

export async function createDeal(
  deps: Deps,
  actor: Actor,
  brand: string,
  body: CreateDealBody,
  associations: Set<string>,
): Promise<DealRecord> {
  await requireAccess(deps.db, actor, brand, 'Deals');
  const row = await deps.db.transaction().execute(async (trx) => {
    const at = deps.clock.now();
    const attributes: ErrorAttributes = {};
    const listing = body.listing?.toLowerCase() ?? null;
    const base = listing ? await listingContext(trx, listing) : {};
    const context = applyContext(base, body.context ?? {}, attributes);
    const roles = await resolveRoles(trx, brand, body.roles ?? [], at.getTime() / 1000, attributes);
    throwIfInvalid(attributes);
    const fields: DealFields = {
      deal_type: body.deal_type,
      property_type: body.property_type.trim(),
      title_given: clean(body.title),
      listing,
      status: body.status ?? 'Active',
      context,
      roles,
    };
    const created = await repo.insertDeal(trx, brand, actor.userId, fields, at);
    await afterWrite(trx, deps, null, created);
    await recordEvent(trx, dealEvent(created, 'Created'));
    return created;
  });
  return (await presentDeals(deps.db, [row], associations))[0] as DealRecord;
}

/** A live deal the actor may see (Deals on its brand), else 404: another brand's deal does not exist for them. */
async function reachableDeal(db: Kysely<DB>, actor: Actor, id: string, forUpdate = false): Promise<repo.DealRow> {
  const row = await repo.findDeal(db, id, { forUpdate });
  if (!row) throw errors.notFound('Deal');
  await requireAccess(db, actor, row.brand, 'Deals', { denied: 'notFound' });
  return row;
}

export async function getDeal(deps: Deps, actor: Actor, id: string, associations: Set<string>): Promise<DealRecord> {
  const row = await reachableDeal(deps.db, actor, id);
  return (await presentDeals(deps.db, [row], associations))[0] as DealRecord;
}

/** Applies `change` to a locked, reachable deal and records the Updated event; the change may throw (nothing written). */
async function changeDeal(
  deps: Deps,
  actor: Actor,
  id: string,
  change: (trx: Transaction<DB>, current: repo.DealRow) => Promise<DealFields>,
): Promise<repo.DealRow> {
  return deps.db.transaction().execute(async (trx) => {
    const current = await reachableDeal(trx, actor, id, true);
    const fields = await change(trx, current);
    const updated = await repo.updateDeal(trx, id, fields, deps.clock.now());
    await afterWrite(trx, deps, current, updated);
    await recordEvent(trx, dealEvent(updated, 'Updated'));
    return updated;
  });
}

export async function updateDeal(
  deps: Deps,
  actor: Actor,
  id: string,
  body: UpdateDealBody,
  associations: Set<string>,
): Promise<DealRecord> {
  const row = await changeDeal(deps, actor, id, async (trx, current) => {
    const attributes: ErrorAttributes = {};
    const listing = body.listing === undefined ? current.listing : (body.listing?.toLowerCase() ?? null);
    // A newly named listing fills the context again; keys sent in the same body win.
    const base =
      listing && listing !== current.listing
        ? { ...current.context, ...(await listingContext(trx, listing)) }
        : current.context;
    const context = applyContext(base, body.context ?? {}, attributes);
    throwIfInvalid(attributes);
    return {
      ...repo.fieldsOf(current),
      deal_type: body.deal_type ?? current.deal_type,
      property_type: body.property_type?.trim() ?? current.property_type,
      title_given: body.title === undefined ? current.title_given : clean(body.title),
      listing,
      status: body.status ?? current.status,
      context,
    };
  });
  return (await presentDeals(deps.db, [row], associations))[0] as DealRecord;
}

export async function deleteDeal(deps: Deps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await reachableDeal(trx, actor, id, true);
    const deleted = await repo.softDeleteDeal(trx, id, deps.clock.now());
    await recordEvent(trx, dealEvent(deleted, 'Deleted'));
  });
}

export async function addRoles(
  deps: Deps,
  actor: Actor,
  id: string,
  inputs: RoleInput[],
  associations: Set<string>,
): Promise<DealRecord> {
  const row = await changeDeal(deps, actor, id, async (trx, current) => {
    const attributes: ErrorAttributes = {};
    const roles = await resolveRoles(trx, current.brand, inputs, deps.clock.now().getTime() / 1000, attributes);
    throwIfInvalid(attributes);
    return { ...repo.fieldsOf(current), roles: [...current.roles, ...roles] };
  });
  return (await presentDeals(deps.db, [row], associations))[0] as DealRecord;
}

/** `role`: a role id, or a role name (every role of that name goes). Nothing matching → 404. */
export async function removeRole(deps: Deps, actor: Actor, id: string, role: string): Promise<void> {
  await changeDeal(deps, actor, id, async (_trx, current) => {
    const key = role.toLowerCase();
    const roles = current.roles.filter((r) => r.id !== key && r.role !== role);
    if (roles.length === current.roles.length) throw errors.notFound('Role');
    return { ...repo.fieldsOf(current), roles };
  });
}

function parseOrder(order: FilterDealsBody['$order']): { key: DealOrderKey; descending: boolean } {
  if (!order) return { key: 'updated_at', descending: true };
  const key = order[0].replace(/^deals\./, '') as DealOrderKey;
  if (!DEAL_ORDER_KEYS.includes(key))
    throw errors.invalidField('$order', `must name one of ${DEAL_ORDER_KEYS.join(', ')}`);
  return { key, descending: order[1].toUpperCase() === 'DESC' };
}

/** `POST /deals/filter` and the deprecated `GET /deals`: deals of the brand and its sub-brands. */
export async function filterDeals(
  deps: Deps,
  actor: Actor,
  brand: string,
  body: Omit<FilterDealsBody, 'brand'>,
  associations: Set<string>,
) {
  await requireAccess(deps.db, actor, brand, 'Deals');
  const { key, descending } = parseOrder(body.$order);
  // Unknown keys are ignored, as everywhere (decisions §1): only the named groups, and only when set to true.
  const groups = Object.entries(body.status ?? {})
    .filter(([group, on]) => on === true && Object.hasOwn(STATUS_GROUPS, group))
    .map(([group]) => group as StatusGroup);
  const filter: repo.DealFilter = {
    brands: await subtreeIds(deps.db, brand),
    query: body.query ? prefixQuery(body.query) : null,
    statuses: groups.length > 0 ? groups.flatMap((g) => [...STATUS_GROUPS[g]]) : null,
    dealType: body.deal_type ?? null,
  };
  const { rows, total } = await repo.filterDealsPage(deps.db, filter, {
    order: key,
    descending,
    start: body.start,
    limit: body.limit,
  });
  return { records: await presentDeals(deps.db, rows, associations), total };
}
