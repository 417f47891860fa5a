// Delivery signatures (decisions §9; docs/webhooks.md). Standard Webhooks v1: base64 HMAC-SHA256 over
// `<webhook-id>.<webhook-timestamp>.<body>` keyed with the 32 raw key bytes (what `whsec_<base64>` decodes
// to), one `v1,<sig>` per live key, space-separated during a key rotation. X-RECHAT-SIGNATURE: hex
// HMAC-SHA256 of the body alone with the same raw key bytes (the current key).
import { createHmac } from 'node:crypto';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'x-rechat-signature': string;
}

/** `keys`: raw key bytes, the current key first. */
export function signDelivery(
  keys: readonly Buffer[],
  id: string,
  timestampSeconds: number,
  body: string,
): SignedHeaders {
  if (keys.length === 0) throw new Error('signDelivery: no key');
  const signed = `${id}.${timestampSeconds}.${body}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': keys.map((key) => `v1,${createHmac('sha256', key).update(signed).digest('base64')}`).join(' '),
    'x-rechat-signature': createHmac('sha256', keys[0]!).update(body).digest('hex'),
  };
}
