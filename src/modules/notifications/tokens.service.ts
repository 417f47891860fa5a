// Device tokens (spec §4.8, decisions §10, §16). An `app` key names one client application build (the main app
// `rechat`, or a brokerage's own app) configured on the server with PUSH_APPS: it decides which provider
// credentials (APNs topic, FCM project, VAPID keys) push to the device. A token is unique per (app, channel):
// registering a device that another user registered moves it to the caller (the phone changed hands).
import { providersOf } from '../../config-push.js';
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { hashToken } from '../../lib/crypto.js';
import { loadUserRecord } from '../users/index.js';
import type { UserRecord } from '../users/users.schemas.js';
import { checkChannel } from './tokens.channel.js';
import * as repo from './tokens.repository.js';
import type { RegisterTokenBody } from './tokens.schemas.js';

export function requireKnownApp(deps: Deps, app: string): void {
  if (!deps.config.pushApps.includes(app))
    throw errors.invalidField('app', `is not a known app; known apps: ${deps.config.pushApps.join(', ')}`);
}

/** The Web Push public key `app`'s browsers subscribe with (its own, or the shared one); 404 when it has none. */
export function vapidPublicKey(deps: Deps, app: string): string {
  requireKnownApp(deps, app);
  const vapid = providersOf(deps.config.push, app).vapid;
  if (!vapid) throw errors.notFound('Web Push configuration');
  return vapid.publicKey;
}

export async function registerToken(deps: Deps, user: string, body: RegisterTokenBody): Promise<UserRecord> {
  requireKnownApp(deps, body.app);
  const provider = checkChannel(body.channel, body.provider);
  await repo.upsertToken(
    deps.db,
    {
      user,
      app: body.app,
      provider,
      channel_hash: hashToken(body.channel),
      channel_encrypted: deps.secrets.encrypt(body.channel),
      device_id: body.device_id,
    },
    deps.clock.now(),
  );
  return loadUserRecord(deps, user);
}

/** Unregisters the caller's device (`ref` = its device_id or channel) in `app`, or in every app when null. */
export async function unregisterToken(deps: Deps, user: string, app: string | null, ref: string): Promise<UserRecord> {
  if (app !== null) requireKnownApp(deps, app);
  const deleted = await repo.deleteTokens(deps.db, user, app, { deviceId: ref, channelHash: hashToken(ref) });
  if (deleted === 0) throw errors.notFound('Device token');
  return loadUserRecord(deps, user);
}
