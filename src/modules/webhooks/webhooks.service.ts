// Brand webhooks: create (key shown once), list, read, delete. Admin ACL on the brand (decisions §2, §9); the
// URL passes the SSRF guard at create time and again at every attempt (deliveries.service.ts).
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { epochSeconds } from '../../lib/clock.js';
import { OutboundError } from '../../lib/outbound.js';
import type { Actor } from '../auth/index.js';
import { requireAccess } from '../brands/index.js';
import * as repo from './webhooks.repository.js';
import {
  MAX_URL_LENGTH,
  type CreateWebhookBody,
  type ListWebhooksQuery,
  type WebhookRecord,
} from './webhooks.schemas.js';

/** The spec publishes no date for the Activities topic; this is the date of its other deprecations (§9). */
export const ACTIVITIES_DEPRECATION = { date: '2026-01-01' } as const;
/** Create-time DNS gets this long; the answer is checked again at every attempt anyway. */
const CHECK_TIMEOUT_MS = 5_000;

export function presentWebhook(row: repo.WebhookRow): WebhookRecord {
  return {
    id: row.id,
    created_at: epochSeconds(row.created_at),
    updated_at: epochSeconds(row.updated_at),
    deleted_at: epochSeconds(row.deleted_at),
    brand: row.brand,
    topic: row.topic,
    url: row.url,
    tags: row.tags,
    disabled_at: epochSeconds(row.disabled_at),
    disabled_reason: row.disabled_reason,
    type: 'brand_webhook',
  };
}

/** The key as the receiver sees it: 64 hex characters, and `whsec_<base64>` for Standard Webhooks libraries. */
export function keyForms(keyHex: string): { key: string; secret: string } {
  return { key: keyHex, secret: `whsec_${Buffer.from(keyHex, 'hex').toString('base64')}` };
}

/** Throws 400 on `url` naming why the target is refused (scheme, credentials, a refused or unresolvable address). */
export async function checkTargetUrl(deps: Deps, url: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      deps.outbound.check(url),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new OutboundError('dns', 'host did not resolve in time')), CHECK_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    if (error instanceof OutboundError) throw errors.invalidField('url', error.message);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The URL as the deliveries will call it: the WHATWG parser's form, which rewrites full-width digits, hex and
 * short IPv4 (`0x7f000001` → `127.0.0.1`), a host's case and a default port. Stored and shown in that form, so
 * an admin reads the address that is called, and the SSRF check judges exactly that. Input that does not parse
 * is left as typed for the check to refuse with its reason.
 */
function canonicalUrl(typed: string): string {
  let href: string;
  try {
    href = new URL(typed).href;
  } catch {
    return typed;
  }
  // Punycode can make a host longer than it was typed: the stored form obeys the documented limit too.
  if (href.length > MAX_URL_LENGTH)
    throw errors.invalidField('url', `is longer than ${MAX_URL_LENGTH} characters once written in canonical form`);
  return href;
}

export async function createWebhook(deps: Deps, actor: Actor, brand: string, body: CreateWebhookBody) {
  await requireAccess(deps.db, actor, brand, 'Admin', { denied: 'forbidden' });
  const url = canonicalUrl(body.url);
  await checkTargetUrl(deps, url);
  const keyHex = randomBytes(32).toString('hex');
  const now = deps.clock.now();
  const row = await repo.insertWebhook(deps.db, {
    brand,
    topic: body.topic,
    url,
    tags: null,
    key_sealed: deps.secrets.encrypt(keyHex),
    created_by: actor.userId ?? null,
    created_at: now,
    updated_at: now,
  });
  return { record: presentWebhook(row), ...keyForms(keyHex) };
}

export async function listWebhooks(deps: Deps, actor: Actor, brand: string, query: ListWebhooksQuery) {
  await requireAccess(deps.db, actor, brand, 'Admin', { denied: 'forbidden' });
  const { rows, total } = await repo.listWebhooks(deps.db, brand, query.topic, query.start, query.limit);
  return { records: rows.map(presentWebhook), total };
}

/** A live webhook of a brand the actor administers; another brand's id is a 404. */
export async function requireWebhook(deps: Deps, actor: Actor, brand: string, id: string): Promise<repo.WebhookRow> {
  await requireAccess(deps.db, actor, brand, 'Admin', { denied: 'forbidden' });
  const row = await repo.findWebhook(deps.db, brand, id);
  if (!row) throw errors.notFound('Webhook');
  return row;
}

export async function getWebhook(deps: Deps, actor: Actor, brand: string, id: string): Promise<WebhookRecord> {
  return presentWebhook(await requireWebhook(deps, actor, brand, id));
}

export async function deleteWebhook(deps: Deps, actor: Actor, brand: string, id: string): Promise<void> {
  await requireWebhook(deps, actor, brand, id);
  if (!(await repo.softDeleteWebhook(deps.db, brand, id, deps.clock.now()))) throw errors.notFound('Webhook');
}
