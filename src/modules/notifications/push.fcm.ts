// FCM HTTP v1 (decisions §16): a service-account JSON credential signs a JWT assertion (RS256) that the OAuth
// token endpoint exchanges for an access token, cached until shortly before it expires; each push is one POST to
// {FCM_URL}/v1/projects/{project}/messages:send through the outbound client. The provider's word on a device:
// `UNREGISTERED` (404) = the app was uninstalled or the token expired → delete it.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { FcmConfig } from '../../config-push.js';
import type { Clock } from '../../lib/clock.js';
import { OutboundError, type OutboundHttp, type OutboundResponse } from '../../lib/outbound.js';
import { parseRetryAfter } from '../../lib/retry-after.js';
import { signJwt } from './push.jwt.js';
import type { PushMessage } from './push.message.js';
import { outboundFailure, PUSH_TIMEOUT_MS, retryOrFail, type PushResult, type PushSender } from './push.sender.js';

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** An access token is renewed this long before its expiry. */
const RENEW_BEFORE_SECONDS = 300;

/** FCM `data` values must be strings. */
function stringData(message: PushMessage): Record<string, string> {
  const data: Record<string, string> = { badge: String(message.badge) };
  for (const [key, value] of Object.entries(message.data)) data[key] = value ?? '';
  return data;
}

export function fcmMessage(token: string, message: PushMessage) {
  const visible = !message.silent;
  return {
    message: {
      token,
      data: stringData(message),
      ...(visible ? { notification: { ...(message.title ? { title: message.title } : {}), body: message.body } } : {}),
      android: {
        collapse_key: message.id,
        priority: visible ? 'HIGH' : 'NORMAL',
        ...(visible
          ? { notification: { notification_count: message.badge, ...(message.sound ? { sound: message.sound } : {}) } }
          : {}),
      },
      apns: {
        headers: {
          'apns-collapse-id': message.id,
          'apns-push-type': visible ? 'alert' : 'background',
          'apns-priority': visible ? '10' : '5',
        },
        payload: {
          aps: visible
            ? { badge: message.badge, ...(message.sound ? { sound: message.sound } : {}) }
            : { 'content-available': 1, badge: message.badge },
        },
      },
    },
  };
}

class TokenError extends Error {
  constructor(readonly result: PushResult) {
    super('FCM access token');
  }
}

export class FcmSender implements PushSender {
  private readonly key: KeyObject;
  private cached: { token: string; renewAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly outbound: OutboundHttp,
    private readonly config: FcmConfig,
    private readonly clock: Clock,
  ) {
    this.key = createPrivateKey(config.privateKey);
  }

  async send(channel: string, message: PushMessage): Promise<PushResult> {
    try {
      let response = await this.post(channel, message, await this.accessToken());
      if (response.status === 401) {
        // The token was revoked or expired early: one fresh token, once.
        this.cached = null;
        response = await this.post(channel, message, await this.accessToken());
      }
      return this.judge(response);
    } catch (error) {
      if (error instanceof TokenError) return error.result;
      if (!(error instanceof OutboundError)) throw error;
      return outboundFailure(error);
    }
  }

  private post(channel: string, message: PushMessage, accessToken: string): Promise<OutboundResponse> {
    return this.outbound.request({
      method: 'POST',
      url: `${this.config.url}/v1/projects/${encodeURIComponent(this.config.projectId)}/messages:send`,
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(fcmMessage(channel, message)),
      timeoutMs: PUSH_TIMEOUT_MS,
      maxResponseBytes: 64 * 1024,
      purpose: 'push',
    });
  }

  private judge(response: OutboundResponse): PushResult {
    const { status } = response;
    if (status >= 200 && status < 300) return { outcome: 'sent', status };
    const text = response.body.toString('utf8');
    const error = `HTTP ${status}: ${text.slice(0, 200)}`;
    if (errorCodes(text).includes('UNREGISTERED')) return { outcome: 'dead_token', status, error };
    return retryOrFail(status, parseRetryAfter(response.headers['retry-after'], this.clock.now()), error);
  }

  /** The cached access token, or a new one (one exchange at a time however many pushes wait for it). */
  private async accessToken(): Promise<string> {
    if (this.cached && this.clock.now().getTime() < this.cached.renewAt) return this.cached.token;
    this.pending ??= this.exchange().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async exchange(): Promise<string> {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const assertion = signJwt(
      'RS256',
      this.key,
      {},
      { iss: this.config.clientEmail, scope: SCOPE, aud: this.config.tokenUrl, iat, exp: iat + 3600 },
    );
    const response = await this.outbound.request({
      method: 'POST',
      url: this.config.tokenUrl,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
      timeoutMs: PUSH_TIMEOUT_MS,
      maxResponseBytes: 64 * 1024,
      purpose: 'push',
    });
    const error = `FCM token endpoint: HTTP ${response.status}: ${response.body.subarray(0, 200).toString('utf8')}`;
    if (response.status !== 200)
      throw new TokenError(
        retryOrFail(response.status, parseRetryAfter(response.headers['retry-after'], this.clock.now()), error),
      );
    const body = JSON.parse(response.body.toString('utf8')) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string')
      throw new TokenError({
        outcome: 'retry',
        status: null,
        error: 'FCM token endpoint answered no access_token',
        retryAfter: null,
      });
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    this.cached = {
      token: body.access_token,
      renewAt: this.clock.now().getTime() + Math.max(0, lifetime - RENEW_BEFORE_SECONDS) * 1000,
    };
    return body.access_token;
  }
}

/** The `errorCode`s of an FCM error body (google.firebase.fcm.v1.FcmError details). */
function errorCodes(text: string): string[] {
  try {
    const body = JSON.parse(text) as { error?: { status?: string; details?: { errorCode?: string }[] } };
    return [...(body.error?.details ?? []).map((d) => d.errorCode ?? ''), body.error?.status ?? ''];
  } catch {
    return [];
  }
}
