// Templates (docs/templates.md): global ones (the shipped library) and a brand's own, which the brand and its
// sub-brands see. Reading and writing need the Marketing ACL (decisions §2).
import type { Kysely } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { DB } from '../../db/types.js';
import { errors } from '../../errors.js';
import { epochSeconds } from '../../lib/clock.js';
import type { Actor } from '../auth/index.js';
import { brandReach, requireAccess } from '../brands/index.js';
import { checkMediums } from '../../render/mediums.js';
import { MAX_HTML_BYTES, sanitizeHtml } from './template-html.js';
import { inputsOf, variablesOf } from './template-language.js';
import * as repo from './templates.repository.js';
import type { CreateTemplateBody, TemplateFilterQuery, TemplateRecord } from './templates.schemas.js';

export function presentTemplate(row: repo.TemplateRow): TemplateRecord {
  return {
    id: row.id,
    type: 'template',
    name: row.name,
    brand: row.brand,
    global: row.brand === null,
    medium: row.medium,
    template_type: row.template_type,
    inputs: row.inputs,
    variables: row.variables,
    html: row.html,
    created_by: row.created_by,
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    deleted_at: epochSeconds(row.deleted_at),
  };
}

/** The brand and its ancestors: whose own templates a brand sees. */
async function chainOf(db: Kysely<DB>, actor: Actor, brand: string): Promise<string[]> {
  return (await brandReach(db, actor.userId ?? '', brand))?.chain ?? [brand];
}

export async function listTemplates(deps: Deps, actor: Actor, brand: string, query: TemplateFilterQuery) {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const mediums = checkMediums(query.mediums);
  const { rows, total } = await repo.listTemplates(
    deps.db,
    { brands: await chainOf(deps.db, actor, brand), mediums, templateTypes: query.template_types ?? [] },
    { start: query.start, limit: query.limit },
  );
  return { records: rows.map(presentTemplate), total };
}

/** A live template the brand sees (global, or owned by the brand or an ancestor), else 404. */
export async function visibleTemplate(deps: Deps, actor: Actor, brand: string, id: string): Promise<repo.TemplateRow> {
  const row = await repo.findTemplate(deps.db, id);
  if (!row || (row.brand !== null && !(await chainOf(deps.db, actor, brand)).includes(row.brand)))
    throw errors.notFound('Template');
  return row;
}

/** Checks and cleans a template's HTML; answers it with the variables it reads and the records it needs. */
export function prepareTemplateHtml(html: string): { html: string; variables: string[]; inputs: string[] } {
  if (Buffer.byteLength(html) > MAX_HTML_BYTES) throw errors.invalidField('html', 'must be at most 2 MiB');
  if (html.includes('\u0000')) throw errors.invalidField('html', 'must be text without the NUL character');
  const clean = sanitizeHtml(html, { template: true });
  const variables = variablesOf(clean);
  return { html: clean, variables, inputs: inputsOf(variables) };
}

export async function createTemplate(
  deps: Deps,
  actor: Actor,
  brand: string,
  body: CreateTemplateBody,
): Promise<TemplateRecord> {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const [medium] = checkMediums([body.medium], 'medium');
  const name = body.name.trim();
  if (name === '' || name.includes('\u0000'))
    throw errors.invalidField('name', 'must be text without the NUL character');
  const prepared = prepareTemplateHtml(body.html);
  const row = await repo.insertTemplate(
    deps.db,
    { brand, name, medium: medium as string, template_type: body.template_type, ...prepared, created_by: actor.userId },
    deps.clock.now(),
  );
  return presentTemplate(row);
}
