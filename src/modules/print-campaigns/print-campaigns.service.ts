// Print campaigns (spec 4.9; decisions §2, §11; docs/print-campaigns.md): a brand's use of a template instance.
// Every method needs the Marketing ACL on the brand of the path (403); a campaign of another brand is 404, and so is
// a template instance that is not the brand's (or does not exist).
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { epochSeconds } from '../../lib/clock.js';
import type { Actor } from '../auth/index.js';
import { requireAccess } from '../brands/index.js';
import { findInstance, findInstances, presentInstances } from '../templates/index.js';
import { checkMediums } from '../../render/mediums.js';
import * as repo from './print-campaigns.repository.js';
import {
  PRINT_CAMPAIGN_ORDER_KEYS,
  type CampaignBody,
  type ListCampaignsQuery,
  type PrintCampaignOrderKey,
  type PrintCampaignRecord,
} from './print-campaigns.schemas.js';

const INSTANCE_ASSOCIATION = 'print_campaign.template_instance';

async function present(
  deps: Deps,
  rows: repo.CampaignRow[],
  associations: Set<string>,
): Promise<PrintCampaignRecord[]> {
  const instances = new Map<string, PrintCampaignRecord['template_instance']>();
  if (associations.has(INSTANCE_ASSOCIATION)) {
    const found = await findInstances(deps.db, [...new Set(rows.map((r) => r.template_instance))]);
    for (const record of await presentInstances(deps, found, associations)) instances.set(record.id, record);
  }
  return rows.map((row) => ({
    id: row.id,
    type: 'print_campaign',
    brand: row.brand,
    created_by: row.created_by,
    template_instance: instances.get(row.template_instance) ?? row.template_instance,
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    deleted_at: epochSeconds(row.deleted_at),
  }));
}

async function one(deps: Deps, row: repo.CampaignRow, associations: Set<string>): Promise<PrintCampaignRecord> {
  const [record] = await present(deps, [row], associations);
  return record as PrintCampaignRecord;
}

/** A live template instance of this brand, else 404 (another brand's instance does not exist for it). */
async function brandInstance(deps: Deps, brand: string, id: string): Promise<string> {
  const instance = await findInstance(deps.db, id);
  if (!instance || instance.brand !== brand) throw errors.notFound('Template instance');
  return instance.id;
}

function parseOrder(order: string | undefined): { key: PrintCampaignOrderKey; descending: boolean } {
  const text = (order ?? '-created_at').replace(/^ /, '+').trim();
  const descending = text.startsWith('-');
  const key = text.replace(/^[+-]/, '') as PrintCampaignOrderKey;
  if (!PRINT_CAMPAIGN_ORDER_KEYS.includes(key))
    throw errors.invalidField('order', `must be + or - followed by one of ${PRINT_CAMPAIGN_ORDER_KEYS.join(', ')}`);
  return { key, descending };
}

export async function listCampaigns(
  deps: Deps,
  actor: Actor,
  brand: string,
  query: ListCampaignsQuery,
  associations: Set<string>,
) {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const { key, descending } = parseOrder(query.order);
  const filter: repo.CampaignFilter = {
    brand,
    user: query.user?.toLowerCase() ?? null,
    mediums: checkMediums(query.mediums),
  };
  const total = await repo.countCampaigns(deps.db, filter);
  const rows =
    query.start >= total
      ? []
      : await repo.listCampaigns(deps.db, filter, { order: key, descending, start: query.start, limit: query.limit });
  return { records: await present(deps, rows, associations), total };
}

export async function createCampaign(
  deps: Deps,
  actor: Actor,
  brand: string,
  body: CampaignBody,
  associations: Set<string>,
): Promise<PrintCampaignRecord> {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const instance = await brandInstance(deps, brand, body.templateInstance);
  const row = await repo.insertCampaign(
    deps.db,
    { brand, created_by: actor.userId as string, template_instance: instance },
    deps.clock.now(),
  );
  return one(deps, row, associations);
}

export async function updateCampaign(
  deps: Deps,
  actor: Actor,
  brand: string,
  id: string,
  body: CampaignBody,
  associations: Set<string>,
): Promise<PrintCampaignRecord> {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const row = await deps.db.transaction().execute(async (trx) => {
    const current = await repo.findCampaign(trx, brand, id, { forUpdate: true });
    if (!current) throw errors.notFound('Print campaign');
    const instance = await brandInstance({ ...deps, db: trx }, brand, body.templateInstance);
    return repo.setInstance(trx, id, instance, deps.clock.now());
  });
  return one(deps, row, associations);
}

export async function getCampaign(
  deps: Deps,
  actor: Actor,
  brand: string,
  id: string,
  associations: Set<string>,
): Promise<PrintCampaignRecord> {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const row = await repo.findCampaign(deps.db, brand, id);
  if (!row) throw errors.notFound('Print campaign');
  return one(deps, row, associations);
}

/** `{type: "print_campaign_stats", <medium>: "<count>"}`: counts as strings (as the published API answers), only mediums that have campaigns. */
export async function campaignStats(
  deps: Deps,
  actor: Actor,
  brand: string,
  user: string | undefined,
): Promise<{ type: 'print_campaign_stats' } & Record<string, string>> {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const stats: { type: 'print_campaign_stats' } & Record<string, string> = { type: 'print_campaign_stats' };
  for (const { medium, count } of await repo.countByMedium(deps.db, brand, user?.toLowerCase() ?? null))
    stats[medium] = String(count);
  return stats;
}
