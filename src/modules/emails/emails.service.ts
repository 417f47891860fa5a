// Email campaigns (spec 2.6, decisions §2 Marketing ACL, §7, §15; docs/emails.md). Every method checks access
// first; a campaign of a brand the actor cannot reach with Marketing answers 404. Creating or rescheduling a
// campaign enqueues its execution (emails.execute) at due_at in the same transaction.
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Actor } from '../auth/index.js';
import { requireAccess, subtreeIds } from '../brands/index.js';
import { campaignFieldsOf, type CampaignInput } from './emails.input.js';
import { requireSendingCredential } from '../extmail/index.js';
import { presentCampaign, presentCampaigns } from './emails.presenter.js';
import * as repo from './emails.repository.js';
import type { EmailCampaignRecord, ListCampaignsQuery, UpdateCampaignBody } from './emails.schemas.js';
import { executeCampaignTask } from './emails.tasks.js';
import { checkQuota, NOT_COUNTED } from './quota.js';

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

export async function createCampaign(
  deps: Deps,
  actor: Actor,
  brand: string,
  body: CampaignInput,
): Promise<EmailCampaignRecord> {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const now = deps.clock.now();
  const fields = campaignFieldsOf(body, now);
  await checkReferences(deps.db, brand, fields);
  if (fields.extmail_credential)
    await requireSendingCredential(deps.db, actor.userId!, brand, fields.extmail_credential);
  const row = await deps.db.transaction().execute(async (trx) => {
    const quota = await checkQuota(trx, actor.userId!, brand, fields, now);
    const inserted = await repo.insertCampaign(trx, brand, actor.userId!, fields, quota, now);
    await scheduleExecution(trx, deps, inserted);
    return inserted;
  });
  return presentCampaign(deps.db, row);
}

/** A live campaign the actor may see (Marketing on its brand), else 404. */
async function reachableCampaign(
  db: Kysely<DB>,
  actor: Actor,
  id: string,
  forUpdate = false,
): Promise<repo.CampaignRow> {
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
    extmail_credential: has('extmail_credential') ? body.extmail_credential : row.extmail_credential,
  };
}

export async function updateCampaign(
  deps: Deps,
  actor: Actor,
  id: string,
  body: UpdateCampaignBody,
): Promise<EmailCampaignRecord> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await reachableCampaign(trx, actor, id, true);
    if (current.executed_at || current.queued_through !== null)
      throw errors.conflict('This email campaign has been sent and can no longer change');
    const now = deps.clock.now();
    const fields = campaignFieldsOf(inputOf(current, body), now);
    await checkReferences(trx, current.brand, fields);
    if (fields.extmail_credential && fields.extmail_credential !== current.extmail_credential)
      await requireSendingCredential(trx, actor.userId!, current.brand, fields.extmail_credential);
    const quota = current.template
      ? NOT_COUNTED
      : await checkQuota(trx, current.created_by, current.brand, fields, now, { current: id });
    const updated = await repo.updateCampaign(trx, id, fields, quota, now);
    if (updated.due_at.getTime() !== current.due_at.getTime()) await scheduleExecution(trx, deps, updated);
    return updated;
  });
  return presentCampaign(deps.db, row);
}

export async function deleteCampaign(deps: Deps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await reachableCampaign(trx, actor, id, true);
    if (current.executed_at || current.queued_through !== null)
      throw errors.conflict('This email campaign has been sent and can no longer be deleted');
    if (await deps.moduleHooks.campaignInUse(trx, id))
      throw errors.conflict('This email campaign is the template of a trigger; delete the trigger instead');
    await repo.softDeleteCampaign(trx, id, deps.clock.now());
  });
}

/** What a campaign scheduled by the server itself says (a trigger's template, a brand trigger). */
export type CampaignContent = Pick<
  repo.CampaignFields,
  'subject' | 'html' | 'text' | 'include_signature' | 'headers' | 'notifications_enabled' | 'archive' | 'tags'
>;

/**
 * Schedules an individual campaign to these contacts of `brand` (modules/triggers), due at `dueAt`, sent by
 * `sender` and counted against their quota: over it, the AppError 429 of checkQuota. No access check: the
 * trigger's owner decided when it was made.
 */
export async function scheduleForContactsIn(
  trx: Transaction<DB>,
  deps: Deps,
  brand: string,
  sender: string,
  content: CampaignContent,
  contacts: readonly string[],
  dueAt: Date,
): Promise<repo.CampaignRow> {
  const now = deps.clock.now();
  const fields: repo.CampaignFields = {
    ...content,
    individual: true,
    recipients: { to: contacts.map((contact) => ({ recipient_type: 'Contact' as const, contact })), cc: [], bcc: [] },
    due_at: dueAt,
    extmail_credential: null,
  };
  const quota = await checkQuota(trx, sender, brand, fields, now, { planned: contacts.length });
  const campaign = await repo.insertCampaign(trx, brand, sender, fields, quota, now);
  await scheduleExecution(trx, deps, campaign);
  return campaign;
}

/** A copy of a trigger's template campaign for its contact (scheduleForContactsIn). */
export async function scheduleCopyIn(
  trx: Transaction<DB>,
  deps: Deps,
  template: repo.CampaignRow,
  sender: string,
  contact: string,
  dueAt: Date,
): Promise<repo.CampaignRow> {
  const { subject, html, text, include_signature, headers, notifications_enabled, archive, tags } = template;
  return scheduleForContactsIn(
    trx,
    deps,
    template.brand,
    sender,
    { subject, html, text, include_signature, headers, notifications_enabled, archive, tags },
    [contact],
    dueAt,
  );
}
