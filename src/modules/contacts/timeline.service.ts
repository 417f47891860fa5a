// A contact's timeline (decisions §7, §14): activities recorded on a contact, newest first. Recording one
// touches the contact (last_touch, last_touch_action) and records, in the same transaction, the Activities
// event with the spec §6 payload and the contact's Contacts update.
import type { Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors, type ErrorAttributes } from '../../errors.js';
import { epochSeconds } from '../../lib/clock.js';
import { recordEvents } from '../../events/outbox.js';
import type { ActivityAction } from '../../events/topics.js';
import type { Actor } from '../auth/index.js';
import { findListingSummary } from '../listings/index.js';
import { isCleanText } from './contacts.input.js';
import { presentContact } from './contacts.presenter.js';
import * as contacts from './contacts.repository.js';
import { reachableContact, type ChangeReason } from './contacts.service.js';
import type { ActivityListing } from './contacts.columns.js';
import * as repo from './timeline.repository.js';
import type { ActivityListingInput, ActivityRecord, RecordActivityBody } from './timeline.schemas.js';

type Attachment = 'listing' | 'lead' | 'search';

/** The actions the spec and existing clients name: what each must carry, and may carry. */
export const KNOWN_ACTIONS: Record<string, { requires: Attachment; allows: Attachment[] }> = {
  ContactViewedListing: { requires: 'listing', allows: ['listing'] },
  ContactFavoritedListing: { requires: 'listing', allows: ['listing'] },
  ContactSharedListing: { requires: 'listing', allows: ['listing'] },
  ContactLeadCaptured: { requires: 'lead', allows: ['lead', 'listing'] },
  ContactCreatedSearch: { requires: 'search', allows: ['search'] },
  ContactRemovedSearch: { requires: 'search', allows: ['search'] },
  ContactSearchedListings: { requires: 'search', allows: ['search'] },
};

const ATTACHMENTS: Attachment[] = ['listing', 'lead', 'search'];

export function presentActivity(row: repo.ActivityRow): ActivityRecord {
  return {
    id: row.id,
    type: 'contact_activity',
    contact: row.contact,
    brand: row.brand,
    action: row.action,
    listing: row.listing,
    lead: row.lead,
    search: row.search,
    notes: row.notes,
    created_by: row.created_by,
    created_at: epochSeconds(row.created_at),
  };
}

/** The Activities payload of spec §6: the activity with only the attachments it has. */
export function activityPayload(row: repo.ActivityRow): { activity: Record<string, unknown> } {
  const activity: Record<string, unknown> = {
    id: row.id,
    action: row.action,
    created_at: epochSeconds(row.created_at),
    contact: row.contact,
  };
  for (const key of ATTACHMENTS) if (row[key] !== null) activity[key] = row[key];
  return { activity };
}

function checkBody(body: RecordActivityBody): void {
  const attributes: ErrorAttributes = {};
  const rule = KNOWN_ACTIONS[body.action];
  if (rule) {
    if (body[rule.requires] == null) attributes[rule.requires] = [`is required for ${body.action}`];
    for (const key of ATTACHMENTS)
      if (body[key] != null && !rule.allows.includes(key)) attributes[key] = [`is not an attachment of ${body.action}`];
  }
  const texts: [string, unknown][] = [
    ['notes', body.notes],
    ...ATTACHMENTS.flatMap((key) =>
      Object.entries(body[key] ?? {}).map(([field, value]) => [`${key}.${field}`, value] as [string, unknown]),
    ),
  ];
  for (const [field, value] of texts) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && !isCleanText(v)))
      attributes[field] = ['must be text without the NUL character'];
  }
  const [field, messages] = Object.entries(attributes)[0] ?? [];
  if (field) throw errors.validation(`${field} ${messages?.[0] ?? 'is invalid'}`, attributes);
}

/**
 * The listing as spec §6 stores it: resolved from the listing store by id, or by MLS number when that is all
 * the client sent; as sent when the client sent the whole summary of a listing we do not hold.
 */
async function resolveListing(
  db: Transaction<DB>,
  input: ActivityListingInput,
  lenient: boolean,
): Promise<ActivityListing | null> {
  if (input.id) {
    const found = await findListingSummary(db, { id: input.id });
    if (found) return found;
    if (lenient) return null;
    throw errors.invalidField('listing.id', 'names no listing');
  }
  if (input.mls_number) {
    const found = await findListingSummary(db, { mls_number: input.mls_number, mls: input.mls ?? null });
    if (found) return found;
    if (!lenient && input.status == null && input.price == null && input.address == null)
      throw errors.invalidField('listing.mls_number', 'names no listing');
    return {
      id: null,
      mls: input.mls ?? null,
      mls_number: input.mls_number,
      status: input.status ?? null,
      price: input.price ?? null,
      address: input.address ?? null,
    };
  }
  if (lenient) return null;
  throw errors.invalidField('listing', 'needs id or mls_number');
}

export interface ActivityInput {
  action: ActivityAction;
  listing?: ActivityListingInput | null;
  lead?: Record<string, unknown> | null;
  search?: Record<string, unknown> | null;
  notes?: string | null;
  /** Leads: a listing we cannot find is kept as sent (or dropped), never a reason to lose the lead. */
  lenientListing?: boolean;
}

/** Records the activity on a (locked, reachable) contact in `trx`, touches the contact, records the events. */
export async function recordActivityIn(
  trx: Transaction<DB>,
  deps: Deps,
  contact: contacts.ContactRow,
  input: ActivityInput,
  createdBy: string | null,
  reason: ChangeReason,
): Promise<repo.ActivityRow> {
  const at = deps.clock.now();
  const listing = input.listing ? await resolveListing(trx, input.listing, input.lenientListing ?? false) : null;
  const row = await repo.insertActivity(trx, {
    contact: contact.id,
    brand: contact.brand,
    action: input.action,
    listing,
    lead: input.lead ?? null,
    search: input.search ?? null,
    notes: input.notes ?? null,
    created_by: createdBy,
    created_at: at,
  });
  const touched = await contacts.updateContact(
    trx,
    contact.id,
    { ...contacts.fieldsOf(contact), last_touch: at, last_touch_action: input.action },
    reason,
    at,
  );
  await recordEvents(trx, [
    { brand: contact.brand, topic: 'Activities', event: input.action, subject: row.id, payload: activityPayload(row) },
    {
      brand: contact.brand,
      topic: 'Contacts',
      event: 'update',
      subject: contact.id,
      payload: { contact: presentContact(touched) },
    },
  ]);
  return row;
}

export async function recordActivity(
  deps: Deps,
  actor: Actor,
  contactId: string,
  body: RecordActivityBody,
): Promise<ActivityRecord> {
  checkBody(body);
  const row = await deps.db.transaction().execute(async (trx) => {
    const contact = await reachableContact(trx, actor, contactId, true);
    return recordActivityIn(
      trx,
      deps,
      contact,
      { ...body, action: body.action as ActivityAction },
      actor.userId,
      'direct_request',
    );
  });
  return presentActivity(row);
}

export async function listTimeline(
  deps: Deps,
  actor: Actor,
  contactId: string,
  paging: { start: number; limit: number },
) {
  const contact = await reachableContact(deps.db, actor, contactId);
  const [rows, total] = await Promise.all([
    repo.listActivities(deps.db, contact.id, paging.start, paging.limit),
    repo.countActivities(deps.db, contact.id),
  ]);
  return { records: rows.map(presentActivity), total };
}
