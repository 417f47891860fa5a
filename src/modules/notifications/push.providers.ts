// The push providers behind one interface (decisions §16): Web Push, FCM HTTP v1, APNs. A provider without
// credentials in config is not configured: its pushes are recorded as skipped. Senders keep per-process state
// (an FCM access token, an APNs JWT and HTTP/2 session), so there is one set per Deps.
import type { Deps } from '../../deps.js';
import type { PushProvider } from './notifications.tables.js';
import type { PushMessage } from './push.message.js';
import { ApnsSender } from './push.apns.js';
import { FcmSender } from './push.fcm.js';
import { WebPushSender } from './push.webpush.js';

export type PushResult =
  | { outcome: 'sent'; status: number }
  /** Try again later: 429, 5xx, a network failure. `retryAfter` (seconds) when the provider said. */
  | { outcome: 'retry'; status: number | null; error: string; retryAfter: number | null }
  /** The provider says the device is gone: delete the token. */
  | { outcome: 'dead_token'; status: number; error: string }
  /** Will never work as sent (a 4xx that is not about the device, a refused address). */
  | { outcome: 'failed'; status: number | null; error: string };

export interface PushSender {
  send(channel: string, message: PushMessage): Promise<PushResult>;
  close?(): Promise<void>;
}

export function isConfigured(config: Deps['config'], provider: PushProvider): boolean {
  if (provider === 'webpush') return config.push.vapid !== null;
  if (provider === 'fcm') return config.push.fcm !== null;
  return config.push.apns !== null;
}

const senders = new WeakMap<Deps, Map<PushProvider, PushSender>>();

/** The sender of `provider` for these deps, or null when the provider is not configured. */
export function senderFor(deps: Deps, provider: PushProvider): PushSender | null {
  if (!isConfigured(deps.config, provider)) return null;
  let byProvider = senders.get(deps);
  if (!byProvider) senders.set(deps, (byProvider = new Map()));
  let sender = byProvider.get(provider);
  if (!sender) {
    sender = createSender(deps, provider);
    byProvider.set(provider, sender);
  }
  return sender;
}

function createSender(deps: Deps, provider: PushProvider): PushSender {
  if (provider === 'webpush') return new WebPushSender(deps.outbound, deps.config.push.vapid!, deps.clock);
  if (provider === 'fcm') return new FcmSender(deps.outbound, deps.config.push.fcm!, deps.clock);
  return new ApnsSender(deps.outbound, deps.config.push.apns!, deps.clock);
}

/** Closes what senders hold open (APNs HTTP/2 sessions); called when the process stops. */
export async function closeSenders(deps: Deps): Promise<void> {
  const byProvider = senders.get(deps);
  senders.delete(deps);
  for (const sender of byProvider?.values() ?? []) await sender.close?.();
}

/** Shared by the providers: an HTTP answer that is neither success nor about the device. */
export function retryOrFail(status: number, retryAfter: number | null, error: string): PushResult {
  if (status === 429 || status >= 500) return { outcome: 'retry', status, error, retryAfter };
  return { outcome: 'failed', status, error };
}
