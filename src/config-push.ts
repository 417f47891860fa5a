// Push provider settings (decisions §16; docs/notifications.md "Push"), parsed by loadConfig (config.ts) from the
// variables it reads. A provider whose settings are absent is null: its pushes are recorded as skipped.
import { createECDH, createPrivateKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface VapidConfig {
  /** Uncompressed P-256 public key, base64url (65 bytes): what a browser passes to pushManager.subscribe. */
  readonly publicKey: string;
  /** P-256 private scalar, base64url (32 bytes). */
  readonly privateKey: string;
  /** `mailto:` or `https:` contact the push services may use (RFC 8292 `sub`). */
  readonly subject: string;
}

export interface FcmConfig {
  readonly projectId: string;
  readonly clientEmail: string;
  /** PEM of the service account's RSA key (signs the OAuth JWT assertion). */
  readonly privateKey: string;
  /** Base URL of the FCM HTTP v1 API (the send URL is `{url}/v1/projects/{projectId}/messages:send`). */
  readonly url: string;
  /** OAuth token endpoint (the JWT assertion's audience). */
  readonly tokenUrl: string;
}

export interface ApnsConfig {
  /** PEM of the .p8 signing key (ES256). */
  readonly key: string;
  readonly keyId: string;
  readonly teamId: string;
  /** `apns-topic`: the app's bundle id. */
  readonly topic: string;
  /** https://api.push.apple.com (production) or https://api.sandbox.push.apple.com. */
  readonly url: string;
  /** Extra CA certificates (PEM) to trust for `url`: a private gateway, or the loopback fake in tests. */
  readonly ca: string | null;
}

export interface PushConfig {
  readonly vapid: VapidConfig | null;
  readonly fcm: FcmConfig | null;
  readonly apns: ApnsConfig | null;
}

type Read = (name: string) => string | undefined;

export function parsePushConfig(read: Read, embedded: boolean, dataDir: string, baseUrl: string, problems: string[]): PushConfig {
  return { vapid: parseVapid(read, embedded, dataDir, baseUrl, problems), fcm: parseFcm(read, problems), apns: parseApns(read, problems) };
}

const b64urlLength = (text: string) => (/^[A-Za-z0-9_-]+$/.test(text) ? Buffer.from(text, 'base64url').length : -1);

/**
 * VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY (base64url, as `web-push generate-vapid-keys` prints them). Embedded mode
 * without them generates a pair into DATA_DIR/vapid.json on first start, so Web Push works out of the box; a
 * server on PostgreSQL must be given them (several processes share them, and browsers subscribed with the key).
 */
function parseVapid(read: Read, embedded: boolean, dataDir: string, baseUrl: string, problems: string[]): VapidConfig | null {
  const subject = read('VAPID_SUBJECT') ?? `mailto:push@${hostnameOf(baseUrl)}`;
  if (!/^(mailto:|https:\/\/)\S+$/.test(subject)) problems.push('VAPID_SUBJECT must be a mailto: or https: URL');
  let publicKey = read('VAPID_PUBLIC_KEY');
  let privateKey = read('VAPID_PRIVATE_KEY');
  if (!publicKey && !privateKey) {
    if (!embedded) return null;
    const file = join(dataDir, 'vapid.json');
    if (existsSync(file)) {
      try {
        ({ publicKey, privateKey } = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: string; privateKey?: string });
      } catch {
        problems.push(`${file} is not the JSON {publicKey, privateKey} this server wrote`);
        return null;
      }
    } else {
      ({ publicKey, privateKey } = generateVapidKeys());
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, JSON.stringify({ publicKey, privateKey }) + '\n', { mode: 0o600, flag: 'wx' });
    }
  }
  if (!publicKey || b64urlLength(publicKey) !== 65) problems.push('VAPID_PUBLIC_KEY must be an uncompressed P-256 public key (65 bytes, base64url)');
  if (!privateKey || b64urlLength(privateKey) !== 32) problems.push('VAPID_PRIVATE_KEY must be a P-256 private key (32 bytes, base64url)');
  return publicKey && privateKey ? { publicKey, privateKey, subject } : null;
}

/**
 * A fresh VAPID pair. The private scalar is left-padded to 32 bytes: ECDH.getPrivateKey() drops leading zero
 * bytes, so about one key in 256 would come out 31 bytes long and be refused (by this parser and by web-push).
 */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const scalar = ecdh.getPrivateKey();
  const privateKey = Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: privateKey.toString('base64url') };
}

/** FCM_CREDENTIALS names a Google service-account JSON file (project_id, client_email, private_key). */
function parseFcm(read: Read, problems: string[]): FcmConfig | null {
  const file = read('FCM_CREDENTIALS');
  if (!file) return null;
  let account: { project_id?: unknown; client_email?: unknown; private_key?: unknown; token_uri?: unknown };
  try {
    account = JSON.parse(readFileSync(file, 'utf8')) as typeof account;
  } catch {
    problems.push(`FCM_CREDENTIALS ${file} must be a readable service-account JSON file`);
    return null;
  }
  const { project_id: projectId, client_email: clientEmail, private_key: privateKey, token_uri: tokenUri } = account;
  if (typeof projectId !== 'string' || typeof clientEmail !== 'string' || typeof privateKey !== 'string' || !isPrivateKey(privateKey)) {
    problems.push(`FCM_CREDENTIALS ${file} must hold project_id, client_email and a PEM private_key`);
    return null;
  }
  const url = httpsOrHttpUrl(read('FCM_URL') ?? 'https://fcm.googleapis.com', 'FCM_URL', problems);
  const tokenUrl = httpsOrHttpUrl(read('FCM_TOKEN_URL') ?? (typeof tokenUri === 'string' ? tokenUri : 'https://oauth2.googleapis.com/token'), 'FCM_TOKEN_URL', problems);
  return { projectId, clientEmail, privateKey, url, tokenUrl };
}

/** APNS_KEY_FILE (.p8), APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC together; APNS_URL and APNS_CA_FILE optional. */
function parseApns(read: Read, problems: string[]): ApnsConfig | null {
  const keyFile = read('APNS_KEY_FILE');
  const keyId = read('APNS_KEY_ID');
  const teamId = read('APNS_TEAM_ID');
  const topic = read('APNS_TOPIC');
  if (!keyFile && !keyId && !teamId && !topic) return null;
  if (!keyFile || !keyId || !teamId || !topic) {
    problems.push('APNs needs APNS_KEY_FILE, APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC together');
    return null;
  }
  const key = readText(keyFile, 'APNS_KEY_FILE', problems);
  if (key !== null && !isPrivateKey(key)) problems.push(`APNS_KEY_FILE ${keyFile} must be the PEM (.p8) signing key`);
  const caFile = read('APNS_CA_FILE');
  const ca = caFile ? readText(caFile, 'APNS_CA_FILE', problems) : null;
  const url = httpsOrHttpUrl(read('APNS_URL') ?? 'https://api.push.apple.com', 'APNS_URL', problems);
  if (!url.startsWith('https:')) problems.push('APNS_URL must be an https URL (APNs is HTTP/2 over TLS)');
  return key === null ? null : { key, keyId, teamId, topic, url, ca };
}

function readText(file: string, name: string, problems: string[]): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    problems.push(`${name} ${file} cannot be read`);
    return null;
  }
}

function isPrivateKey(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

function httpsOrHttpUrl(text: string, name: string, problems: string[]): string {
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
    return text.replace(/\/+$/, '');
  } catch {
    problems.push(`${name} must be an absolute http(s) URL`);
    return text;
  }
}

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '') || 'localhost';
  } catch {
    return 'localhost';
  }
}
