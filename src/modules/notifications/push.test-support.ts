// Test support for push delivery: a device registered straight in the table (the loopback fakes speak plain
// http or use a private CA, which the registration route rightly refuses), the ledger rows and the queued jobs.
import type { Deps } from '../../deps.js';
import { hashToken } from '../../lib/crypto.js';
import { queuedJobs } from '../../../test/helpers/jobs.js';
import type { PushProvider } from './notifications.tables.js';
import { upsertToken } from './tokens.repository.js';

export { generateVapidKeys as vapidKeys } from '../../config-push.js';

export async function addDevice(deps: Deps, user: string, provider: PushProvider, channel: string, app = 'rechat'): Promise<string> {
  await upsertToken(
    deps.db,
    { user, app, provider, channel_hash: hashToken(channel), channel_encrypted: deps.secrets.encrypt(channel), device_id: `device-${channel.length}-${hashToken(channel).toString('hex').slice(0, 8)}` },
    deps.clock.now(),
  );
  const row = await deps.db.selectFrom('notification_tokens').select('id').where('app', '=', app).where('channel_hash', '=', hashToken(channel)).executeTakeFirstOrThrow();
  return row.id;
}

export function deliveriesOf(deps: Deps, notification: string) {
  return deps.db.selectFrom('push_deliveries').selectAll().where('notification', '=', notification).orderBy('created_at').execute();
}

export async function pushJobs(deps: Deps) {
  return queuedJobs(deps, ['notifications.push']);
}

export async function pushCount(deps: Deps, provider: string, outcome: string): Promise<number> {
  const metric = await deps.metrics.pushes.get();
  return metric.values.find((v) => v.labels.provider === provider && v.labels.outcome === outcome)?.value ?? 0;
}
