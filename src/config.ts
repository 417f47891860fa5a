// Configuration: the ONLY file that reads process.env (and the `.env` file beside it). Parsed once, every bad
// variable listed, then frozen. A variable is read by a name of config-variables.ts, which docs/configuration.md's
// table is generated from.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { parseCidr } from './lib/network-guard.js';
import { parseS3Url, type S3Location } from './files/s3-url.js';
import { parsePushConfig, type PushConfig } from './config-push.js';
import { EnvFileError, parseEnvFile } from './lib/env-file.js';
import type { VariableName } from './config-variables.js';

export interface Config {
  /** TCP port of the HTTP server. */
  readonly port: number;
  readonly host: string;
  /** Public address of the API, used in links and OAuth metadata. */
  readonly baseUrl: string;
  /** Public address of the partner authorization web pages (defaults to baseUrl). */
  readonly webUrl: string;
  /** Where embedded mode keeps its database, keys, demo JSON and outgoing mail. */
  readonly dataDir: string;
  /** PostgreSQL connection string; null = embedded PGlite in dataDir. */
  readonly databaseUrl: string | null;
  /** Shown as the TOTP issuer and in page titles. */
  readonly appName: string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `pretty`: one readable line per entry (default on a terminal); `json`: one JSON object per line (otherwise). */
  readonly logFormat: 'json' | 'pretty';
  /** 32-byte master secret; subkeys for encryption and signing are derived from it (lib/crypto.ts). */
  readonly secretKey: Buffer;
  /**
   * The keys SECRET_KEY replaced, newest first (SECRET_KEY_PREVIOUS, docs/secret-rotation.md): values and signatures
   * they made are still read and checked, nothing new is made with them. Empty outside a rotation.
   */
  readonly previousSecretKeys: readonly Buffer[];
  /** smtp(s):// URL; null = write .eml files under dataDir/mail. */
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  /** Run job workers inside `gable serve` (always true in embedded mode, which has one process). */
  readonly workersInProcess: boolean;
  /** On SIGTERM: how long in-flight requests and running jobs have to finish (server.ts, platform/shutdown.ts). */
  readonly shutdownTimeoutSeconds: number;
  /** Connections of this process's PostgreSQL pool at most (unused on the embedded database). */
  readonly databasePoolSize: number;
  /** On SIGTERM: how long `serve` keeps accepting, unready, before it closes its listener (server.ts). */
  readonly shutdownDelaySeconds: number;
  /** Trust X-Forwarded-* from a reverse proxy (for client IPs and https detection). */
  /** Fastify's trustProxy: every hop, a number of hops, or the proxies' addresses and CIDRs. */
  readonly trustProxy: boolean | number | string[];
  readonly embedded: boolean;
  /** Requests per client IP per window on public (no-token) routes (decisions §19). */
  readonly publicRateLimit: number;
  readonly publicRateWindowSeconds: number;
  /** Browser origins allowed to call the API (CORS, decisions §19), besides https on every brand host name. */
  readonly corsOrigins: readonly string[];
  /**
   * CIDRs the outbound SSRF guard lets through although they are loopback/private (lib/outbound.ts): loopback
   * receivers in tests and development, webhooks inside a private deployment. Empty = only public addresses.
   */
  readonly webhookAllowedNetworks: readonly string[];
  /** App keys whose devices may register push tokens (decisions §16); `rechat` is always one of them. */
  readonly pushApps: readonly string[];
  /** Seconds between heartbeat comments on the live notification stream (keeps proxies from timing it out). */
  readonly streamHeartbeatSeconds: number;
  /** Chromium for rendering template instances (CHROMIUM_PATH; default: the first of BROWSER_PATHS installed; `none` = off). */
  readonly chromiumPath: string | null;
  /** Longest a render may take before it is abandoned (and retried once). */
  readonly renderTimeoutMs: number;
  /** The S3-compatible store of files (S3_URL); null = the local disk under dataDir/files. */
  readonly s3: S3Location | null;
  /** Microsoft identity platform app registration for linking mailboxes (docs/extmail.md); null = linking is off (412). */
  readonly microsoftClientId: string | null;
  readonly microsoftClientSecret: string | null;
  /** Tenant path segment of the authorize/token endpoints (`common`, `organizations` or a tenant id). */
  readonly microsoftTenant: string;
  /** Identity platform base (tests point it at a loopback fake). */
  readonly microsoftLoginUrl: string;
  /** Graph base including the version (tests point it at a loopback fake). */
  readonly microsoftGraphUrl: string;
  /** Minutes between the periodic syncs of each linked mailbox (EXTMAIL_SYNC_INTERVAL_MINUTES). */
  readonly extmailSyncMinutes: number;
  /** Push provider credentials and URLs, shared and per app (config-push.ts, ADR 0032); a null provider's pushes are recorded as skipped. */
  readonly push: PushConfig;
  /**
   * The brokerage's own listing page for alert emails: `{id}`, `{mls}` and `{mls_number}` are replaced
   * (docs/saved-searches.md); null = Gable's public listing page, WEB_URL/l/<id> (docs/public-pages.md).
   */
  readonly listingUrl: string | null;
  /**
   * The brokerage's own page for an alert's "see all" link: `{token}`, `{search}`, `{contact}` and `{brand}` are
   * replaced; null = Gable's alert results page, WEB_URL/a/<token> (docs/public-pages.md).
   */
  readonly alertUrl: string | null;
  /** Days an alert link (WEB_URL/a/<token>) keeps working after the alert is sent (ALERT_LINK_TTL_DAYS). */
  readonly alertLinkTtlDays: number;
  /** Statements that take this long or longer are logged and counted (SLOW_QUERY_MS; 0 = every statement). */
  readonly slowQueryMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const LOG_FORMATS = ['json', 'pretty'] as const;

/** The configuration file every command reads from its working directory when there is one. */
export const ENV_FILE = '.env';

/**
 * The variables a command runs with: the environment's, over those of `.env` in the working directory when it
 * exists (a value in the environment wins, as docker compose and most tools do). A malformed line stops here,
 * named by its number, before anything starts.
 */
export function environment(directory: string = process.cwd(), env: Env = process.env): Env {
  const path = join(directory, ENV_FILE);
  if (!existsSync(path)) return env;
  try {
    return { ...parseEnvFile(readFileSync(path, 'utf8')), ...env };
  } catch (error) {
    if (error instanceof EnvFileError) throw new ConfigError([`${path}, ${error.message}`]);
    throw error;
  }
}

/** Loopback, both families: what the embedded demo opens to webhooks (withEmbeddedDemoDefaults). */
export const DEMO_LOOPBACK_NETWORKS = ['127.0.0.0/8', '::1/128'] as const;

/**
 * What `gable serve` on the embedded database opens by itself, so the walk-throughs run without a restart
 * (decisions §20): webhooks to this machine's loopback (a receiver in another terminal). Only while the API itself
 * answers on loopback alone, so nobody but this machine's users can point a webhook there; never with
 * DATABASE_URL; never over a WEBHOOK_ALLOWED_NETWORKS the operator set.
 */
export function withEmbeddedDemoDefaults(config: Config): Config {
  const host = config.host.replace(/^\[|\]$/g, '');
  const listensOnLoopback = host === 'localhost' || (ipaddr.isValid(host) && ipaddr.parse(host).range() === 'loopback');
  if (!config.embedded || config.webhookAllowedNetworks.length > 0 || !listensOnLoopback) return config;
  return { ...config, webhookAllowedNetworks: [...DEMO_LOOPBACK_NETWORKS] };
}

/** Where the distributions' packages put a Chromium or Chrome: Debian, Ubuntu's transitional name, Google's. */
const BROWSER_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable'];

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function loadConfig(env: Env = environment(), overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const raw = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const read = (name: VariableName): string | undefined => raw(name);

  const port = parseInteger(read('PORT') ?? '3000', 'PORT', 0, 65535, problems);
  const host = read('HOST') ?? '127.0.0.1';
  const baseUrl = parseUrl(
    read('BASE_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    'BASE_URL',
    problems,
  );
  const webUrl = parseUrl(read('WEB_URL') ?? baseUrl, 'WEB_URL', problems);
  const dataDir = resolve(read('DATA_DIR') ?? './data');
  const databaseUrl = read('DATABASE_URL') ?? null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  const appName = read('APP_NAME') ?? 'Gable';
  const logLevel = (read('LOG_LEVEL') ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = read('LOG_FORMAT') ?? (process.stdout.isTTY ? 'pretty' : 'json');
  if (!(LOG_FORMATS as readonly string[]).includes(logFormat)) problems.push('LOG_FORMAT must be json or pretty');
  const smtpUrl = read('SMTP_URL') ?? null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL must start with smtp:// or smtps://');
  const mailFrom = read('MAIL_FROM') ?? `${appName} <no-reply@${senderDomain(baseUrl)}>`;
  const workersInProcess = parseBoolean(read('WORKERS_IN_PROCESS') ?? 'true', 'WORKERS_IN_PROCESS', problems);
  const shutdownTimeoutSeconds = parseInteger(
    read('SHUTDOWN_TIMEOUT_SECONDS') ?? '10',
    'SHUTDOWN_TIMEOUT_SECONDS',
    1,
    3600,
    problems,
  );
  const databasePoolSize = parseInteger(read('DATABASE_POOL_SIZE') ?? '20', 'DATABASE_POOL_SIZE', 2, 1000, problems);
  const shutdownDelaySeconds = parseInteger(
    read('SHUTDOWN_DELAY_SECONDS') ?? '0',
    'SHUTDOWN_DELAY_SECONDS',
    0,
    300,
    problems,
  );
  const trustProxy = parseTrustProxy(read('TRUST_PROXY') ?? 'false', problems);
  const publicRateLimit = parseInteger(read('PUBLIC_RATE_LIMIT') ?? '100', 'PUBLIC_RATE_LIMIT', 1, 1_000_000, problems);
  const publicRateWindowSeconds = parseInteger(
    read('PUBLIC_RATE_WINDOW_SECONDS') ?? '900',
    'PUBLIC_RATE_WINDOW_SECONDS',
    1,
    86_400,
    problems,
  );
  const corsOrigins = parseOrigins(read('CORS_ORIGINS') ?? '', problems);
  const webhookAllowedNetworks = parseNetworks(read('WEBHOOK_ALLOWED_NETWORKS') ?? '', problems);
  const pushApps = parsePushApps(read('PUSH_APPS') ?? '', problems);
  const streamHeartbeatSeconds = parseInteger(
    read('STREAM_HEARTBEAT_SECONDS') ?? '25',
    'STREAM_HEARTBEAT_SECONDS',
    1,
    3600,
    problems,
  );
  const chromiumSetting = read('CHROMIUM_PATH');
  const chromiumPath =
    chromiumSetting === 'none' ? null : (chromiumSetting ?? BROWSER_PATHS.find(isExecutableFile) ?? null);
  if (chromiumSetting && chromiumSetting !== 'none' && !isExecutableFile(chromiumSetting))
    problems.push(`CHROMIUM_PATH ${chromiumSetting} is not an executable file (or set it to none)`);
  const renderTimeoutMs = parseInteger(
    read('RENDER_TIMEOUT_MS') ?? '30000',
    'RENDER_TIMEOUT_MS',
    1000,
    600_000,
    problems,
  );
  const s3Setting = read('S3_URL');
  const s3 = s3Setting ? parseS3Url(s3Setting) : null;
  if (typeof s3 === 'string') problems.push(s3);
  const microsoftClientId = read('MICROSOFT_CLIENT_ID') ?? null;
  const microsoftClientSecret = read('MICROSOFT_CLIENT_SECRET') ?? null;
  const microsoftTenant = read('MICROSOFT_TENANT') ?? 'common';
  if (!/^[A-Za-z0-9.-]{1,100}$/.test(microsoftTenant))
    problems.push('MICROSOFT_TENANT must be common, organizations, consumers, a tenant id or a domain');
  const microsoftLoginUrl = parseUrl(
    read('MICROSOFT_LOGIN_URL') ?? 'https://login.microsoftonline.com',
    'MICROSOFT_LOGIN_URL',
    problems,
  );
  const microsoftGraphUrl = parseUrl(
    read('MICROSOFT_GRAPH_URL') ?? 'https://graph.microsoft.com/v1.0',
    'MICROSOFT_GRAPH_URL',
    problems,
  );
  const extmailSyncMinutes = parseInteger(
    read('EXTMAIL_SYNC_INTERVAL_MINUTES') ?? '15',
    'EXTMAIL_SYNC_INTERVAL_MINUTES',
    1,
    10_080,
    problems,
  );
  const listingUrl = read('LISTING_URL') ?? null;
  if (listingUrl !== null && !/^https?:\/\//.test(listingUrl))
    problems.push('LISTING_URL must be an http(s) URL template, e.g. https://example.com/listings/{id}');
  const alertUrl = read('ALERT_URL') ?? null;
  if (alertUrl !== null && !/^https?:\/\//.test(alertUrl))
    problems.push('ALERT_URL must be an http(s) URL template, e.g. https://example.com/alerts?token={token}');
  const alertLinkTtlDays = parseInteger(read('ALERT_LINK_TTL_DAYS') ?? '90', 'ALERT_LINK_TTL_DAYS', 1, 3650, problems);
  const embedded = databaseUrl === null;
  // The embedded database answers in the server's own thread, so a statement there stalls every request: flag sooner.
  const slowQueryMs = parseInteger(
    read('SLOW_QUERY_MS') ?? (embedded ? '500' : '2000'),
    'SLOW_QUERY_MS',
    0,
    3_600_000,
    problems,
  );
  const secretKey = resolveSecretKey(read('SECRET_KEY'), embedded, dataDir, problems);
  const previousSecretKeys = parsePreviousKeys(read('SECRET_KEY_PREVIOUS') ?? '', secretKey, problems);
  const push = parsePushConfig(
    raw,
    Object.keys(env).filter((name) => raw(name) !== undefined),
    pushApps,
    embedded,
    dataDir,
    baseUrl,
    problems,
  );

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    port,
    host,
    baseUrl,
    webUrl,
    dataDir,
    databaseUrl,
    appName,
    logLevel,
    logFormat: logFormat as Config['logFormat'],
    secretKey: secretKey!,
    previousSecretKeys,
    smtpUrl,
    mailFrom,
    workersInProcess: embedded ? true : workersInProcess,
    shutdownTimeoutSeconds,
    databasePoolSize,
    shutdownDelaySeconds,
    trustProxy,
    embedded,
    publicRateLimit,
    publicRateWindowSeconds,
    corsOrigins,
    webhookAllowedNetworks,
    pushApps,
    streamHeartbeatSeconds,
    chromiumPath,
    renderTimeoutMs,
    s3: typeof s3 === 'string' ? null : s3,
    microsoftClientId,
    microsoftClientSecret,
    microsoftTenant,
    microsoftLoginUrl,
    microsoftGraphUrl,
    extmailSyncMinutes,
    push,
    listingUrl,
    alertUrl,
    alertLinkTtlDays,
    slowQueryMs,
    ...overrides,
  });
}

/**
 * SECRET_KEY is 32 bytes as 64 hex characters or base64. Embedded mode generates one into DATA_DIR/secret.key
 * on first start, so `npm start` needs no set-up; a server on PostgreSQL must be given one, because several
 * processes must share it and losing it makes every encrypted secret unreadable.
 */
function resolveSecretKey(
  value: string | undefined,
  embedded: boolean,
  dataDir: string,
  problems: string[],
): Buffer | undefined {
  if (value) {
    const key = decodeKey(value);
    if (!key) problems.push('SECRET_KEY must be 32 bytes, written as 64 hex characters or as base64');
    return key;
  }
  if (!embedded) {
    problems.push('SECRET_KEY is required with DATABASE_URL (generate one with: openssl rand -hex 32)');
    return undefined;
  }
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const key = decodeKey(readFileSync(file, 'utf8').trim());
    if (!key) problems.push(`${file} does not hold a 32-byte key`);
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  return key;
}

/**
 * SECRET_KEY_PREVIOUS: one key or a comma-separated list, each written as SECRET_KEY is. A list item that is
 * SECRET_KEY itself is refused: it means the new key was not set, and a rotation would then change nothing.
 */
function parsePreviousKeys(text: string, current: Buffer | undefined, problems: string[]): Buffer[] {
  const keys: Buffer[] = [];
  const items = text.split(',').map((item) => item.trim());
  if (text === '') return keys;
  for (const [index, item] of items.entries()) {
    const name = items.length > 1 ? `SECRET_KEY_PREVIOUS item ${index + 1}` : 'SECRET_KEY_PREVIOUS';
    const key = decodeKey(item);
    if (!key) problems.push(`${name} must be 32 bytes, written as 64 hex characters or as base64`);
    else if (current?.equals(key)) problems.push(`${name} is SECRET_KEY itself: set SECRET_KEY to the new key`);
    else if (keys.some((other) => other.equals(key))) problems.push(`${name} repeats an earlier item`);
    else keys.push(key);
  }
  return keys;
}

function decodeKey(text: string): Buffer | undefined {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === 32 ? key : undefined;
}

function parseInteger(text: string, name: string, min: number, max: number, problems: string[]): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    problems.push(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

function parseBoolean(text: string, name: string, problems: string[]): boolean {
  if (/^(1|true|yes|on)$/i.test(text)) return true;
  if (/^(0|false|no|off)$/i.test(text)) return false;
  problems.push(`${name} must be true or false`);
  return false;
}

function parseUrl(text: string, name: string, problems: string[]): string {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    return text.replace(/\/+$/, '');
  } catch {
    problems.push(`${name} must be an absolute http(s) URL`);
    return text;
  }
}

/** `https://a.example,http://localhost:5173` → exact origins (scheme, host, port; no path). */
function parseOrigins(text: string, problems: string[]): string[] {
  const origins: string[] = [];
  for (const item of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    try {
      const url = new URL(item);
      if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== item.replace(/\/$/, ''))
        throw new Error('not an origin');
      origins.push(url.origin);
    } catch {
      problems.push(
        `CORS_ORIGINS must list origins such as https://www.example.com (scheme, host and port only): "${item}"`,
      );
    }
  }
  return origins;
}

/** `127.0.0.0/8,::1/128,10.0.0.5` → CIDRs (a bare address is one host). */
/**
 * `true`/`false`, a count of proxies in front (Fastify then takes the address the outermost of them saw, however
 * many addresses a client put in front of it), or the proxies' own addresses and CIDRs (every hop from one of them
 * is skipped). The last two are safe where a proxy appends to X-Forwarded-For instead of overwriting it.
 */
function parseTrustProxy(text: string, problems: string[]): boolean | number | string[] {
  if (/^(true|yes|on)$/i.test(text)) return true;
  if (/^(false|no|off|0)$/i.test(text)) return false;
  if (/^\d+$/.test(text)) return Number(text);
  const addresses = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const bad = addresses.filter((item) => {
    try {
      parseCidr(item.includes('/') ? item : `${item}/${item.includes(':') ? 128 : 32}`);
      return false;
    } catch {
      return true;
    }
  });
  if (addresses.length === 0 || bad.length > 0)
    problems.push(
      `TRUST_PROXY must be true, false, a number of proxies or their addresses and CIDRs: "${bad[0] ?? text}"`,
    );
  return addresses;
}

function parseNetworks(text: string, problems: string[]): string[] {
  const networks: string[] = [];
  for (const item of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    try {
      parseCidr(item);
      networks.push(item);
    } catch {
      problems.push(`WEBHOOK_ALLOWED_NETWORKS must list CIDRs such as 127.0.0.0/8 or fd00::/8: "${item}"`);
    }
  }
  return networks;
}

/** The app that is always known (decisions §16): the main app. */
export const MAIN_PUSH_APP = 'rechat';
const APP_KEY = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** `PUSH_APPS=brokerage-ios,brokerage-web` → the configured app keys, `rechat` first. */
function parsePushApps(text: string, problems: string[]): string[] {
  const apps = [MAIN_PUSH_APP];
  for (const item of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    if (!APP_KEY.test(item))
      problems.push(
        `PUSH_APPS must list app keys of lower-case letters, digits, '.', '_' and '-' (at most 64): "${item}"`,
      );
    else if (!apps.includes(item)) apps.push(item);
  }
  return apps;
}

/** Two labels or more, the last starting with a letter: a domain name, not an IPv4 (nor a bracketed IPv6) address. */
const DOMAIN_NAME = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z][a-z0-9-]*$/i;

/**
 * The domain of MAIL_FROM's default: BASE_URL's host when it is a domain name. An IP literal is no mail domain
 * (`no-reply@127.0.0.1`, what the default BASE_URL gave, is refused by relays and by address checks) and a single
 * label such as `localhost` fails most of them too; then `gable.localhost`, a name reserved for this machine
 * (RFC 6761) that is a valid address all the same. docs/mail.md says to set MAIL_FROM before mail leaves it.
 */
function senderDomain(baseUrl: string): string {
  const host = safeHostname(baseUrl);
  return DOMAIN_NAME.test(host) ? host : 'gable.localhost';
}

function safeHostname(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'localhost';
  }
}
