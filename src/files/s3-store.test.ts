// The S3-compatible file store against a loopback S3 server (test/fakes/s3.ts): content-addressed puts, reads,
// presigned URLs that the server itself checks (tampering, expiry), and S3_URL parsing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { startFakeS3, type FakeS3 } from '../../test/fakes/s3.js';
import { createBrand } from '../../test/helpers/factories.js';
import { presentFile, storeFile } from './files.service.js';
import { S3Store } from './s3-store.js';
import { parseS3Url } from './s3-url.js';
import { contentKey } from './store.js';

let s3: FakeS3;
beforeAll(async () => {
  s3 = await startFakeS3();
});
afterAll(() => s3.close());

describe('S3_URL', () => {
  it('reads endpoint, bucket, credentials, region and addressing style', () => {
    expect(parseS3Url('s3://AKIA1:se%2Fcret@s3.eu-west-1.amazonaws.com/my-bucket?region=eu-west-1')).toEqual({
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      bucket: 'my-bucket',
      region: 'eu-west-1',
      accessKeyId: 'AKIA1',
      secretAccessKey: 'se/cret',
      pathStyle: false,
    });
    expect(parseS3Url('s3://k:s@minio.internal:9000/files?forcePathStyle=true')).toMatchObject({
      endpoint: 'https://minio.internal:9000',
      bucket: 'files',
      region: 'us-east-1',
      pathStyle: true,
    });
    expect(parseS3Url('http://k:s@127.0.0.1:9000/files')).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      pathStyle: false,
    });
  });

  it('names what is wrong', () => {
    expect(parseS3Url('ftp://k:s@host/bucket')).toMatch(/s3:\/\//);
    expect(parseS3Url('https://k:s@host/')).toMatch(/bucket/);
    expect(parseS3Url('https://k:s@host/Bad_Bucket')).toMatch(/bucket/);
    expect(parseS3Url('https://host/bucket')).toMatch(/access key/);
    expect(parseS3Url('not a url')).toMatch(/must be a URL/);
  });
});

describe('S3Store', () => {
  it('stores bytes once under their content key and reads them back; unknown keys read as nothing', async () => {
    const store = new S3Store(parseS3Url(s3.url) as never);
    const bytes = Buffer.from('%PDF-1.7 a postcard');
    const key = await store.put(bytes);
    expect(key).toBe(contentKey(bytes));
    expect(await store.put(Buffer.from(bytes))).toBe(key);
    expect((await store.get(key))?.toString()).toBe('%PDF-1.7 a postcard');
    expect(await store.get(`sha256/00/${'0'.repeat(64)}`)).toBeNull();
    expect(await store.get('../outside')).toBeNull();
    store.close();
  });
});

describe('files on S3', () => {
  let t: TestApp;
  let brand: string;
  beforeAll(async () => {
    t = await buildTestApp({ env: { S3_URL: s3.url } });
    brand = (await createBrand(t.deps)).id;
  });
  afterAll(() => t.close());

  it('hands out presigned URLs of the store that serve the bytes with the record’s type and name', async () => {
    const row = await storeFile(t.deps, t.deps.db, {
      brand,
      name: 'Post card.pdf',
      mime: 'application/pdf',
      bytes: Buffer.from('%PDF-1.7 card'),
      createdBy: null,
    });
    const record = await presentFile(t.deps, row);
    expect(record.url.startsWith(`${s3.endpoint}/${s3.bucket}/sha256/`)).toBe(true);
    expect(new URL(record.url).searchParams.get('X-Amz-Expires')).toBe('86400');
    const res = await fetch(record.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('%PDF-1.7 card');
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''Post%20card.pdf");
  });

  it('the store refuses a tampered or expired URL', async () => {
    const row = await storeFile(t.deps, t.deps.db, {
      brand,
      name: 'secret.txt',
      mime: 'text/plain',
      bytes: Buffer.from('private'),
      createdBy: null,
    });
    const url = new URL((await presentFile(t.deps, row)).url);
    const signature = url.searchParams.get('X-Amz-Signature')!;
    url.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    expect((await fetch(url)).status).toBe(403);
    const other = new URL((await presentFile(t.deps, row)).url);
    other.pathname = other.pathname.replace(/[0-9a-f]{64}$/, '0'.repeat(64));
    expect((await fetch(other)).status).toBe(403);

    t.clock.advance(-25 * 3600); // signed a day and an hour ago: past its 24 hours
    const stale = (await presentFile(t.deps, row)).url;
    t.clock.advance(25 * 3600);
    const res = await fetch(stale);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
  });

  it('serves public files through this API, unsigned, from the store', async () => {
    const row = await storeFile(t.deps, t.deps.db, {
      brand,
      name: 'logo.txt',
      mime: 'text/plain',
      bytes: Buffer.from('public logo'),
      createdBy: null,
      public: true,
    });
    const record = await presentFile(t.deps, row);
    expect(record.url).toBe(`http://gable.test/files/${row.id}/file`);
    const res = await t.app.inject({ url: `/files/${row.id}/file` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('public logo');
  });
});
