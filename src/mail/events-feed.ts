// POST /emails/events (decisions §15, docs/mail.md): a provider-neutral feed of what happened to sent mail after
// the relay took it — delivered, bounced/failed, complained — keyed by Message-ID. A forwarder (an SES SNS
// subscriber, a Postmark webhook relay, …) signs each request like a Standard Webhooks sender: HMAC-SHA256 with the
// key `gable mail events-key` prints, over `<webhook-id>.<webhook-timestamp>.<body>`. Events are idempotent.
import { createHmac } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { errors } from '../errors.js';
import { deriveKey, safeEqual } from '../lib/crypto.js';
import { emailKey } from '../lib/contact-values.js';
import * as repo from './mail.repository.js';
import type { MailEventKind } from './mail.columns.js';
import { soleRecipient } from './tracking.service.js';

/** A signed request older (or newer) than this is refused: a captured request cannot be replayed later. */
export const EVENTS_TOLERANCE_SECONDS = 5 * 60;

export function eventsKey(master: Buffer): Buffer {
  return deriveKey(master, 'mail-events');
}

/** The key as a forwarder is configured with it (`whsec_` + base64, the Standard Webhooks form). */
export function eventsSecret(master: Buffer): string {
  return `whsec_${eventsKey(master).toString('base64')}`;
}

export function signEvents(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface SignatureHeaders {
  'webhook-id'?: string;
  'webhook-timestamp'?: string;
  'webhook-signature'?: string;
}

/**
 * Throws 403 unless the request carries a valid, fresh signature over exactly this body, under the events key of
 * one of `masters` (SECRET_KEY, then the previous keys: a forwarder keeps working while it is given the new key).
 */
export function verifyEventsSignature(
  masters: readonly Buffer[],
  headers: SignatureHeaders,
  body: string,
  now: Date,
): void {
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  const signatures = (headers['webhook-signature'] ?? '').split(' ').filter(Boolean);
  if (!id || !Number.isInteger(timestamp) || signatures.length === 0)
    throw errors.forbidden('Sign the request: webhook-id, webhook-timestamp and webhook-signature headers');
  if (Math.abs(now.getTime() / 1000 - timestamp) > EVENTS_TOLERANCE_SECONDS)
    throw errors.forbidden('The signature timestamp is too old or in the future');
  const expected = masters.map((master) => signEvents(eventsKey(master), id, timestamp, body));
  if (!signatures.some((s) => expected.some((e) => safeEqual(s, e))))
    throw errors.forbidden('The signature does not match the body');
}

export type FeedEventType = 'delivered' | 'bounced' | 'failed' | 'complained';

export interface FeedEvent {
  type: FeedEventType;
  message_id: string;
  recipient?: string;
  occurred_at?: number;
  reason?: string;
}

const KIND: Record<FeedEventType, MailEventKind> = {
  delivered: 'delivered',
  bounced: 'failed',
  failed: 'failed',
  complained: 'complained',
};

/** `<id@host>` as sent; forwarders often drop the angle brackets. */
const normaliseMessageId = (value: string) => (value.startsWith('<') ? value : `<${value}>`).toLowerCase();

export interface FeedResult {
  recorded: number;
  duplicates: number;
  unknown: number;
}

/** Records the events of one request. Unknown Message-IDs are counted and skipped (not ours, or pruned). */
export async function recordFeedEvents(deps: Pick<Deps, 'db' | 'clock'>, events: FeedEvent[]): Promise<FeedResult> {
  const rows = await repo.findByMessageIds(deps.db, [...new Set(events.map((e) => normaliseMessageId(e.message_id)))]);
  const byMessageId = new Map(rows.map((r) => [r.message_id.toLowerCase(), r]));
  const result: FeedResult = { recorded: 0, duplicates: 0, unknown: 0 };
  const at = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    for (const event of events) {
      const row = byMessageId.get(normaliseMessageId(event.message_id));
      if (!row) {
        result.unknown++;
        continue;
      }
      const recipient = event.recipient ? emailKey(event.recipient) : soleRecipient(row);
      const inserted = await repo.insertEvent(trx, {
        message: row.id,
        campaign: row.campaign,
        kind: KIND[event.type],
        recipient,
        detail: { type: event.type, ...(event.reason ? { reason: event.reason } : {}) },
        occurredAt: event.occurred_at !== undefined ? new Date(event.occurred_at * 1000) : at,
        at,
      });
      if (inserted) result.recorded++;
      else result.duplicates++;
    }
  });
  return result;
}
