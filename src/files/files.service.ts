// Files (spec 2.11, decisions §18; docs/files.md): bytes in the FileStore, a `file` record in the database, and
// URLs that are signed and expire (public files: unsigned). Features store files through storeFile and show
// them with presentFile; nothing else reads the store.
import type { Kysely } from 'kysely';
import type { Deps } from '../platform/deps.js';
import type { DB } from '../db/types.js';
import { errors } from '../errors.js';
import { epochSeconds } from '../lib/clock.js';
import * as repo from './files.repository.js';
import type { FileRecord } from './files.schemas.js';
import { FILE_URL_TTL_SECONDS, type FileVariant } from './signing.js';

export type FileDeps = Pick<Deps, 'files' | 'fileSigner' | 'config' | 'clock'>;

export interface StoreFileInput {
  brand: string | null;
  name: string;
  mime: string;
  bytes: Buffer;
  createdBy: string | null;
  public?: boolean;
}

/** Puts the bytes in the store, then writes the record in `db` (pass the transaction of the change it belongs to). */
export async function storeFile(deps: FileDeps, db: Kysely<DB>, input: StoreFileInput): Promise<repo.FileRow> {
  const path = await deps.files.put(input.bytes);
  return repo.insertFile(
    db,
    {
      brand: input.brand,
      path,
      name: input.name,
      mime: input.mime,
      size: input.bytes.length,
      public: input.public ?? false,
      created_by: input.createdBy,
    },
    deps.clock.now(),
  );
}

/** Stores a preview image of a file (a rendered PNG) and links it to the record. */
export async function storePreview(
  deps: FileDeps,
  db: Kysely<DB>,
  fileId: string,
  bytes: Buffer,
  mime: string,
): Promise<void> {
  const path = await deps.files.put(bytes);
  await repo.setPreview(db, fileId, { path, mime }, deps.clock.now());
}

/**
 * The record as the API shows it. Its URLs expire (public files: they do not): this server's signed
 * `/files/:id/:variant` links, or, where the store hands out its own (S3), presigned URLs of the store.
 */
export async function presentFile(deps: FileDeps, row: repo.FileRow): Promise<FileRecord> {
  const now = deps.clock.now();
  const urlOf = async (variant: FileVariant, path: string, mime: string, name: string) => {
    if (deps.files.presignedUrl && !row.public)
      return deps.files.presignedUrl(path, { name, mime, now, expiresInSeconds: FILE_URL_TTL_SECONDS });
    return deps.fileSigner.url(deps.config.baseUrl, row.id, variant, now, { public: row.public });
  };
  return {
    id: row.id,
    type: 'file',
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    deleted_at: epochSeconds(row.deleted_at),
    created_by: row.created_by,
    path: row.path,
    name: row.name,
    public: row.public,
    mime: row.mime,
    size: Number(row.size),
    url: await urlOf('file', row.path, row.mime, row.name),
    preview_url:
      row.preview_path && row.preview_mime
        ? await urlOf('preview', row.preview_path, row.preview_mime, previewName(row.name))
        : null,
  };
}

function previewName(name: string): string {
  return `${name.replace(/\.[^.]*$/, '')}-preview.png`;
}

/** The bytes behind a file URL, after checking its signature and expiry (403 otherwise; unknown → 404). */
export async function openFileUrl(
  deps: Pick<Deps, 'db'> & FileDeps,
  id: string,
  variant: FileVariant,
  query: { expires?: number; signature?: string },
) {
  const row = await repo.findFile(deps.db, id);
  if (!row) throw errors.notFound('File');
  if (!row.public) {
    const verdict = deps.fileSigner.check(id, variant, query.expires, query.signature, deps.clock.now());
    if (verdict === 'expired') throw errors.forbidden('This file link has expired; ask the API for a fresh one');
    if (verdict !== 'ok') throw errors.forbidden('This file link is not valid');
  }
  const path = variant === 'preview' ? row.preview_path : row.path;
  const mime = variant === 'preview' ? row.preview_mime : row.mime;
  if (!path || !mime) throw errors.notFound('File preview');
  const bytes = await deps.files.get(path);
  if (!bytes) throw errors.notFound('File');
  return { bytes, mime, name: variant === 'preview' ? previewName(row.name) : row.name };
}
