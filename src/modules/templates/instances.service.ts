// Template instances (spec 2.11; docs/templates.md): a template filled with records (or the client's edited
// HTML), cleaned again, and stored as a file. Marketing ACL on the brand; only the creator deletes one.
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { findFiles } from '../../files/files.repository.js';
import { presentFile, storeFile } from '../../files/files.service.js';
import { epochSeconds } from '../../lib/clock.js';
import type { Actor } from '../auth/index.js';
import { requireAccess } from '../brands/index.js';
import * as repo from './instances.repository.js';
import type { CreateInstanceBody, InstanceRecord, ListInstancesQuery } from './instances.schemas.js';
import { checkMediums } from '../../render/mediums.js';
import { MAX_HTML_BYTES, sanitizeHtml } from './template-html.js';
import { templateContext } from './template-context.js';
import { renderTemplate } from './template-language.js';
import { findTemplate } from './templates.repository.js';
import { presentTemplate, visibleTemplate } from './templates.service.js';
import { NO_RENDERER_NOTE } from './instances.render.js';
import { renderInstanceTask } from './instances.tasks.js';
import { canRender } from '../../render/renderer.js';

export async function presentInstances(
  deps: Deps,
  rows: repo.InstanceRow[],
  associations: Set<string>,
): Promise<InstanceRecord[]> {
  const files = new Map(
    (
      await findFiles(
        deps.db,
        rows.flatMap((r) => (r.file ? [r.file] : [])),
      )
    ).map((f) => [f.id, f]),
  );
  const withTemplate = associations.has('template_instance.template');
  const templates = new Map<string, ReturnType<typeof presentTemplate>>();
  if (withTemplate) {
    for (const id of new Set(rows.map((r) => r.template))) {
      const template = await findTemplate(deps.db, id);
      if (template) templates.set(id, presentTemplate(template));
    }
  }
  const records = rows.map(async (row): Promise<InstanceRecord> => {
    const file = row.file ? files.get(row.file) : undefined;
    return {
      id: row.id,
      type: 'template_instance',
      template: (withTemplate ? templates.get(row.template) : undefined) ?? row.template,
      brand: row.brand,
      medium: row.medium,
      html: row.html,
      // The file and its URLs: the spec's association `template_instance.file` is always answered.
      file: file ? await presentFile(deps, file) : null,
      branch: new URL(`/marketing/instances/${row.id}`, deps.config.webUrl).toString(),
      created_by: row.created_by,
      listings: row.listings,
      contacts: row.contacts,
      deals: row.deals,
      unknown_variables: row.unknown_variables,
      render_status: row.render_status,
      render_note: row.render_note,
      created_at: epochSeconds(row.created_at),
      updated_at: epochSeconds(row.updated_at),
      deleted_at: epochSeconds(row.deleted_at),
    };
  });
  return Promise.all(records);
}

const fileNameOf = (name: string) =>
  `${
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'template'
  }.html`;

export async function createInstance(
  deps: Deps,
  actor: Actor,
  brand: string,
  templateId: string,
  body: CreateInstanceBody,
  associations: Set<string>,
): Promise<InstanceRecord> {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const template = await visibleTemplate(deps, actor, brand, templateId);
  const listings = [...new Set((body.listings ?? []).map((id) => id.toLowerCase()))];
  const contacts = [...new Set((body.contacts ?? []).map((id) => id.toLowerCase()))];
  const deals = [...new Set((body.deals ?? []).map((id) => id.toLowerCase()))];
  let html: string;
  let unknown: string[] = [];
  if (body.html !== undefined) {
    if (Buffer.byteLength(body.html) > MAX_HTML_BYTES) throw errors.invalidField('html', 'must be at most 2 MiB');
    html = body.html;
  } else {
    const rendered = await renderTemplate(
      template.html,
      await templateContext(deps, actor, brand, { listings, contacts, deals }),
    );
    html = rendered.html;
    unknown = rendered.unknown;
  }
  if (html.includes('\u0000')) throw errors.invalidField('html', 'must be text without the NUL character');
  const clean = sanitizeHtml(html, { ownOrigin: deps.config.baseUrl });
  // With a browser, the render job replaces the HTML file by the medium's artefact (pending until it has run).
  const renders = deps.renderer !== null && canRender(template.medium);
  const row = await deps.db.transaction().execute(async (trx) => {
    const file = await storeFile(deps, trx, {
      brand,
      name: fileNameOf(template.name),
      mime: 'text/html',
      bytes: Buffer.from(clean),
      createdBy: actor.userId,
    });
    const inserted = await repo.insertInstance(
      trx,
      {
        template: template.id,
        brand,
        medium: template.medium,
        html: clean,
        file: file.id,
        listings,
        contacts,
        deals,
        unknown_variables: unknown,
        render_status: renders ? 'pending' : 'html_only',
        render_note: renders
          ? null
          : deps.renderer
            ? `Medium ${template.medium} has no print or image size: the file is the instance’s HTML`
            : NO_RENDERER_NOTE,
        created_by: actor.userId as string,
      },
      deps.clock.now(),
    );
    if (renders) await deps.queue.enqueue(trx, renderInstanceTask, { instance: inserted.id });
    return inserted;
  });
  const [record] = await presentInstances(deps, [row], associations);
  return record as InstanceRecord;
}

/** A live instance the actor may see (Marketing on its brand), else 404. */
export async function reachableInstance(deps: Deps, actor: Actor, id: string): Promise<repo.InstanceRow> {
  const row = await repo.findInstance(deps.db, id);
  if (!row) throw errors.notFound('Template instance');
  await requireAccess(deps.db, actor, row.brand, 'Marketing', { denied: 'notFound' });
  return row;
}

export async function getInstance(
  deps: Deps,
  actor: Actor,
  id: string,
  associations: Set<string>,
): Promise<InstanceRecord> {
  const [record] = await presentInstances(deps, [await reachableInstance(deps, actor, id)], associations);
  return record as InstanceRecord;
}

/** The caller's own instances in the brand, newest first. */
export async function listInstances(
  deps: Deps,
  actor: Actor,
  brand: string,
  query: ListInstancesQuery,
  associations: Set<string>,
) {
  await requireAccess(deps.db, actor, brand, 'Marketing');
  const mediums = checkMediums(query.mediums);
  const { rows, total } = await repo.listInstances(
    deps.db,
    { brand, createdBy: actor.userId as string, mediums },
    { start: query.start, limit: query.limit },
  );
  return { records: await presentInstances(deps, rows, associations), total };
}

export async function deleteInstance(deps: Deps, actor: Actor, id: string): Promise<void> {
  const row = await reachableInstance(deps, actor, id);
  if (row.created_by !== actor.userId)
    throw errors.forbidden('Only the user who made a template instance can delete it');
  await repo.softDeleteInstance(deps.db, id, deps.clock.now());
}
