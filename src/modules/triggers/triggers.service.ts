// Triggers (spec 2.6, 4.5; decisions §2 CRM ACL, §7; docs/triggers.md). A trigger of a brand the actor cannot
// reach with CRM answers 404. Creating or changing one plans its fire time and enqueues its execution in the same
// transaction; the campaign it names becomes its template (never sent on its own).
import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Actor } from '../auth/index.js';
import { brandReach, requireAccess } from '../brands/index.js';
import { findContact } from '../contacts/index.js';
import { findLiveUserTimezone } from '../users/index.js';
import * as campaigns from '../emails/index.js';
import { nextFireTime } from './fire-time.js';
import { ruleOf, scheduleExecution, stillFiresAt } from './planner.js';
import { presentTriggers } from './triggers.presenter.js';
import * as repo from './triggers.repository.js';
import type { CreateTriggerBody, FilterTriggersQuery, TriggerRecord, UpdateTriggerBody } from './triggers.schemas.js';
import type { TriggerEventType } from './triggers.columns.js';

/** The contact's date of the event: a live contact of the brand (else 404) that has it (else 400). */
async function contactDate(
  db: Kysely<DB>,
  brand: string,
  contact: string,
  eventType: TriggerEventType,
): Promise<string> {
  const row = await findContact(db, contact.toLowerCase());
  if (!row || row.brand !== brand) throw errors.notFound('Contact');
  const date = row[eventType];
  if (!date) throw errors.invalidField('contact', `has no ${eventType.replace('_', ' ')}`);
  return date;
}

/** The trigger's user must reach the brand (they send its email); their time zone plans it. Else 404. */
async function userTimeZone(db: Kysely<DB>, brand: string, user: string): Promise<string> {
  const reach = await brandReach(db, user.toLowerCase(), brand);
  if (!reach?.acl) throw errors.notFound('User');
  const row = await findLiveUserTimezone(db, user.toLowerCase());
  if (!row) throw errors.notFound('User');
  return row.timezone;
}

/** The template: a live campaign of the brand that the actor may use (Marketing), else 404. */
async function templateCampaign(
  trx: Transaction<DB>,
  actor: Actor,
  brand: string,
  id: string,
  now: Date,
): Promise<string> {
  const row = await campaigns.findCampaign(trx, id.toLowerCase(), { forUpdate: true });
  if (!row || row.brand !== brand) throw errors.notFound('Email campaign');
  await requireAccess(trx, actor, brand, 'Marketing', { denied: 'notFound' });
  await campaigns.markTemplate(trx, row.id, now);
  return row.id;
}

async function present(db: Kysely<DB>, row: repo.TriggerRow, associations: Set<string>): Promise<TriggerRecord> {
  return (await presentTriggers(db, [row], associations))[0]!;
}

export async function createTrigger(
  deps: Deps,
  actor: Actor,
  brand: string,
  body: CreateTriggerBody,
  associations: Set<string>,
): Promise<TriggerRecord> {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const row = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const date = await contactDate(trx, brand, body.contact, body.event_type);
    const user = (body.user ?? actor.userId!).toLowerCase();
    const timeZone = await userTimeZone(trx, brand, user);
    const campaign = await templateCampaign(trx, actor, brand, body.campaign, now);
    const time = body.time ?? null;
    const effectiveAt = nextFireTime(ruleOf({ time, wait_for: body.wait_for }, date, timeZone), now);
    const inserted = await repo.insertTrigger(
      trx,
      {
        brand,
        user,
        created_by: actor.userId!,
        contact: body.contact.toLowerCase(),
        event_type: body.event_type,
        wait_for: body.wait_for,
        time,
        recurring: body.recurring ?? false,
        campaign,
        effective_at: effectiveAt,
        scheduled_after: null,
      },
      now,
    );
    await scheduleExecution(trx, deps, inserted);
    return inserted;
  });
  return present(deps.db, row, associations);
}

/** A live trigger the actor may see (CRM on its brand), else 404. */
async function reachableTrigger(db: Kysely<DB>, actor: Actor, id: string, forUpdate = false): Promise<repo.TriggerRow> {
  const row = await repo.findTrigger(db, id.toLowerCase(), { forUpdate });
  if (!row) throw errors.notFound('Trigger');
  await requireAccess(db, actor, row.brand, 'CRM', { denied: 'notFound' });
  return row;
}

export async function getTrigger(
  deps: Deps,
  actor: Actor,
  id: string,
  associations: Set<string>,
): Promise<TriggerRecord> {
  return present(deps.db, await reachableTrigger(deps.db, actor, id), associations);
}

export async function updateTrigger(
  deps: Deps,
  actor: Actor,
  id: string,
  body: UpdateTriggerBody,
  associations: Set<string>,
): Promise<TriggerRecord> {
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await reachableTrigger(trx, actor, id, true);
    if (current.executed_at) throw errors.conflict('This trigger has been executed and can no longer change');
    if (current.failed_at) throw errors.conflict('This trigger has failed and can no longer change; create a new one');
    const now = deps.clock.now();
    const eventType = body.event_type ?? current.event_type;
    const user = (body.user ?? current.user).toLowerCase();
    const time = body.time === undefined ? current.time : body.time;
    const waitFor = body.wait_for ?? current.wait_for;
    const date = await contactDate(trx, current.brand, current.contact, eventType);
    const rule = ruleOf({ time, wait_for: waitFor }, date, await userTimeZone(trx, current.brand, user));
    const campaign =
      body.campaign && body.campaign.toLowerCase() !== current.campaign
        ? await templateCampaign(trx, actor, current.brand, body.campaign, now)
        : current.campaign;
    const unchanged = eventType === current.event_type && stillFiresAt(rule, current.effective_at);
    const effectiveAt = unchanged ? current.effective_at : nextFireTime(rule, now);
    const updated = await repo.updateTrigger(
      trx,
      current.id,
      {
        user,
        event_type: eventType,
        wait_for: waitFor,
        time,
        recurring: body.recurring ?? current.recurring,
        campaign,
        effective_at: effectiveAt,
      },
      now,
    );
    if (!unchanged) await scheduleExecution(trx, deps, updated);
    return updated;
  });
  return present(deps.db, row, associations);
}

/**
 * Deletes the trigger and the rest of its recurring chain, and cancels what has not been sent: the campaigns
 * they scheduled, and the template when no other live trigger uses it.
 */
export async function deleteTrigger(deps: Deps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const current = await reachableTrigger(trx, actor, id, true);
    const chain = await repo.chainFrom(trx, current.id);
    const ids = chain.map((t) => t.id);
    const now = deps.clock.now();
    await repo.softDeleteTriggers(trx, ids, now);
    const scheduled = chain.flatMap((t) => (t.sent_campaign ? [t.sent_campaign] : []));
    const templates = [...new Set(chain.map((t) => t.campaign))];
    const unused = [];
    for (const template of templates) if (!(await repo.campaignInUse(trx, template, ids))) unused.push(template);
    for (const campaign of await campaigns.campaignsByIds(trx, [...scheduled, ...unused])) {
      if (!campaign.executed_at && !campaign.deleted_at) await campaigns.softDeleteCampaign(trx, campaign.id, now);
    }
  });
}

export async function filterTriggers(
  deps: Deps,
  actor: Actor,
  brand: string,
  query: FilterTriggersQuery,
  associations: Set<string>,
) {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const filter: repo.TriggerFilter = {
    brand,
    eventTypes: query.event_types,
    actions: query.actions,
    contacts: query.contacts?.map((c) => c.toLowerCase()),
  };
  const total = await repo.countTriggers(deps.db, filter);
  const rows = await repo.listTriggers(deps.db, filter, query.start, query.limit);
  return { records: await presentTriggers(deps.db, rows, associations), total };
}

/** `contact.triggers`: the current triggers of each contact (docs/triggers.md). */
export async function triggersOfContacts(
  db: Kysely<DB>,
  contacts: string[],
  associations: Set<string>,
): Promise<Map<string, TriggerRecord[]>> {
  const rows = await repo.currentOfContacts(db, contacts);
  const records = await presentTriggers(db, rows, associations);
  const byContact = new Map<string, TriggerRecord[]>();
  for (const record of records) byContact.set(record.contact, [...(byContact.get(record.contact) ?? []), record]);
  return byContact;
}
