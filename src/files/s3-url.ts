// `S3_URL` parsed into a location (decisions §18). Apart from s3-store.ts so that reading the configuration
// (every `gable` command) does not load the AWS SDK.

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
