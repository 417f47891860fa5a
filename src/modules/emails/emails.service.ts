// Email campaigns (spec 2.6, decisions §2 Marketing ACL, §7, §15; docs/emails.md). Every method checks access
// first; a campaign of a brand the actor cannot reach with Marketing answers 404. Creating or rescheduling a
// campaign enqueues its execution (emails.execute) at due_at in the same transaction.
import type { Kysely } from 'kysely';
import type { Deps } from '../../deps.js';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Actor } from '../../platform/auth.js';
import { requireAccess, subtreeIds } from '../brands/access.js';
import { campaignFieldsOf, type CampaignInput } from './emails.input.js';
import { presentCampaign, presentCampaigns } from './emails.presenter.js';
import * as repo from './emails.repository.js';
import type { EmailCampaignRecord, ListCampaignsQuery, UpdateCampaignBody } from './emails.schemas.js';
import { executeCampaignTask } from './emails.tasks.js';

/**
 * Named contacts, tags and brands must exist in the campaign's brand (a brand: it or one of its sub-brands);
 * anything else is 404, so another brand's records are not revealed.
 */
async function checkReferences(db: Kysely<DB>, brand: string, fields: repo.CampaignFields): Promise<void> {
  const all = [...fields.recipients.to, ...fields.recipients.cc, ...fields.recipients.bcc];
  const contacts = [...new Set(all.flatMap((r) => (r.recipient_type === 'Contact' && r.contact ? [r.contact] : [])))];
  if ((await repo.contactsOfBrand(db, brand, contacts)).length !== contacts.length) throw errors.notFound('Contact');
  const tags = [...new Set(all.flatMap((r) => (r.recipient_type === 'Tag' && r.tag ? [r.tag] : [])))];
  if ((await repo.existingTags(db, brand, tags)).size !== tags.length) throw errors.notFound('Tag');
  const brands = all.flatMap((r) => (r.recipient_type === 'Brand' && r.brand ? [r.brand] : []));
  if (brands.length > 0) {
    const subtree = new Set(await subtreeIds(db, brand));
    if (brands.some((b) => !subtree.has(b))) throw errors.notFound('Brand');
  }
}

async function scheduleExecution(trx: Kysely<DB>, deps: Deps, row: repo.CampaignRow): Promise<void> {
  await deps.queue.enqueue(trx, executeCampaignTask, { campaign: row.id }, { startAfter: row.due_at });
}

export async function createCampaign(deps: Deps, actor: Actor, brand: string, body: CampaignInput): Promise<EmailCampaignRecord> {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const now = deps.clock.now();
  const fields = campaignFieldsOf(body, now);
  await checkReferences(deps.db, brand, fields);
  const row = await deps.db.transaction().execute(async (trx) => {
    const inserted = await repo.insertCampaign(trx, brand, actor.userId!, fields, now);
    await scheduleExecution(trx, deps, inserted);
    return inserted;
  });
  return presentCampaign(deps.db, row);
}

/** A live campaign the actor may see (Marketing on its brand), else 404. */
async function reachableCampaign(db: Kysely<DB>, actor: Actor, id: string, forUpdate = false): Promise<repo.CampaignRow> {
  const row = await repo.findCampaign(db, id, { forUpdate });
  if (!row) throw errors.notFound('Email campaign');
  await requireAccess(db, actor, row.brand, 'Marketing', { denied: 'notFound' });
  return row;
}

export async function getCampaign(deps: Deps, actor: Actor, id: string): Promise<EmailCampaignRecord> {
  return presentCampaign(deps.db, await reachableCampaign(deps.db, actor, id));
}

export async function listCampaigns(deps: Deps, actor: Actor, brand: string, query: ListCampaignsQuery) {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const total = await repo.countCampaigns(deps.db, brand);
  const rows = await repo.listCampaigns(deps.db, brand, query.start, query.limit);
  return { records: await presentCampaigns(deps.db, rows), total };
}

function inputOf(row: repo.CampaignRow, body: UpdateCampaignBody): CampaignInput {
  const has = (key: keyof UpdateCampaignBody) => body[key] !== undefined;
  return {
    subject: body.subject ?? row.subject,
    html: body.html ?? row.html,
    text: has('text') ? body.text : row.text,
    // A PATCH without due_at keeps the planned time (even if it has passed: it is due now).
    due_at: has('due_at') ? body.due_at : row.due_at.getTime() / 1000,
    include_signature: body.include_signature ?? row.include_signature,
    individual: body.individual ?? row.individual,
    headers: body.headers ?? row.headers,
    to: body.to ?? row.recipients.to,
    cc: body.cc ?? row.recipients.cc,
    bcc: body.bcc ?? row.recipients.bcc,
    notifications_enabled: body.notifications_enabled ?? row.notifications_enabled,
    archive: body.archive ?? row.archive,
    tags: body.tags ?? row.tags,
  };
}

export async function updateCampaign(deps: Deps, actor: Actor, id: string, body: UpdateCampaignBody): Promise<EmailCampaignRecord> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await reachableCampaign(trx, actor, id, true);
    if (current.executed_at) throw errors.conflict('This email campaign has been sent and can no longer change');
    const now = deps.clock.now();
    const fields = campaignFieldsOf(inputOf(current, body), now);
    await checkReferences(trx, current.brand, fields);
    const updated = await repo.updateCampaign(trx, id, fields, now);
    if (updated.due_at.getTime() !== current.due_at.getTime()) await scheduleExecution(trx, deps, updated);
    return updated;
  });
  return presentCampaign(deps.db, row);
}

export async function deleteCampaign(deps: Deps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await reachableCampaign(trx, actor, id, true);
    if (current.executed_at) throw errors.conflict('This email campaign has been sent and can no longer be deleted');
    await repo.softDeleteCampaign(trx, id, deps.clock.now());
  });
}
