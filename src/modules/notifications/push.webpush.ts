// Web Push (RFC 8030 delivery, RFC 8291 payload encryption, RFC 8292 VAPID). The `web-push` library does the
// cryptography only — encrypting the payload for the subscription's keys and signing the VAPID JWT
// (generateRequestDetails); the request itself goes through our outbound client, so the SSRF guard, deadline
// and size cap apply to push services as to every other destination (docs/adr/0014-web-push.md).
import webpush from 'web-push';
import type { VapidConfig } from '../../config-push.js';
import { systemClock, type Clock } from '../../lib/clock.js';
import { OutboundError, type OutboundHttp } from '../../lib/outbound.js';
import { parseRetryAfter } from '../../lib/retry-after.js';
import type { PushMessage } from './push.message.js';
import { PUSH_TIMEOUT_MS, retryOrFail, type PushResult, type PushSender } from './push.sender.js';

/** Lifetime of a VAPID JWT (RFC 8292 allows up to 24 h); one is signed per push service and reused meanwhile. */
export const VAPID_JWT_SECONDS = 12 * 3600;
/** A cached JWT is replaced this long before it expires, so no push carries one about to expire. */
const VAPID_RENEW_BEFORE_SECONDS = 3600;
/** Push services are few (one per browser vendor); a bound all the same. */
const MAX_CACHED_AUDIENCES = 1000;
/** How long a push service keeps a message for an offline browser (seconds). */
const TTL_SECONDS = 24 * 3600;

interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The JSON the service worker's `push` event reads (`event.data.json()`). */
export function webPushPayload(message: PushMessage): string {
  if (message.silent) return JSON.stringify({ silent: true, badge: message.badge, data: message.data });
  return JSON.stringify({
    title: message.title,
    body: message.body,
    badge: message.badge,
    sound: message.sound,
    data: message.data,
  });
}

export class WebPushSender implements PushSender {
  /** The `Authorization` header per push service origin (the JWT's `aud`), with when it was signed. */
  private readonly vapidHeaders = new Map<string, { authorization: string; signedAt: number }>();

  constructor(
    private readonly outbound: OutboundHttp,
    private readonly vapid: VapidConfig,
    private readonly clock: Clock,
    /**
     * The JWT's clock: the push service checks `exp` against its own, and web-push refuses one over 24 h after the
     * system's now, so it is the system clock, not the app's (which tests move by a day).
     */
    private readonly jwtClock: Clock = systemClock,
  ) {}

  /**
   * `vapid t=<JWT>, k=<public key>` for the push service of `endpoint`. Signing it was most of a push's cost
   * (web-push converts the key and signs anew on every call: ~0.8 ms, four times the payload encryption), and the
   * JWT names only the service, not the push, so it is signed once per service and reused until an hour before it
   * expires (or at once if the clock went back).
   */
  private vapidAuthorization(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    const now = this.jwtClock.now().getTime();
    const cached = this.vapidHeaders.get(audience);
    if (
      cached &&
      now >= cached.signedAt &&
      now < cached.signedAt + (VAPID_JWT_SECONDS - VAPID_RENEW_BEFORE_SECONDS) * 1000
    )
      return cached.authorization;
    const expiration = Math.floor(now / 1000) + VAPID_JWT_SECONDS;
    const { Authorization: authorization } = webpush.getVapidHeaders(
      audience,
      this.vapid.subject,
      this.vapid.publicKey,
      this.vapid.privateKey,
      'aes128gcm',
      expiration,
    );
    if (this.vapidHeaders.size >= MAX_CACHED_AUDIENCES) this.vapidHeaders.clear();
    this.vapidHeaders.set(audience, { authorization, signedAt: now });
    return authorization;
  }

  async send(channel: string, message: PushMessage): Promise<PushResult> {
    let subscription: Subscription;
    let details: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      subscription = JSON.parse(channel) as Subscription;
      details = webpush.generateRequestDetails(subscription, webPushPayload(message), {
        headers: { Authorization: this.vapidAuthorization(subscription.endpoint) },
        TTL: TTL_SECONDS,
        urgency: message.silent ? 'low' : 'normal',
        // A repeated send of this push replaces the one the service still holds (RFC 8030 §5.4).
        topic: message.id.replaceAll('-', ''),
      });
    } catch (error) {
      return {
        outcome: 'failed',
        status: null,
        error: `cannot encrypt for this subscription: ${(error as Error).message}`,
      };
    }
    const headers = Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name, String(value)]));
    try {
      const response = await this.outbound.request({
        method: 'POST',
        url: details.endpoint,
        headers,
        body: details.body ?? Buffer.alloc(0),
        timeoutMs: PUSH_TIMEOUT_MS,
        maxResponseBytes: 64 * 1024,
        purpose: 'push',
      });
      const { status } = response;
      if (status >= 200 && status < 300) return { outcome: 'sent', status };
      const error = `HTTP ${status}: ${response.body.subarray(0, 200).toString('utf8')}`;
      // RFC 8030 §7.3: 404 / 410 = the subscription expired or was removed.
      if (status === 404 || status === 410) return { outcome: 'dead_token', status, error };
      return retryOrFail(status, parseRetryAfter(response.headers['retry-after'], this.clock.now()), error);
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      const permanent = error.kind === 'invalid_url' || error.kind === 'refused_address';
      const text = `${error.kind}: ${error.message}`;
      return permanent
        ? { outcome: 'failed', status: null, error: text }
        : { outcome: 'retry', status: null, error: text, retryAfter: null };
    }
  }
}
