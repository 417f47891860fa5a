// Brand triggers (issue 10 item 4; docs/triggers.md): one per brand and event type, CRM ACL on the brand (else
// 403). Setting one makes the caller its sender; its emails go out from the sweep (brand-triggers.sweep.ts).
import type { Kysely } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors, type ErrorAttributes } from '../../errors.js';
import { epochSeconds } from '../../lib/clock.js';
import type { Actor } from '../auth/index.js';
import { requireAccess } from '../brands/index.js';
import { findContact } from '../contacts/index.js';
import { addContentProblems, throwIfProblems } from '../emails/index.js';
import * as repo from './brand-triggers.repository.js';
import type { BrandTriggerRecord, PutBrandTriggerBody } from './brand-triggers.schemas.js';
import type { TriggerEventType } from './triggers.columns.js';

function present(row: repo.BrandTriggerRow, exclusions: string[]): BrandTriggerRecord {
  return {
    id: row.id,
    type: 'brand_trigger',
    brand: row.brand,
    event_type: row.event_type,
    user: row.user,
    wait_for: row.wait_for,
    time: row.time,
    subject: row.subject,
    html: row.html,
    enabled: row.enabled,
    exclusions,
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
  };
}

async function presentAll(db: Kysely<DB>, rows: repo.BrandTriggerRow[]): Promise<BrandTriggerRecord[]> {
  const exclusions = await repo.exclusionsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => present(row, exclusions.get(row.id) ?? []));
}

const presentOne = async (db: Kysely<DB>, row: repo.BrandTriggerRow) => (await presentAll(db, [row]))[0]!;

export async function putBrandTrigger(
  deps: Deps,
  actor: Actor,
  brand: string,
  eventType: TriggerEventType,
  body: PutBrandTriggerBody,
): Promise<BrandTriggerRecord> {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const attributes: ErrorAttributes = {};
  addContentProblems(attributes, body);
  throwIfProblems(attributes);
  const settings = {
    user: actor.userId!,
    wait_for: body.wait_for,
    time: body.time ?? null,
    subject: body.subject,
    html: body.html,
  };
  return presentOne(deps.db, await repo.upsertBrandTrigger(deps.db, brand, eventType, settings, deps.clock.now()));
}

export async function listBrandTriggers(deps: Deps, actor: Actor, brand: string): Promise<BrandTriggerRecord[]> {
  await requireAccess(deps.db, actor, brand, 'CRM');
  return presentAll(deps.db, await repo.listBrandTriggers(deps.db, brand));
}

export async function setBrandTriggerEnabled(
  deps: Deps,
  actor: Actor,
  brand: string,
  id: string,
  enabled: boolean,
): Promise<BrandTriggerRecord> {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await repo.findBrandTrigger(trx, brand, { id: id.toLowerCase() });
    if (!current) throw errors.notFound('Brand trigger');
    return current.enabled === enabled ? current : repo.setEnabled(trx, current.id, enabled, deps.clock.now());
  });
  return presentOne(deps.db, row);
}

/** Leaves a contact of the brand out of the brand's trigger of this event (404 for either missing). */
export async function excludeContact(
  deps: Deps,
  actor: Actor,
  brand: string,
  eventType: TriggerEventType,
  contact: string,
  excluded: boolean,
): Promise<BrandTriggerRecord> {
  await requireAccess(deps.db, actor, brand, 'CRM');
  const row = await deps.db.transaction().execute(async (trx) => {
    const trigger = await repo.findBrandTrigger(trx, brand, { eventType });
    if (!trigger) throw errors.notFound('Brand trigger');
    const found = await findContact(trx, contact.toLowerCase());
    if (!found || found.brand !== brand) throw errors.notFound('Contact');
    if (excluded) await repo.addExclusion(trx, trigger.id, found.id, deps.clock.now());
    else await repo.removeExclusion(trx, trigger.id, found.id);
    return trigger;
  });
  return presentOne(deps.db, row);
}
