// Where file bytes live (decisions §18; docs/files.md). One interface; the local-disk store is the default
// (DATA_DIR/files), an S3-compatible one (s3-store.ts) serves when S3_URL is set. Keys are content addresses (`sha256/ab/abcdef…`): a file is stored once however many
// records name it, and a key never changes meaning, so writes are idempotent (a retried job rewrites nothing).
import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

export interface FileStore {
  /** Stores the bytes under their content key; answers the key. Storing the same bytes again is a no-op. */
  put(bytes: Buffer): Promise<string>;
  /** The bytes of a key, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /**
   * A URL of the store itself that serves the bytes until the expiry (S3's presigned URLs). A store without
   * one has its files served by this API (`/files/:id/:variant`, signed by files/signing.ts).
   */
  presignedUrl?(key: string, options: PresignOptions): Promise<string>;
  /** Answers where the files go when the store can be reached and written (`gable doctor`); throws otherwise. */
  check(): Promise<string>;
  close?(): void;
}

export interface PresignOptions {
  name: string;
  mime: string;
  now: Date;
  expiresInSeconds: number;
}

const KEY = /^sha256\/[0-9a-f]{2}\/[0-9a-f]{64}$/;

export function isContentKey(key: string): boolean {
  return KEY.test(key);
}

export function contentKey(bytes: Buffer): string {
  const hash = createHash('sha256').update(bytes).digest('hex');
  return `sha256/${hash.slice(0, 2)}/${hash}`;
}

export class LocalDiskStore implements FileStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The path of a key, refusing anything that is not a content key (no way out of the root). */
  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`not a file key: ${key}`);
    const path = join(this.root, ...key.split('/'));
    if (!path.startsWith(this.root + sep)) throw new Error(`not a file key: ${key}`);
    return path;
  }

  async put(bytes: Buffer): Promise<string> {
    const key = contentKey(bytes);
    const path = this.pathOf(key);
    const existing = await stat(path).catch(() => null);
    if (existing?.size === bytes.length) return key;
    await mkdir(dirname(path), { recursive: true });
    // Write aside, then rename: a reader never sees half a file, and two writers of the same bytes both succeed.
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, path);
    return key;
  }

  async get(key: string): Promise<Buffer | null> {
    if (!KEY.test(key)) return null;
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async check(): Promise<string> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
    return `this disk, under ${this.root}`;
  }
}
