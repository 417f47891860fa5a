// `gable doctor` (issue 30 item 4): one row per feature — ready, off, or broken — with what to set for the ones that
// are not ready. The checks reach each part the configuration names (the database, the SMTP relay, the S3 bucket,
// the browser), each within a time limit, so a part that hangs is reported broken rather than waited for. No row
// carries a secret: URLs are shown without their passwords.
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DB } from '../db/types.js';
import { migrationState } from '../db/migrator.js';
import { serverVersion } from '../db/probes.js';
import { verifySmtp } from '../mail/transport.js';
import type { FileStore } from '../files/store.js';
import type { Renderer } from '../render/renderer.js';
import type { SealedColumns } from '../db/sealed-columns.js';
import { keyFingerprint, SecretBox } from '../lib/crypto.js';
import { previousKeyName, rotationRefusals, surveySealed, underPreviousKeys } from './secret-rotation.js';

export type FeatureState = 'ready' | 'off' | 'broken';

export interface FeatureStatus {
  feature: string;
  state: FeatureState;
  /** What was found, or why it is off or broken; for off and broken, the variable to set or the command to run. */
  detail: string;
}

/** The parts the checks reach; `db` is null when another process holds the embedded database (its lock). */
export interface StatusParts {
  config: Config;
  db: Kysely<DB> | null;
  files: FileStore;
  renderer: Renderer | null;
  /**
   * The columns holding sealed secrets (cli/sealed-columns.ts), counted by key during a rotation (`gable doctor`);
   * without them the row names the keys only (GET /admin/status, which opens no stored secret).
   */
  sealed?: readonly SealedColumns[];
}

/** Each check's own time limit (a relay that accepts the connection and never greets, a bucket that hangs). */
export const CHECK_TIMEOUT_MS = 8000;

export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

/** `work`, or an error naming `what` once CHECK_TIMEOUT_MS have passed without an answer. */
export function withinLimit<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

async function database({ config, db }: StatusParts): Promise<FeatureStatus> {
  const where = config.databaseUrl ? `PostgreSQL at ${withoutPassword(config.databaseUrl)}` : 'embedded';
  if (!db)
    return { feature: 'database', state: 'ready', detail: `${where}, open in the running server (checked there)` };
  try {
    const version = await withinLimit(serverVersion(db), 'the database');
    const { pending, ahead } = await withinLimit(migrationState(db), 'the database');
    const found = `${where}, PostgreSQL ${version}`;
    if (pending.length > 0)
      return {
        feature: 'database',
        state: 'broken',
        detail: `${found}; ${pending.length} migration(s) not applied (first: ${pending[0]}): run gable migrate`,
      };
    if (ahead.length > 0)
      return {
        feature: 'database',
        state: 'ready',
        detail: `${found}, ${ahead.length} migration(s) of a newer version (${ahead.at(-1)}): replace this version`,
      };
    return { feature: 'database', state: 'ready', detail: `${found}, migrations current` };
  } catch (error) {
    return { feature: 'database', state: 'broken', detail: `${where}: ${reason(error)} (check DATABASE_URL)` };
  }
}

async function mail({ config }: StatusParts): Promise<FeatureStatus> {
  if (!config.smtpUrl)
    return {
      feature: 'mail',
      state: 'ready',
      detail: `written as files under ${config.dataDir}/mail, not sent (set SMTP_URL to send)`,
    };
  try {
    const answered = await verifySmtp(config.smtpUrl, CHECK_TIMEOUT_MS);
    return { feature: 'mail', state: 'ready', detail: `SMTP ${answered}, from ${config.mailFrom}` };
  } catch (error) {
    return {
      feature: 'mail',
      state: 'broken',
      detail: `SMTP ${withoutPassword(config.smtpUrl)}: ${reason(error)} (check SMTP_URL)`,
    };
  }
}

async function files({ config, files: store }: StatusParts): Promise<FeatureStatus> {
  try {
    return { feature: 'file store', state: 'ready', detail: await withinLimit(store.check(), 'the file store') };
  } catch (error) {
    return {
      feature: 'file store',
      state: 'broken',
      detail: `${reason(error)} (check ${config.s3 ? 'S3_URL' : 'DATA_DIR'})`,
    };
  }
}

async function renderer({ renderer: browser }: StatusParts): Promise<FeatureStatus> {
  if (!browser)
    return {
      feature: 'print rendering',
      state: 'off',
      detail: 'no browser: install Chromium (Debian: apt install chromium) or set CHROMIUM_PATH',
    };
  try {
    return { feature: 'print rendering', state: 'ready', detail: await withinLimit(browser.check(), 'the browser') };
  } catch (error) {
    return { feature: 'print rendering', state: 'broken', detail: `${reason(error)} (check CHROMIUM_PATH)` };
  }
}

/** SECRET_KEY by its fingerprint; during a rotation, what is still stored under a previous key. */
async function secrets({ config, db, sealed }: StatusParts): Promise<FeatureStatus> {
  const current = `SECRET_KEY fingerprint ${keyFingerprint(config.secretKey)}`;
  if (config.previousSecretKeys.length === 0) return { feature: 'secrets', state: 'ready', detail: current };
  const previous = config.previousSecretKeys.map((_, i) => previousKeyName(config, i + 1)).join(', ');
  if (!db || !sealed) return { feature: 'secrets', state: 'ready', detail: `${current}; ${previous} set (rotating)` };
  try {
    const box = new SecretBox(config.secretKey, config.previousSecretKeys);
    const survey = await withinLimit(surveySealed(db, box, config, sealed), 'the database');
    const refusals = rotationRefusals(survey, config);
    if (refusals.length > 0)
      return { feature: 'secrets', state: 'broken', detail: `${current}; ${refusals.join('; ')}` };
    const left = underPreviousKeys(survey);
    return {
      feature: 'secrets',
      state: 'ready',
      detail:
        left > 0
          ? `${current}; ${left} stored secret(s) still under ${previous}: run gable secrets rotate`
          : `${current}; nothing stored under ${previous}: it may be dropped once the links signed before the rotation have expired`,
    };
  } catch (error) {
    return { feature: 'secrets', state: 'broken', detail: `${current}; ${reason(error)}` };
  }
}

function push({ config }: StatusParts): FeatureStatus {
  // An app without settings of its own uses the very shared provider objects (config-push.ts): listed once, as shared.
  const shared = config.push;
  const own = [...config.push.apps.entries()].filter(
    ([, p]) => p.vapid !== shared.vapid || p.fcm !== shared.fcm || p.apns !== shared.apns,
  );
  const apps = [['shared', config.push] as const, ...own];
  const described = apps
    .map(([app, providers]) => {
      const ready = [providers.vapid && 'Web Push', providers.fcm && 'FCM', providers.apns && 'APNs'].filter(Boolean);
      return ready.length > 0 ? `${app}: ${ready.join(', ')}` : null;
    })
    .filter((entry) => entry !== null);
  if (described.length === 0)
    return {
      feature: 'push',
      state: 'off',
      detail: 'no provider configured: set VAPID_*, FCM_CREDENTIALS or APNS_* (docs/notifications.md)',
    };
  return { feature: 'push', state: 'ready', detail: described.join('; ') };
}

function microsoft({ config }: StatusParts): FeatureStatus {
  if (config.microsoftClientId && config.microsoftClientSecret)
    return {
      feature: 'Microsoft 365',
      state: 'ready',
      detail: `app ${config.microsoftClientId}, tenant ${config.microsoftTenant}`,
    };
  return {
    feature: 'Microsoft 365',
    state: 'off',
    detail: 'mailbox linking answers 412: set MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET',
  };
}

function network({ config }: StatusParts): FeatureStatus {
  return {
    feature: 'outbound network',
    state: 'ready',
    detail:
      config.webhookAllowedNetworks.length > 0
        ? `public addresses and ${config.webhookAllowedNetworks.join(', ')} (WEBHOOK_ALLOWED_NETWORKS)`
        : 'public addresses only (WEBHOOK_ALLOWED_NETWORKS lets a private receiver through)',
  };
}

function addresses({ config }: StatusParts): FeatureStatus {
  return {
    feature: 'addresses',
    state: 'ready',
    detail: `BASE_URL ${config.baseUrl}, WEB_URL ${config.webUrl}, LISTING_URL ${config.listingUrl ?? 'unset (WEB_URL/l/<id>)'}, ALERT_URL ${config.alertUrl ?? 'unset (WEB_URL/a/<token>)'}`,
  };
}

/** Every feature's row, the slow checks side by side. */
export async function featureStatus(parts: StatusParts): Promise<FeatureStatus[]> {
  const checked = await Promise.all([database(parts), mail(parts), files(parts), renderer(parts), secrets(parts)]);
  return [...checked, push(parts), microsoft(parts), network(parts), addresses(parts)];
}

/** The rows as an aligned table, one line each. */
export function formatStatus(rows: readonly FeatureStatus[]): string {
  const width = Math.max(...rows.map((row) => row.feature.length));
  return rows.map((row) => `${row.feature.padEnd(width)}  ${row.state.padEnd(6)}  ${row.detail}`).join('\n');
}
