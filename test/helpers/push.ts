// Test support for push delivery: a device registered straight in the table (the loopback fakes speak plain
// http or use a private CA, which the registration route rightly refuses), the ledger rows and the queued jobs.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../src/platform/deps.js';
import { hashToken } from '../../src/lib/crypto.js';
import { queuedJobs } from './jobs.js';
import type { FakeApns } from '../fakes/apns.js';
import type { FakeFcm } from '../fakes/fcm.js';
import type { PushProvider } from '../../src/modules/notifications/notifications.columns.js';
import { upsertToken } from '../../src/modules/notifications/tokens.repository.js';

export { generateVapidKeys as vapidKeys } from '../../src/config-push.js';

/** Device tokens shaped as the providers issue them. */
export const fcmToken = () => `${randomBytes(8).toString('base64url')}:APA91b${randomBytes(60).toString('base64url')}`;
export const apnsToken = () => randomBytes(32).toString('hex');

/** The FCM variables pointing at a loopback fake; `suffix` (`_BROKERAGE_IOS`) names an app's own (ADR 0032). */
export function fcmEnv(fake: FakeFcm, suffix = ''): Record<string, string> {
  return {
    [`FCM_CREDENTIALS${suffix}`]: fake.credentialsFile,
    [`FCM_URL${suffix}`]: fake.url,
    [`FCM_TOKEN_URL${suffix}`]: fake.tokenUrl,
  };
}

/** The APNs variables pointing at a loopback fake; without `withCa` the app falls back to the shared CA file. */
export function apnsEnv(fake: FakeApns, suffix = '', { withCa = true } = {}): Record<string, string> {
  return {
    [`APNS_KEY_FILE${suffix}`]: fake.keyFile,
    [`APNS_KEY_ID${suffix}`]: fake.keyId,
    [`APNS_TEAM_ID${suffix}`]: fake.teamId,
    [`APNS_TOPIC${suffix}`]: fake.topic,
    [`APNS_URL${suffix}`]: fake.url,
    ...(withCa ? { [`APNS_CA_FILE${suffix}`]: fake.caFile } : {}),
  };
}

export async function addDevice(
  deps: Deps,
  user: string,
  provider: PushProvider,
  channel: string,
  app = 'rechat',
): Promise<string> {
  await upsertToken(
    deps.db,
    {
      user,
      app,
      provider,
      channel_hash: hashToken(channel),
      channel_encrypted: deps.secrets.encrypt(channel),
      device_id: `device-${channel.length}-${hashToken(channel).toString('hex').slice(0, 8)}`,
    },
    deps.clock.now(),
  );
  const row = await deps.db
    .selectFrom('notification_tokens')
    .select('id')
    .where('app', '=', app)
    .where('channel_hash', '=', hashToken(channel))
    .executeTakeFirstOrThrow();
  return row.id;
}

export function deliveriesOf(deps: Deps, notification: string) {
  return deps.db
    .selectFrom('push_deliveries')
    .selectAll()
    .where('notification', '=', notification)
    .orderBy('created_at')
    .execute();
}

export async function pushJobs(deps: Deps) {
  return queuedJobs(deps, ['notifications.push']);
}

export async function pushCount(deps: Deps, provider: string, outcome: string): Promise<number> {
  const metric = await deps.metrics.pushes.get();
  return metric.values.find((v) => v.labels.provider === provider && v.labels.outcome === outcome)?.value ?? 0;
}
