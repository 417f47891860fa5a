// Contacts (decisions §7, §14): brand-owned, CRM ACL. Every method checks access first; every change records
// its `Contacts` event in the outbox within the same transaction.
import type { Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors, type ErrorAttributes } from '../../errors.js';
import { recordEvents } from '../../events/outbox.js';
import type { Actor, BearerRead } from '../auth/index.js';
import { isUuid } from '../../lib/uuid.js';
import { assertReach, reachFrom, requireAccess, type ReachColumns, findLiveBrand } from '../brands/index.js';
import { prefixTerms } from '../../lib/search-words.js';
import { applyContactInput, EMPTY_CONTACT, isCleanText, type ContactFields } from './contacts.input.js';
import { presentContact, presentContacts } from './contacts.presenter.js';
import * as repo from './contacts.repository.js';
import {
  CONTACT_ORDER_KEYS,
  type ContactInput,
  type ContactOrderKey,
  type ContactRecord,
  type CreateContactsBody,
  type ListContactsQuery,
} from './contacts.schemas.js';

/** Why a contact changed (created_for / updated_for / deleted_for). */
export type ChangeReason =
  | 'direct_request'
  | 'import_csv'
  | 'lead_capture'
  | 'demo_seed'
  | 'deal_closed'
  | 'unsubscribe_link'
  | 'extmail_sync'
  | 'alert_preferences';

function throwIfInvalid(attributes: ErrorAttributes): void {
  const [field, messages] = Object.entries(attributes)[0] ?? [];
  if (field) throw errors.validation(`${field} ${messages?.[0] ?? 'is invalid'}`, attributes);
}

export function contactEvents(rows: repo.ContactRow[], event: 'create' | 'update' | 'delete') {
  return rows.map((row) => ({
    brand: row.brand,
    topic: 'Contacts' as const,
    event,
    subject: row.id,
    payload: { contact: presentContact(row) },
  }));
}

/** Validated fields of every input, or one 400 naming each bad field (by index in a bulk body). */
export function contactFieldsOf(inputs: ContactInput[], bulk: boolean): ContactFields[] {
  const attributes: ErrorAttributes = {};
  const fields = inputs.map((input, i) =>
    applyContactInput(EMPTY_CONTACT, input, attributes, bulk ? `contacts.${i}.` : ''),
  );
  throwIfInvalid(attributes);
  return fields;
}

/** Inserts contacts of one brand and their `create` events, in `trx`. No access check: callers do it. */
export async function insertContactsIn(
  trx: Transaction<DB>,
  deps: Pick<Deps, 'clock'>,
  brand: string,
  userId: string | null,
  fields: ContactFields[],
  reason: ChangeReason,
  ids?: string[],
) {
  const at = deps.clock.now();
  const rows = await repo.insertContacts(
    trx,
    fields.map((f, i) => ({ ...(ids?.[i] ? { id: ids[i] } : {}), brand, user_id: userId, fields: f, reason, at })),
  );
  await recordEvents(trx, contactEvents(rows, 'create'));
  return rows;
}

export async function createContacts(
  deps: Deps,
  actor: Actor,
  brand: string,
  body: CreateContactsBody,
): Promise<{ bulk: boolean; records: ContactRecord[] }> {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const bulk = body.contacts !== undefined;
  const fields = contactFieldsOf(body.contacts ?? [body], bulk);
  const rows = await deps.db
    .transaction()
    .execute((trx) => insertContactsIn(trx, deps, brand, actor.userId, fields, 'direct_request'));
  return { bulk, records: rows.map(presentContact) };
}

/** A live contact the actor may see (CRM on its brand), else 404: another brand's contact does not exist for them. */
export async function reachableContact(
  db: Deps['db'],
  actor: Actor,
  id: string,
  forUpdate = false,
): Promise<repo.ContactRow> {
  const row = await repo.findContact(db, id, { forUpdate });
  if (!row) throw errors.notFound('Contact');
  await requireAccess(db, actor, row.brand, 'CRM', { denied: 'notFound' });
  return row;
}

/** Every id names a live contact the actor may see (CRM on its brand); else 404, as for one contact. */
export async function requireReachableContacts(db: Deps['db'], actor: Actor, ids: readonly string[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const brands = await repo.brandsOfLiveContacts(db, unique);
  if (brands.size !== unique.length) throw errors.notFound('Contact');
  for (const brand of new Set(brands.values())) await requireAccess(db, actor, brand, 'CRM', { denied: 'notFound' });
}

/**
 * `config.bearerRead` of `GET /contacts/:id` (modules/auth/authenticate.ts): the token, the contact of the path and the
 * caller's reach on its brand in one round trip. Authentication runs before the schema checks the path, so an
 * `:id` that is not a uuid reads no contact (the schema then answers 400).
 */
export function contactBearerRead(deps: Deps): BearerRead {
  return (tokenHash, request) => {
    const id = (request.params as { id?: unknown } | undefined)?.id;
    return repo.findBearerWithContact(deps.database, tokenHash, typeof id === 'string' && isUuid(id) ? id : null);
  };
}

/**
 * `withBearer`: the contact and its reach as bearer authentication read them (repo.findBearerWithContact), else
 * they are read here.
 */
export async function getContact(
  deps: Deps,
  actor: Actor,
  id: string,
  associations: Set<string>,
  withBearer?: repo.BearerWithContact | null,
): Promise<ContactRecord> {
  // The same rule as reachableContact, with the contact and its brand's reach read in one round trip.
  let found: { row: repo.ContactRow; reach: ReachColumns } | undefined;
  if (withBearer) {
    if (withBearer.contact !== null)
      found = { row: repo.contactRowOfJson(withBearer.contact), reach: withBearer as ReachColumns };
  } else {
    const row = await repo.findContactWithReach(deps.database, id, actor.userId);
    if (row) found = { row, reach: row };
  }
  if (!found) throw errors.notFound('Contact');
  assertReach(actor, reachFrom(found.reach), 'CRM', { denied: 'notFound' });
  const [record] = await presentContacts(deps, [found.row], associations);
  return record as ContactRecord;
}

export async function updateContact(
  deps: Deps,
  actor: Actor,
  id: string,
  input: ContactInput,
  associations: Set<string>,
): Promise<ContactRecord> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await reachableContact(trx, actor, id, true);
    const attributes: ErrorAttributes = {};
    const fields = applyContactInput(repo.fieldsOf(current), input, attributes);
    throwIfInvalid(attributes);
    const updated = await repo.updateContact(trx, id, fields, 'direct_request', deps.clock.now());
    await recordEvents(trx, contactEvents([updated], 'update'));
    await deps.moduleHooks.replanContactTriggers(trx, deps, [id]);
    return updated;
  });
  const [record] = await presentContacts(deps, [row], associations);
  return record as ContactRecord;
}

/**
 * Sets `home_anniversary` of these live contacts (a closed purchase, modules/deals) in `trx`, with their
 * Contacts/update events. No access check: the caller decided. Contacts deleted meanwhile are skipped.
 */
export async function setHomeAnniversaryIn(
  trx: Transaction<DB>,
  deps: Pick<Deps, 'clock' | 'queue' | 'moduleHooks'>,
  ids: string[],
  date: string,
  reason: ChangeReason,
): Promise<void> {
  if (ids.length === 0) return;
  const at = deps.clock.now();
  const updated: repo.ContactRow[] = [];
  for (const row of await repo.findContactsForUpdate(trx, [...new Set(ids)])) {
    updated.push(await repo.updateContact(trx, row.id, { ...repo.fieldsOf(row), home_anniversary: date }, reason, at));
  }
  await recordEvents(trx, contactEvents(updated, 'update'));
  await deps.moduleHooks.replanContactTriggers(
    trx,
    deps,
    updated.map((r) => r.id),
  );
}

/**
 * Marks the brand's live contacts with this address (lower-cased key) unsubscribed from marketing mail, with
 * their Contacts/update events, in `trx`; answers their ids. No access check: a signed unsubscribe link decided.
 */
export async function unsubscribeContactsIn(
  trx: Transaction<DB>,
  deps: Pick<Deps, 'clock'>,
  brand: string,
  emailKey: string,
): Promise<string[]> {
  const at = deps.clock.now();
  const ids = await repo.liveContactIdsWithEmail(trx, brand, emailKey);
  if (ids.length === 0) return [];
  const updated: repo.ContactRow[] = [];
  for (const row of await repo.findContactsForUpdate(trx, ids)) {
    if (row.unsubscribed) continue;
    updated.push(
      await repo.updateContact(trx, row.id, { ...repo.fieldsOf(row), unsubscribed: true }, 'unsubscribe_link', at),
    );
  }
  await recordEvents(trx, contactEvents(updated, 'update'));
  return ids;
}

export async function deleteContacts(deps: Deps, actor: Actor, ids: string[]): Promise<void> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  await deps.db.transaction().execute(async (trx) => {
    const rows = await repo.findContactsForUpdate(trx, wanted);
    if (rows.length !== wanted.length) throw errors.notFound(wanted.length === 1 ? 'Contact' : 'One of the contacts');
    for (const brand of new Set(rows.map((r) => r.brand)))
      await requireAccess(trx, actor, brand, 'CRM', { denied: 'notFound' });
    const deleted = await repo.softDeleteContacts(trx, wanted, 'direct_request', deps.clock.now());
    await recordEvents(trx, contactEvents(deleted, 'delete'));
    await deps.moduleHooks.replanContactTriggers(trx, deps, wanted);
  });
}

function parseOrder(order: string | undefined): { key: ContactOrderKey; descending: boolean } {
  const text = (order ?? '+display_name').replace(/^ /, '+').trim();
  const descending = text.startsWith('-');
  const key = text.replace(/^[+-]/, '') as ContactOrderKey;
  if (!CONTACT_ORDER_KEYS.includes(key))
    throw errors.invalidField('order', `must be + or - followed by one of ${CONTACT_ORDER_KEYS.join(', ')}`);
  return { key, descending };
}

export async function listContacts(
  deps: Deps,
  actor: Actor,
  brand: string,
  query: ListContactsQuery,
  associations: Set<string>,
) {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const { key, descending } = parseOrder(query.order);
  if (query.q !== undefined && !isCleanText(query.q))
    throw errors.invalidField('q', 'must be text without the NUL character');
  const tags = query.tags ?? [];
  tags.forEach((tag, i) => {
    if (!isCleanText(tag)) throw errors.invalidField(`tags.${i}`, 'must be text without the NUL character');
  });
  const filter: repo.ContactFilter = {
    brand,
    words: query.q ? prefixTerms(query.q) : [],
    tags: tags.map((t) => t.trim()),
  };
  const { rows, total } = await repo.findContactsPage(deps.db, {
    ...filter,
    order: key,
    descending,
    start: query.start,
    limit: query.limit,
  });
  return { records: await presentContacts(deps, rows, associations), total };
}

export async function listTags(deps: Deps, actor: Actor, brand: string) {
  await requireAccess(deps.db, actor, brand, 'CRM');
  return (await repo.tagCounts(deps.db, brand)).map((t) => ({
    type: 'contact_tag' as const,
    tag: t.tag,
    count: t.count,
  }));
}

/**
 * Writes checked contacts into a brand (an operator's import: no actor), all in one transaction, in batches of
 * 1,000 with their events; their search words are written once at the end (repo.deferContactWords). Answers how
 * many were created.
 */
export async function importContacts(
  deps: Deps,
  brand: string,
  fields: ContactFields[],
  onProgress?: (done: number, total: number) => void,
): Promise<number> {
  if (!(await findLiveBrand(deps.db, brand))) throw errors.notFound('Brand');
  const BATCH = 1000;
  await deps.db.transaction().execute(async (trx) => {
    await repo.deferContactWords(trx);
    const ids: string[] = [];
    for (let i = 0; i < fields.length; i += BATCH) {
      ids.push(
        ...(await insertContactsIn(trx, deps, brand, null, fields.slice(i, i + BATCH), 'import_csv')).map(
          (row) => row.id,
        ),
      );
      onProgress?.(Math.min(i + BATCH, fields.length), fields.length);
    }
    await repo.fillContactWords(trx, ids);
  });
  return fields.length;
}
