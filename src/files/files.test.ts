// Files: the local store, signed expiring URLs (tampering and expiry), what the download answers.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { createBrand } from '../../test/helpers/factories.js';
import { presentFile, storeFile } from './files.service.js';
import { contentKey, LocalDiskStore } from './store.js';

describe('LocalDiskStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gable-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores bytes once under their content key and reads them back', async () => {
    const store = new LocalDiskStore(dir);
    const bytes = Buffer.from('hello, print');
    const key = await store.put(bytes);
    expect(key).toBe(contentKey(bytes));
    expect(await store.put(Buffer.from('hello, print'))).toBe(key);
    expect((await store.get(key))?.toString()).toBe('hello, print');
    expect(readdirSync(join(dir, 'sha256', key.split('/')[1]!))).toHaveLength(1);
  });

  it('reads nothing outside its root and nothing that is not a key', async () => {
    const store = new LocalDiskStore(dir);
    expect(await store.get('../../etc/passwd')).toBeNull();
    expect(await store.get(`sha256/00/${'0'.repeat(64)}`)).toBeNull();
  });
});

describe('signed file URLs', () => {
  const t = useTestApp({ now: new Date('2026-11-24T10:00:00Z') });
  let record: Awaited<ReturnType<typeof presentFile>>;
  let htmlRecord: Awaited<ReturnType<typeof presentFile>>;

  beforeAll(async () => {
    const brand = (await createBrand(t.deps)).id;
    const row = await storeFile(t.deps, t.deps.db, {
      brand,
      name: 'card.txt',
      mime: 'text/plain',
      bytes: Buffer.from('the card'),
      createdBy: null,
    });
    record = await presentFile(t.deps, row);
    const html = await storeFile(t.deps, t.deps.db, {
      brand,
      name: 'card.html',
      mime: 'text/html',
      bytes: Buffer.from('<p>hi</p>'),
      createdBy: null,
    });
    htmlRecord = await presentFile(t.deps, html);
  });

  const get = (url: string) => t.app.inject({ url: new URL(url).pathname + new URL(url).search });

  it('serves the bytes through the record’s url, with no token', async () => {
    expect(record).toMatchObject({
      type: 'file',
      name: 'card.txt',
      mime: 'text/plain',
      public: false,
      size: 8,
      preview_url: null,
    });
    expect(record.url).toMatch(
      /^http:\/\/gable\.test\/files\/[0-9a-f-]{36}\/file\?expires=\d+&signature=[0-9a-f]{64}$/,
    );
    const res = await get(record.url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('the card');
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves stored HTML sandboxed', async () => {
    const res = await get(htmlRecord.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/^sandbox;/);
  });

  it('refuses a tampered link: signature, id, variant or expiry changed, or no signature (403)', async () => {
    const url = new URL(record.url);
    const signature = url.searchParams.get('signature')!;
    const expires = url.searchParams.get('expires')!;
    const variants = [
      record.url.replace(signature, `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`),
      record.url.replace(`expires=${expires}`, `expires=${Number(expires) + 3600}`),
      record.url.replace('/file?', '/preview?'),
      record.url.replace(record.id, htmlRecord.id),
      record.url.split('?')[0]!,
    ];
    for (const bad of variants) {
      const res = await get(bad);
      expect(res.statusCode, bad).toBe(403);
      expect(res.json().code).toBe('AccessForbidden');
    }
  });

  it('expires after 24 hours', async () => {
    t.clock.advance(24 * 3600 - 1);
    expect((await get(record.url)).statusCode).toBe(200);
    t.clock.advance(2);
    const res = await get(record.url);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('expired');
  });

  it('an unknown file is 404; a malformed id is 400', async () => {
    expect(
      (await t.app.inject({ url: '/files/00000000-0000-4000-8000-000000000009/file?expires=1&signature=ab' }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: '/files/nope/file' })).statusCode).toBe(400);
  });
});
