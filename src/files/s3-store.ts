// The S3-compatible file store (docs/files.md): AWS S3, MinIO, Cloudflare R2, Ceph… named by one `S3_URL`.
// Keys are the same content addresses as on disk, so a retried put rewrites nothing. Private files are handed
// out as presigned GET URLs of the store itself (the API does not proxy their bytes).
import {
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentKey, isContentKey, type FileStore, type PresignOptions } from './store.js';
import type { S3Location } from './s3-url.js';

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

  async check(): Promise<string> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }));
    return `S3 bucket ${this.location.bucket} at ${this.location.endpoint}`;
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
