// What a device token (`channel`) is, for each push provider (decisions §16), and which provider a channel
// belongs to when the client does not say: a Web Push subscription JSON → webpush, 64 hex characters → apns,
// anything else → fcm. A channel that its provider could never accept is a 400 now, not a dead push later.
import { errors } from '../../errors.js';
import type { PushProvider } from './notifications.columns.js';

export const MAX_CHANNEL_BYTES = 4096;

const APNS_TOKEN = /^[0-9a-fA-F]{64}$/;
/** APNs tokens are hex; Apple says not to assume 32 bytes, so any even length up to 200 bytes. */
const APNS_ANY = /^(?:[0-9a-fA-F]{2}){8,200}$/;
/** FCM registration tokens: URL-safe base64 with `:` separators (about 160 characters today). */
const FCM_TOKEN = /^[A-Za-z0-9_:.-]{16,4096}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function looksLikeSubscription(channel: string): boolean {
  return channel.trimStart().startsWith('{');
}

export function inferProvider(channel: string): PushProvider {
  if (looksLikeSubscription(channel)) return 'webpush';
  if (APNS_TOKEN.test(channel)) return 'apns';
  return 'fcm';
}

const decodedLength = (text: string) => Buffer.from(text, 'base64url').length;

/** A Web Push subscription (PushSubscription.toJSON()): an https endpoint, the P-256 key and the auth secret. */
function checkSubscription(channel: string): void {
  let value: unknown;
  try {
    value = JSON.parse(channel);
  } catch {
    throw errors.invalidField('channel', 'must be a Web Push subscription: JSON {endpoint, keys: {p256dh, auth}}');
  }
  const subscription = value as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | null;
  const endpoint = subscription?.endpoint;
  let url: URL | null = null;
  try {
    url = typeof endpoint === 'string' ? new URL(endpoint) : null;
  } catch {
    url = null;
  }
  if (!url || url.protocol !== 'https:')
    throw errors.invalidField('channel', 'must have an https endpoint (a Web Push subscription)');
  const { p256dh, auth } = subscription?.keys ?? {};
  if (typeof p256dh !== 'string' || !BASE64URL.test(p256dh) || decodedLength(p256dh) !== 65) {
    throw errors.invalidField('channel', 'keys.p256dh must be an uncompressed P-256 public key (65 bytes, base64url)');
  }
  if (typeof auth !== 'string' || !BASE64URL.test(auth) || decodedLength(auth) !== 16) {
    throw errors.invalidField('channel', 'keys.auth must be a 16-byte secret (base64url)');
  }
}

/** The provider of a channel (given or inferred), after checking the channel is one that provider accepts. */
export function checkChannel(channel: string, provider: PushProvider | undefined): PushProvider {
  if (Buffer.byteLength(channel, 'utf8') > MAX_CHANNEL_BYTES)
    throw errors.invalidField('channel', `must be at most ${MAX_CHANNEL_BYTES} bytes`);
  if (channel.trim() === '') throw errors.invalidField('channel', 'must not be empty');
  const chosen = provider ?? inferProvider(channel);
  if (chosen === 'webpush') checkSubscription(channel);
  else if (chosen === 'apns' && !APNS_ANY.test(channel))
    throw errors.invalidField('channel', 'must be an APNs device token (hex)');
  else if (chosen === 'fcm' && !FCM_TOKEN.test(channel))
    throw errors.invalidField('channel', 'must be an FCM registration token');
  return chosen;
}
