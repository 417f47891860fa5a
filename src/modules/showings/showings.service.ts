// Showings (decisions §17): brand-owned, CRM ACL. Every change records its Showings event (to the showing's
// brand only) in the same transaction; a showing with a contact records an activity on the contact's timeline.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import { recordEvent } from '../../events/outbox.js';
import { epochSeconds } from '../../lib/clock.js';
import type { Actor } from '../auth/index.js';
import { brandReach, requireAccess } from '../brands/index.js';
import { findContact, recordActivityIn } from '../contacts/index.js';
import { findListingSummary } from '../listings/index.js';
import * as repo from './showings.repository.js';
import type { CreateShowingBody, ListShowingsQuery, ShowingRecord, UpdateShowingBody } from './showings.schemas.js';

export function presentShowing(row: repo.ShowingRow): ShowingRecord {
  return {
    id: row.id,
    type: 'showing',
    brand: row.brand,
    listing: row.listing,
    contact: row.contact,
    agent: row.agent,
    start_time: epochSeconds(row.start_time),
    end_time: epochSeconds(row.end_time),
    status: row.status,
    notes: row.notes,
    feedback: row.feedback,
    created_by: row.created_by,
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
  };
}

const fromEpoch = (seconds: number) => new Date(Math.round(seconds * 1000));
const clean = (value: string | null | undefined): string | null =>
  value == null || value.trim() === '' ? null : value;

/** A live contact of `brand`, locked for its timeline (another brand's contact → 404). */
async function brandContact(trx: Transaction<DB>, brand: string, id: string) {
  const contact = await findContact(trx, id.toLowerCase(), { forUpdate: true });
  if (!contact || contact.brand !== brand) throw errors.notFound('Contact');
  return contact;
}

/** The agent must be a member of the brand or an ancestor (else 404: other brands' users are not revealed). */
async function checkAgent(db: Kysely<DB>, brand: string, agent: string): Promise<string> {
  const reach = await brandReach(db, agent, brand);
  if (!reach?.acl) throw errors.notFound('Agent');
  return agent.toLowerCase();
}

function checkTimes(fields: repo.ShowingFields): void {
  if (fields.end_time.getTime() < fields.start_time.getTime())
    throw errors.invalidField('end_time', 'must not be before start_time');
}

const showingEvent = (row: repo.ShowingRow, event: 'showing.created' | 'showing.updated') => ({
  brand: row.brand,
  topic: 'Showings' as const,
  event,
  subject: row.id,
  payload: { showing: presentShowing(row) },
});

export async function createShowing(
  deps: Deps,
  actor: Actor,
  brand: string,
  body: CreateShowingBody,
): Promise<ShowingRecord> {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const row = await deps.db.transaction().execute(async (trx) => {
    const fields: repo.ShowingFields = {
      contact: null,
      agent: await checkAgent(trx, brand, body.agent ?? (actor.userId as string)),
      start_time: fromEpoch(body.start_time),
      end_time: fromEpoch(body.end_time),
      status: body.status ?? 'Requested',
      notes: clean(body.notes),
      feedback: clean(body.feedback),
    };
    checkTimes(fields);
    const listing = body.listing.toLowerCase();
    if (!(await findListingSummary(trx, { id: listing }))) throw errors.notFound('Listing');
    const contact = body.contact ? await brandContact(trx, brand, body.contact) : null;
    const created = await repo.insertShowing(trx, {
      ...fields,
      contact: contact?.id ?? null,
      brand,
      listing,
      created_by: actor.userId,
      at: deps.clock.now(),
    });
    if (contact)
      await recordActivityIn(
        trx,
        deps,
        contact,
        { action: 'ContactScheduledShowing', listing: { id: listing }, notes: `Showing ${created.id}` },
        actor.userId,
        'direct_request',
      );
    await recordEvent(trx, showingEvent(created, 'showing.created'));
    return created;
  });
  return presentShowing(row);
}

async function reachableShowing(db: Kysely<DB>, actor: Actor, id: string, forUpdate = false): Promise<repo.ShowingRow> {
  const row = await repo.findShowing(db, id, { forUpdate });
  if (!row) throw errors.notFound('Showing');
  await requireAccess(db, actor, row.brand, 'CRM', { denied: 'notFound' });
  return row;
}

export async function getShowing(deps: Deps, actor: Actor, id: string): Promise<ShowingRecord> {
  return presentShowing(await reachableShowing(deps.db, actor, id));
}

export async function updateShowing(
  deps: Deps,
  actor: Actor,
  id: string,
  body: UpdateShowingBody,
): Promise<ShowingRecord> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await reachableShowing(trx, actor, id, true);
    const fields: repo.ShowingFields = {
      contact: current.contact,
      agent: body.agent ? await checkAgent(trx, current.brand, body.agent) : current.agent,
      start_time: body.start_time === undefined ? current.start_time : fromEpoch(body.start_time),
      end_time: body.end_time === undefined ? current.end_time : fromEpoch(body.end_time),
      status: body.status ?? current.status,
      notes: body.notes === undefined ? current.notes : clean(body.notes),
      feedback: body.feedback === undefined ? current.feedback : clean(body.feedback),
    };
    checkTimes(fields);
    const contact = body.contact ? await brandContact(trx, current.brand, body.contact) : null;
    if (body.contact !== undefined) fields.contact = contact?.id ?? null;
    const updated = await repo.updateShowing(trx, id, fields, deps.clock.now());
    // The contact's timeline: a newly attached contact is scheduled; a completed showing was attended.
    const timeline = fields.contact ? (contact ?? (await brandContact(trx, current.brand, fields.contact))) : null;
    if (timeline && timeline.id !== current.contact)
      await recordActivityIn(
        trx,
        deps,
        timeline,
        { action: 'ContactScheduledShowing', listing: { id: current.listing }, notes: `Showing ${id}` },
        actor.userId,
        'direct_request',
      );
    else if (timeline && fields.status === 'Completed' && current.status !== 'Completed')
      await recordActivityIn(
        trx,
        deps,
        timeline,
        { action: 'ContactAttendedShowing', listing: { id: current.listing }, notes: `Showing ${id}` },
        actor.userId,
        'direct_request',
      );
    await recordEvent(trx, showingEvent(updated, 'showing.updated'));
    return updated;
  });
  return presentShowing(row);
}

export async function listShowings(deps: Deps, actor: Actor, brand: string, query: ListShowingsQuery) {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const filter: repo.ShowingFilter = {
    brand,
    from: query.from === undefined ? null : fromEpoch(query.from),
    to: query.to === undefined ? null : fromEpoch(query.to),
    statuses: query.status?.length ? query.status : null,
  };
  const [total, rows] = await Promise.all([
    repo.countShowings(deps.db, filter),
    repo.listShowings(deps.db, filter, query.start, query.limit),
  ]);
  return { records: rows.map(presentShowing), total };
}
