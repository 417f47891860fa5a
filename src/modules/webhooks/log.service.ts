// The delivery log and the actions on a webhook: replay a delivery, enable after a disable, send a signed
// ping, rotate the key (both signatures for 24 h). Admin ACL through requireWebhook (webhooks.service.ts).
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../platform/deps.js';
import { errors } from '../../errors.js';
import { addSeconds, epochSeconds } from '../../lib/clock.js';
import type { Actor } from '../auth/index.js';
import * as repo from './log.repository.js';
import type { DeliveryLogQuery, DeliveryRecord } from './log.schemas.js';
import { deliverTask } from './webhooks.tasks.js';
import { keyForms, presentWebhook, requireWebhook } from './webhooks.service.js';

/** After a rotation the old key keeps signing (beside the new one) this long. */
export const ROTATION_GRACE_SECONDS = 24 * 3600;
/** Attempt rows older than this are purged. */
export const ATTEMPT_RETENTION_DAYS = 30;

type DeliveryRow = NonNullable<Awaited<ReturnType<typeof repo.findDelivery>>>;

async function present(deps: Deps, rows: DeliveryRow[]): Promise<DeliveryRecord[]> {
  const attempts = await repo.attemptsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    webhook: row.webhook,
    topic: row.topic,
    event: row.event,
    status: row.status,
    attempts: attempts
      .filter((a) => a.delivery === row.id)
      .map((a) => ({
        attempt: a.attempt,
        at: epochSeconds(a.at),
        http_status: a.http_status,
        duration_ms: a.duration_ms,
        error: a.error,
        response: a.response_excerpt,
      })),
    next_attempt_at: epochSeconds(row.next_attempt_at),
    created_at: epochSeconds(row.created_at),
    delivered_at: epochSeconds(row.delivered_at),
    type: 'webhook_delivery' as const,
  }));
}

export async function listDeliveries(
  deps: Deps,
  actor: Actor,
  brand: string,
  webhook: string,
  query: DeliveryLogQuery,
) {
  await requireWebhook(deps, actor, brand, webhook);
  const { rows, total } = await repo.listDeliveries(deps.db, webhook, query.start, query.limit);
  return { records: await present(deps, rows), total };
}

/** A new attempt now, whatever the delivery's state (a delivered one is sent again, with the same webhook-id). */
export async function retryDelivery(
  deps: Deps,
  actor: Actor,
  brand: string,
  webhook: string,
  id: string,
): Promise<DeliveryRecord> {
  const hook = await requireWebhook(deps, actor, brand, webhook);
  if (hook.disabled_at)
    throw errors.conflict('The webhook is disabled: enable it first (POST /brands/:id/webhooks/:wid/enable)');
  const now = deps.clock.now();
  const row = await deps.db.transaction().execute(async (trx) => {
    const found = await repo.findDelivery(trx, webhook, id);
    if (!found) throw errors.notFound('Delivery');
    await repo.reopenDelivery(trx, id, now);
    await deps.queue.enqueue(trx, deliverTask, { delivery: id, attempt: found.attempts + 1 });
    return { ...found, status: 'pending' as const, next_attempt_at: now };
  });
  return (await present(deps, [row]))[0]!;
}

export async function enableWebhook(deps: Deps, actor: Actor, brand: string, webhook: string) {
  await requireWebhook(deps, actor, brand, webhook);
  await repo.enableWebhook(deps.db, webhook, deps.clock.now());
  return presentWebhook(await requireWebhook(deps, actor, brand, webhook));
}

/** A signed `ping` delivery of the webhook's topic, sent now and logged like any other. */
export async function pingWebhook(deps: Deps, actor: Actor, brand: string, webhook: string): Promise<DeliveryRecord> {
  const hook = await requireWebhook(deps, actor, brand, webhook);
  if (hook.disabled_at)
    throw errors.conflict('The webhook is disabled: enable it first (POST /brands/:id/webhooks/:wid/enable)');
  const now = deps.clock.now();
  const body = JSON.stringify({
    topic: hook.topic,
    event: 'ping',
    timestamp: now.getTime(),
    payload: { webhook: hook.id },
  });
  const row = await deps.db.transaction().execute(async (trx) => {
    const inserted = await repo.insertDelivery(trx, {
      webhook,
      event_id: null,
      topic: hook.topic,
      event: 'ping',
      body,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    });
    await deps.queue.enqueue(trx, deliverTask, { delivery: inserted.id, attempt: 1 });
    return inserted;
  });
  return (await present(deps, [row]))[0]!;
}

/** A new key, shown once; the old one signs beside it for 24 hours so receivers can switch without a gap. */
export async function rotateWebhookKey(deps: Deps, actor: Actor, brand: string, webhook: string) {
  const hook = await requireWebhook(deps, actor, brand, webhook);
  const keyHex = randomBytes(32).toString('hex');
  const now = deps.clock.now();
  await repo.rotateKey(
    deps.db,
    webhook,
    deps.secrets.encrypt(keyHex),
    hook.key_sealed,
    addSeconds(now, ROTATION_GRACE_SECONDS),
    now,
  );
  return { record: presentWebhook(await requireWebhook(deps, actor, brand, webhook)), ...keyForms(keyHex) };
}

export async function purgeOldAttempts(deps: Deps): Promise<number> {
  return repo.purgeAttempts(deps.db, addSeconds(deps.clock.now(), -ATTEMPT_RETENTION_DAYS * 24 * 3600));
}
