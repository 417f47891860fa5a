// All SQL of file records.
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../db/types.js';

export type FileRow = Selectable<DB['files']>;

export type NewFile = Pick<FileRow, 'brand' | 'path' | 'name' | 'mime' | 'created_by'> & {
  size: number;
  public?: boolean;
  preview_path?: string | null;
  preview_mime?: string | null;
};

export async function insertFile(db: Kysely<DB>, file: NewFile, at: Date): Promise<FileRow> {
  return db
    .insertInto('files')
    .values({ preview_path: null, preview_mime: null, ...file, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findFile(db: Kysely<DB>, id: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export async function findFiles(db: Kysely<DB>, ids: string[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('files').selectAll().where('id', 'in', ids).execute();
}

export async function setPreview(
  db: Kysely<DB>,
  id: string,
  preview: { path: string; mime: string },
  at: Date,
): Promise<void> {
  await db
    .updateTable('files')
    .set({ preview_path: preview.path, preview_mime: preview.mime, updated_at: at })
    .where('id', '=', id)
    .execute();
}
