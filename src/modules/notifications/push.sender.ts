// What every push provider's sender is and shares (push.webpush.ts, push.fcm.ts, push.apns.ts); push.providers.ts
// picks the sender of a device. A leaf, so the providers and the registry of providers do not import each other.
import type { OutboundError } from '../../lib/outbound.js';
import type { PushMessage } from './push.message.js';

/** How long one push request may take. */
export const PUSH_TIMEOUT_MS = 15_000;

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

/** Shared by the providers: an HTTP answer that is neither success nor about the device. */
export function retryOrFail(status: number, retryAfter: number | null, error: string): PushResult {
  if (status === 429 || status >= 500) return { outcome: 'retry', status, error, retryAfter };
  return { outcome: 'failed', status, error };
}

/** A request that never got an answer: a refused or invalid address fails for good, anything else is retried. */
export function outboundFailure(error: OutboundError): PushResult {
  const permanent = error.kind === 'invalid_url' || error.kind === 'refused_address';
  const text = `${error.kind}: ${error.message}`;
  return permanent
    ? { outcome: 'failed', status: null, error: text }
    : { outcome: 'retry', status: null, error: text, retryAfter: null };
}
