// The push providers behind one interface (decisions §16): Web Push, FCM HTTP v1, APNs. A provider without
// credentials in config for the device's app is not configured: its pushes are recorded as skipped. Senders keep
// per-process state (an FCM access token, an APNs JWT and HTTP/2 session), so there is one per Deps and credentials.
import { providersOf, type ApnsConfig, type FcmConfig, type VapidConfig } from '../../config-push.js';
import type { Deps } from '../../platform/deps.js';
import type { PushProvider } from './notifications.columns.js';
import { ApnsSender } from './push.apns.js';
import { FcmSender } from './push.fcm.js';
import { WebPushSender } from './push.webpush.js';
import type { PushSender } from './push.sender.js';

/** The credentials `app` pushes with to `provider` (its own or the shared ones, ADR 0032); null = not configured. */
function credentialsOf(config: Deps['config'], provider: PushProvider, app: string): object | null {
  const providers = providersOf(config.push, app);
  if (provider === 'webpush') return providers.vapid;
  if (provider === 'fcm') return providers.fcm;
  return providers.apns;
}

export function isConfigured(config: Deps['config'], provider: PushProvider, app: string): boolean {
  return credentialsOf(config, provider, app) !== null;
}

/**
 * One sender per set of credentials: apps on the shared credentials share a sender (one FCM access token, one
 * APNs JWT and HTTP/2 session); an app with its own has its own sender, and so its own cached tokens.
 */
const senders = new WeakMap<Deps, Map<object, PushSender>>();

/** The sender of `provider` for `app`'s devices, or null when the app has no credentials for the provider. */
export function senderFor(deps: Deps, provider: PushProvider, app: string): PushSender | null {
  const credentials = credentialsOf(deps.config, provider, app);
  if (!credentials) return null;
  let byCredentials = senders.get(deps);
  if (!byCredentials) senders.set(deps, (byCredentials = new Map()));
  let sender = byCredentials.get(credentials);
  if (!sender) {
    sender = createSender(deps, provider, credentials);
    byCredentials.set(credentials, sender);
  }
  return sender;
}

function createSender(deps: Deps, provider: PushProvider, credentials: object): PushSender {
  if (provider === 'webpush') return new WebPushSender(deps.outbound, credentials as VapidConfig, deps.clock);
  if (provider === 'fcm') return new FcmSender(deps.outbound, credentials as FcmConfig, deps.clock);
  return new ApnsSender(deps.outbound, credentials as ApnsConfig, deps.clock);
}

/** Closes what senders hold open (APNs HTTP/2 sessions); called when the process stops. */
export async function closeSenders(deps: Deps): Promise<void> {
  const byCredentials = senders.get(deps);
  senders.delete(deps);
  for (const sender of byCredentials?.values() ?? []) await sender.close?.();
}
