// Push provider settings (decisions §16; docs/notifications.md "Push"), parsed by loadConfig (config.ts) from the
// variables it reads. A provider whose settings are absent is null: its pushes are recorded as skipped.
import { createECDH, createPrivateKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VariableName } from './config-variables.js';

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

/** One app's providers; null = not configured (its pushes are recorded as skipped). */
export interface PushProviders {
  readonly vapid: VapidConfig | null;
  readonly fcm: FcmConfig | null;
  readonly apns: ApnsConfig | null;
}

/**
 * The shared (unsuffixed) providers, and each configured app's (ADR 0032): an app with none of a provider's
 * `<VARIABLE>_<APP>` settings uses the very shared object, so it also shares its sender and cached tokens.
 */
export interface PushConfig extends PushProviders {
  readonly apps: ReadonlyMap<string, PushProviders>;
}

/** The providers of `app`; an app no longer configured (a token registered before PUSH_APPS changed) uses the shared ones. */
export function providersOf(push: PushConfig, app: string): PushProviders {
  return push.apps.get(app) ?? push;
}

/** `brokerage-ios` → `BROKERAGE_IOS`: the suffix of an app's own variables, e.g. APNS_TOPIC_BROKERAGE_IOS. */
export function appVariableSuffix(app: string): string {
  return app.toUpperCase().replace(/[-.]/g, '_');
}

const VAPID_VARIABLES = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const;
const FCM_VARIABLES = ['FCM_CREDENTIALS', 'FCM_URL', 'FCM_TOKEN_URL'] as const;
const APNS_VARIABLES = [
  'APNS_KEY_FILE',
  'APNS_KEY_ID',
  'APNS_TEAM_ID',
  'APNS_TOPIC',
  'APNS_URL',
  'APNS_CA_FILE',
] as const;
const PER_APP_VARIABLE = new RegExp(`^(${[...VAPID_VARIABLES, ...FCM_VARIABLES, ...APNS_VARIABLES].join('|')})_(.+)$`);

/** Reads any variable, an app's suffixed ones included. */
type RawRead = (name: string) => string | undefined;
/** Reads a variable of config-variables.ts by its base name. */
type Read = (name: VariableName) => string | undefined;
/** Where a provider's settings come from: `read` a variable by its base name, `name` it in a problem. */
interface Source {
  read: Read;
  name: (variable: VariableName) => string;
  /** ` of app x` in problems about an app's own settings ('' for the shared ones). */
  of: string;
  /** `_X` for app x ('' for the shared settings). */
  suffix: string;
}

/**
 * `variables` = the names of the set variables (to refuse a `<VARIABLE>_<SUFFIX>` that names no app: a typo would
 * otherwise silently fall back to the shared settings).
 */
export function parsePushConfig(
  read: RawRead,
  variables: readonly string[],
  apps: readonly string[],
  embedded: boolean,
  dataDir: string,
  baseUrl: string,
  problems: string[],
): PushConfig {
  const found: string[] = [];
  const shared: Source = { read, name: (variable) => variable, of: '', suffix: '' };
  const vapid = parseVapid(shared, embedded, dataDir, baseUrl, found);
  const fcm = parseFcm(shared, found);
  const apns = parseApns(shared, found);
  const sharedProviders = { vapid, fcm, apns };
  const bySuffix = new Map<string, string>();
  const perApp = new Map<string, PushProviders>();
  for (const app of apps) {
    const suffix = appVariableSuffix(app);
    const other = bySuffix.get(suffix);
    if (other !== undefined)
      found.push(`PUSH_APPS: the apps ${other} and ${app} would share the variable suffix _${suffix}; rename one`);
    bySuffix.set(suffix, app);
    const own = (variable: string) => read(`${variable}_${suffix}`);
    const source: Source = {
      read: (variable) => own(variable) ?? read(variable),
      name: (variable) => (own(variable) !== undefined ? `${variable}_${suffix}` : variable),
      of: ` of app ${app}`,
      suffix: `_${suffix}`,
    };
    const hasOwn = (names: readonly string[]) => names.some((variable) => own(variable) !== undefined);
    perApp.set(app, {
      vapid: hasOwn(VAPID_VARIABLES) ? parseAppVapid(source, own, vapid, baseUrl, found) : vapid,
      fcm: hasOwn(FCM_VARIABLES) ? parseFcm(source, found) : fcm,
      apns: hasOwn(APNS_VARIABLES) ? parseApns(source, found) : apns,
    });
  }
  for (const variable of variables) {
    const match = PER_APP_VARIABLE.exec(variable);
    if (match && !bySuffix.has(match[2]!)) {
      found.push(
        `${variable} names no configured app: list the app in PUSH_APPS (its key upper-cased, with '-' and '.' as '_', is the suffix)`,
      );
    }
  }
  problems.push(...new Set(found)); // an app falling back to a bad shared variable would repeat its problem
  return { ...sharedProviders, apps: perApp };
}

const b64urlLength = (text: string) => (/^[A-Za-z0-9_-]+$/.test(text) ? Buffer.from(text, 'base64url').length : -1);

/**
 * VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY (base64url, as `web-push generate-vapid-keys` prints them). Embedded mode
 * without them generates a pair into DATA_DIR/vapid.json on first start, so Web Push works out of the box; a
 * server on PostgreSQL must be given them (several processes share them, and browsers subscribed with the key).
 */
function parseVapid(
  source: Source,
  embedded: boolean,
  dataDir: string,
  baseUrl: string,
  problems: string[],
): VapidConfig | null {
  const subject = vapidSubject(source, baseUrl, problems);
  let publicKey = source.read('VAPID_PUBLIC_KEY');
  let privateKey = source.read('VAPID_PRIVATE_KEY');
  if (!publicKey && !privateKey) {
    if (!embedded) return null;
    const file = join(dataDir, 'vapid.json');
    if (existsSync(file)) {
      try {
        ({ publicKey, privateKey } = JSON.parse(readFileSync(file, 'utf8')) as {
          publicKey?: string;
          privateKey?: string;
        });
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
  return vapidPair(source, publicKey, privateKey, subject, problems);
}

function vapidSubject(source: Source, baseUrl: string, problems: string[]): string {
  const subject = source.read('VAPID_SUBJECT') ?? `mailto:push@${hostnameOf(baseUrl)}`;
  if (!/^(mailto:|https:\/\/)\S+$/.test(subject))
    problems.push(`${source.name('VAPID_SUBJECT')} must be a mailto: or https: URL`);
  return subject;
}

function vapidPair(
  source: Source,
  publicKey: string | undefined,
  privateKey: string | undefined,
  subject: string,
  problems: string[],
): VapidConfig | null {
  if (!publicKey || b64urlLength(publicKey) !== 65)
    problems.push(`${source.name('VAPID_PUBLIC_KEY')} must be an uncompressed P-256 public key (65 bytes, base64url)`);
  if (!privateKey || b64urlLength(privateKey) !== 32)
    problems.push(`${source.name('VAPID_PRIVATE_KEY')} must be a P-256 private key (32 bytes, base64url)`);
  return publicKey && privateKey ? { publicKey, privateKey, subject } : null;
}

/**
 * An app's own VAPID settings: its own key pair (both halves: a public key of one pair with the private key of
 * another would sign pushes no browser accepts), or the shared pair with its own VAPID_SUBJECT_<APP>.
 */
function parseAppVapid(
  source: Source,
  own: Read,
  shared: VapidConfig | null,
  baseUrl: string,
  problems: string[],
): VapidConfig | null {
  const subject = vapidSubject(source, baseUrl, problems);
  const publicKey = own('VAPID_PUBLIC_KEY');
  const privateKey = own('VAPID_PRIVATE_KEY');
  if (!publicKey && !privateKey) return shared && { ...shared, subject };
  if (!publicKey || !privateKey) {
    problems.push(
      `Web Push${source.of} needs VAPID_PUBLIC_KEY${source.suffix} and VAPID_PRIVATE_KEY${source.suffix} together`,
    );
    return null;
  }
  return vapidPair(source, publicKey, privateKey, subject, problems);
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
function parseFcm(source: Source, problems: string[]): FcmConfig | null {
  const { read, name } = source;
  const file = read('FCM_CREDENTIALS');
  if (!file) return null;
  let account: { project_id?: unknown; client_email?: unknown; private_key?: unknown; token_uri?: unknown };
  try {
    account = JSON.parse(readFileSync(file, 'utf8')) as typeof account;
  } catch {
    problems.push(`${name('FCM_CREDENTIALS')} ${file} must be a readable service-account JSON file`);
    return null;
  }
  const { project_id: projectId, client_email: clientEmail, private_key: privateKey, token_uri: tokenUri } = account;
  if (
    typeof projectId !== 'string' ||
    typeof clientEmail !== 'string' ||
    typeof privateKey !== 'string' ||
    !isPrivateKey(privateKey)
  ) {
    problems.push(`${name('FCM_CREDENTIALS')} ${file} must hold project_id, client_email and a PEM private_key`);
    return null;
  }
  const url = httpsOrHttpUrl(read('FCM_URL') ?? 'https://fcm.googleapis.com', name('FCM_URL'), problems);
  const tokenUrl = httpsOrHttpUrl(
    read('FCM_TOKEN_URL') ?? (typeof tokenUri === 'string' ? tokenUri : 'https://oauth2.googleapis.com/token'),
    name('FCM_TOKEN_URL'),
    problems,
  );
  return { projectId, clientEmail, privateKey, url, tokenUrl };
}

/** APNS_KEY_FILE (.p8), APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC together; APNS_URL and APNS_CA_FILE optional. */
function parseApns(source: Source, problems: string[]): ApnsConfig | null {
  const { read, name } = source;
  const keyFile = read('APNS_KEY_FILE');
  const keyId = read('APNS_KEY_ID');
  const teamId = read('APNS_TEAM_ID');
  const topic = read('APNS_TOPIC');
  if (!keyFile && !keyId && !teamId && !topic) return null;
  if (!keyFile || !keyId || !teamId || !topic) {
    problems.push(
      source.of
        ? `APNs${source.of} needs APNS_KEY_FILE, APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC, each as its own ${source.suffix} variable or the shared one`
        : 'APNs needs APNS_KEY_FILE, APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC together',
    );
    return null;
  }
  const key = readText(keyFile, name('APNS_KEY_FILE'), problems);
  if (key !== null && !isPrivateKey(key))
    problems.push(`${name('APNS_KEY_FILE')} ${keyFile} must be the PEM (.p8) signing key`);
  const caFile = read('APNS_CA_FILE');
  const ca = caFile ? readText(caFile, name('APNS_CA_FILE'), problems) : null;
  const url = httpsOrHttpUrl(read('APNS_URL') ?? 'https://api.push.apple.com', name('APNS_URL'), problems);
  if (!url.startsWith('https:')) problems.push(`${name('APNS_URL')} must be an https URL (APNs is HTTP/2 over TLS)`);
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
