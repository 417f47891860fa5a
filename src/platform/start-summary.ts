// What `gable serve` says once it listens: where it answers and which features are ready, off, and what turns them
// on — the closing block of a first start, and a reminder at every start. Only what the configuration says: no
// secret (a database URL is shown without its password) and no network check, so the start stays fast.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { withoutPassword } from './feature-status.js';

/** The demo world's logins and client secrets, written by the embedded first start (users/demo-seed.first-start.ts). */
const DEMO_JSON_FILE = 'demo.json';

/** One line per fact, in the order an operator reads them. */
export function startSummary(config: Config): string[] {
  const lines = [`Gable is serving at ${config.baseUrl} (API reference: ${config.baseUrl}/docs)`];
  const demo = join(config.dataDir, DEMO_JSON_FILE);
  if (config.embedded && existsSync(demo))
    lines.push(`demo logins and client secrets: ${demo} (also: npx gable seed demo)`);
  lines.push(
    config.databaseUrl
      ? `database: PostgreSQL at ${withoutPassword(config.databaseUrl)}`
      : `database: embedded, in ${join(config.dataDir, 'pgdata')} (set DATABASE_URL for PostgreSQL)`,
    config.smtpUrl
      ? `mail: sent through ${withoutPassword(config.smtpUrl)}, from ${config.mailFrom}`
      : `mail: written as files under ${join(config.dataDir, 'mail')} (set SMTP_URL to send it)`,
    config.s3
      ? `files: S3 bucket ${config.s3.bucket}`
      : `files: on this disk under ${join(config.dataDir, 'files')} (set S3_URL for a bucket)`,
    config.chromiumPath
      ? `print rendering: ready, with ${config.chromiumPath}`
      : 'print rendering: off (install Chromium or set CHROMIUM_PATH)',
    config.microsoftClientId && config.microsoftClientSecret
      ? 'Microsoft 365 mailboxes: ready to link'
      : 'Microsoft 365 mailboxes: off (set MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET)',
    `push: ${pushProviders(config)}`,
    config.webhookAllowedNetworks.length > 0
      ? `webhooks: public addresses and ${config.webhookAllowedNetworks.join(', ')}`
      : 'webhooks: public addresses only (set WEBHOOK_ALLOWED_NETWORKS for a private receiver)',
  );
  return lines;
}

function pushProviders(config: Config): string {
  const ready = [
    config.push.vapid ? 'Web Push' : null,
    config.push.fcm ? 'FCM' : null,
    config.push.apns ? 'APNs' : null,
  ].filter((name) => name !== null);
  return ready.length > 0 ? `${ready.join(', ')} ready` : 'off (docs/notifications.md: VAPID_*, FCM_*, APNS_*)';
}
