// A loopback S3-compatible server (npm s3rver) with one bucket, for the S3 file store's tests. s3rver checks a
// presigned URL's expiry but not its Signature V4, so this fake checks it in front of s3rver, from the AWS
// specification with node:crypto alone (an independent implementation of what the SDK's presigner signs).
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error s3rver ships no type declarations
import S3rver from 's3rver';

const ACCESS_KEY = 'S3RVER';
const SECRET = 'S3RVER';

export interface FakeS3 {
  /** The S3_URL of the bucket (path-style). */
  url: string;
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

export async function startFakeS3(bucket = 'gable-files'): Promise<FakeS3> {
  const directory = mkdtempSync(join(tmpdir(), 'gable-s3-'));
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket }] }) as {
    configureBuckets(): Promise<void>;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  };
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (
      url.searchParams.has('X-Amz-Signature') &&
      !presignedSignatureHolds(url, req.method ?? 'GET', req.headers.host ?? '')
    ) {
      res
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${ACCESS_KEY}:${SECRET}@127.0.0.1:${port}/${bucket}?forcePathStyle=true`,
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** RFC 3986 encoding, as Signature V4 wants it (encodeURIComponent leaves !'()* alone). */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** Signature V4 of a presigned (query-string) request, signed headers `host`, unsigned payload. */
function presignedSignatureHolds(url: URL, method: string, host: string): boolean {
  const query = url.searchParams;
  const credential = query.get('X-Amz-Credential') ?? '';
  const [accessKey, date, region, service] = credential.split('/');
  if (accessKey !== ACCESS_KEY || query.get('X-Amz-SignedHeaders') !== 'host' || !date || !region || !service)
    return false;
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [encode(name), encode(value)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalPath = url.pathname
    .split('/')
    .map((segment) => encode(decodeURIComponent(segment)))
    .join('/');
  const canonicalRequest = [method, canonicalPath, canonicalQuery, `host:${host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join(
    '\n',
  );
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', query.get('X-Amz-Date'), scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, date), region), service), 'aws4_request');
  return createHmac('sha256', key).update(stringToSign).digest('hex') === query.get('X-Amz-Signature');
}
