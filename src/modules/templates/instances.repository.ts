// All SQL of template instances, and the records a template reads (the user).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/types.js';

export type InstanceRow = Selectable<DB['template_instances']>;

export type NewInstance = Pick<
  InstanceRow,
  | 'template'
  | 'brand'
  | 'medium'
  | 'html'
  | 'file'
  | 'listings'
  | 'contacts'
  | 'deals'
  | 'unknown_variables'
  | 'render_status'
  | 'render_note'
  | 'created_by'
>;

export async function insertInstance(db: Kysely<DB>, instance: NewInstance, at: Date): Promise<InstanceRow> {
  return db
    .insertInto('template_instances')
    .values({ ...instance, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findInstance(
  db: Kysely<DB>,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<InstanceRow | undefined> {
  let query = db.selectFrom('template_instances').selectAll().where('id', '=', id).where('deleted_at', 'is', null);
  if (options.forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function findInstances(db: Kysely<DB>, ids: string[]): Promise<InstanceRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('template_instances').selectAll().where('id', 'in', ids).execute();
}

export interface InstanceFilter {
  brand: string;
  createdBy: string;
  mediums: string[];
}

function filtered(db: Kysely<DB>, filter: InstanceFilter) {
  let query = db
    .selectFrom('template_instances')
    .where('brand', '=', filter.brand)
    .where('created_by', '=', filter.createdBy)
    .where('deleted_at', 'is', null);
  if (filter.mediums.length > 0) query = query.where(sql<boolean>`medium = any(${filter.mediums}::text[])`);
  return query;
}

export async function listInstances(
  db: Kysely<DB>,
  filter: InstanceFilter,
  page: { start: number; limit: number },
): Promise<{ rows: InstanceRow[]; total: number }> {
  const { total } = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await filtered(db, filter)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(page.start)
    .limit(page.limit)
    .execute();
  return { rows, total: Number(total) };
}

export async function softDeleteInstance(db: Kysely<DB>, id: string, at: Date): Promise<void> {
  await db.updateTable('template_instances').set({ deleted_at: at, updated_at: at }).where('id', '=', id).execute();
}

export async function updateRender(
  db: Kysely<DB>,
  id: string,
  render: { status: string; note: string | null },
  at: Date,
): Promise<void> {
  await db
    .updateTable('template_instances')
    .set({ render_status: render.status, render_note: render.note, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** What a template may read of a user (docs/templates.md). */
export async function findTemplateUser(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('users')
    .select([
      'id',
      'first_name',
      'last_name',
      'email',
      'phone_number',
      'profile_image_url',
      'cover_image_url',
      'designation',
      'website',
      'bio',
    ])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The rendered artefact replaces the HTML file as the instance's file. */
export async function setRendered(
  db: Kysely<DB>,
  id: string,
  file: string,
  note: string | null,
  at: Date,
): Promise<void> {
  await db
    .updateTable('template_instances')
    .set({ file, render_status: 'rendered', render_note: note, updated_at: at })
    .where('id', '=', id)
    .execute();
}
