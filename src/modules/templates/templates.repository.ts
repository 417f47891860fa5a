// All SQL of templates.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/types.js';

export type TemplateRow = Selectable<DB['templates']>;

export interface TemplateFilter {
  /** Brand ids whose own templates are visible (a brand and its ancestors); global ones always are. */
  brands: string[];
  mediums: string[];
  templateTypes: string[];
}

function visible(db: Kysely<DB>, filter: TemplateFilter) {
  let query = db
    .selectFrom('templates')
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('brand', 'is', null), sql<boolean>`brand = any(${filter.brands}::uuid[])`]));
  if (filter.mediums.length > 0) query = query.where(sql<boolean>`medium = any(${filter.mediums}::text[])`);
  if (filter.templateTypes.length > 0)
    query = query.where(sql<boolean>`template_type = any(${filter.templateTypes}::text[])`);
  return query;
}

export async function listTemplates(
  db: Kysely<DB>,
  filter: TemplateFilter,
  page: { start: number; limit: number },
): Promise<{ rows: TemplateRow[]; total: number }> {
  const { total } = await visible(db, filter)
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  // Global templates first, then the brand's, each by medium and name.
  const rows = await visible(db, filter)
    .selectAll()
    .orderBy(sql`brand is not null`)
    .orderBy('medium')
    .orderBy('name')
    .orderBy('id')
    .offset(page.start)
    .limit(page.limit)
    .execute();
  return { rows, total: Number(total) };
}

export async function findTemplate(db: Kysely<DB>, id: string): Promise<TemplateRow | undefined> {
  return db.selectFrom('templates').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export type NewTemplate = Pick<
  TemplateRow,
  'brand' | 'name' | 'medium' | 'template_type' | 'inputs' | 'variables' | 'html' | 'created_by'
> & { library_key?: string | null };

export async function insertTemplate(db: Kysely<DB>, template: NewTemplate, at: Date): Promise<TemplateRow> {
  return db
    .insertInto('templates')
    .values({ ...template, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The shipped library: inserts or refreshes each by its key (a library template is never edited by users). */
export async function upsertLibraryTemplate(
  db: Kysely<DB>,
  template: NewTemplate & { library_key: string },
  at: Date,
): Promise<void> {
  await db
    .insertInto('templates')
    .values({ ...template, created_at: at, updated_at: at })
    .onConflict((oc) =>
      oc.column('library_key').doUpdateSet({
        name: template.name,
        medium: template.medium,
        template_type: template.template_type,
        inputs: template.inputs,
        variables: template.variables,
        html: template.html,
        updated_at: at,
      }),
    )
    .execute();
}

export async function countLibraryTemplates(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('templates')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('library_key', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
