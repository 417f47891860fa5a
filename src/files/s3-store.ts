// The S3-compatible file store (docs/files.md): AWS S3, MinIO, Cloudflare R2, Ceph… named by one `S3_URL`.
// Keys are the same content addresses as on disk, so a retried put rewrites nothing. Private files are handed
// out as presigned GET URLs of the store itself (the API does not proxy their bytes).
import {
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentKey, isContentKey, type FileStore, type PresignOptions } from './store.js';

export interface S3Location {
  /** scheme://host[:port] of the service. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bucket in the path (`endpoint/bucket/key`, MinIO and most self-hosted stores) rather than in the host name. */
  pathStyle: boolean;
}

/**
 * `S3_URL` = `s3://ACCESS_KEY_ID:SECRET@host[:port]/BUCKET?region=R&forcePathStyle=true` (decisions §18; the key
 * and secret percent-encoded). `s3://` talks https to the host; `https://` is the same, and `http://` is plain
 * HTTP for a store on a private network. Answers the location, or a problem to report.
 */
export function parseS3Url(value: string): S3Location | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'S3_URL must be a URL: s3://ACCESS_KEY_ID:SECRET@host/bucket?region=…';
  }
  if (!['s3:', 'https:', 'http:'].includes(url.protocol))
    return 'S3_URL must start with s3:// (or https://, or http:// for a store on a private network)';
  const bucket = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''));
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    return 'S3_URL must name a bucket as its path (3–63 lower-case letters, digits, dots and hyphens)';
  if (!url.username || !url.password) return 'S3_URL must carry the access key id and secret as user:password';
  return {
    endpoint: `${url.protocol === 's3:' ? 'https:' : url.protocol}//${url.host}`,
    bucket,
    region: url.searchParams.get('region') ?? 'us-east-1',
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
    pathStyle: url.searchParams.get('forcePathStyle') === 'true',
  };
}

export class S3Store implements FileStore {
  private readonly client: S3Client;

  constructor(private readonly location: S3Location) {
    this.client = new S3Client({
      endpoint: location.endpoint,
      region: location.region,
      forcePathStyle: location.pathStyle,
      credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
      // Checksums only where the operation requires them: S3-compatible stores differ in what they accept.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(bytes: Buffer): Promise<string> {
    const key = contentKey(bytes);
    if (await this.exists(key)) return key;
    await this.client.send(
      new PutObjectCommand({ Bucket: this.location.bucket, Key: key, Body: bytes, ContentLength: bytes.length }),
    );
    return key;
  }

  async get(key: string): Promise<Buffer | null> {
    if (!isContentKey(key)) return null;
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: key }));
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
    } catch (error) {
      if (error instanceof NoSuchKey || error instanceof NotFound) return null;
      throw error;
    }
  }

  /** A GET URL of the store, signed with the store's credentials, valid for `expiresInSeconds` from `now`. */
  async presignedUrl(key: string, options: PresignOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.location.bucket,
      Key: key,
      ResponseContentType: options.mime,
      // RFC 6266 with RFC 5987's UTF-8 form, so any file name survives.
      ResponseContentDisposition: `inline; filename*=UTF-8''${encodeURIComponent(options.name)}`,
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds, signingDate: options.now });
  }

  private async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.location.bucket, Key: key }));
      return true;
    } catch (error) {
      if (error instanceof NotFound || error instanceof NoSuchKey) return false;
      throw error;
    }
  }

  close(): void {
    this.client.destroy();
  }
}
