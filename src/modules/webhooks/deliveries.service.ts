// One attempt of a delivery (decisions §9; docs/webhooks.md): sign, POST through the outbound client (SSRF
// guard again, 15 s, no redirects, capped response), log the attempt, then delivered / retry later / give up.
// Idempotent: the job carries the attempt number and a run that finds the delivery already past it does
// nothing, so a job that runs twice (a worker killed mid-request) sends at most a duplicate with the same
// webhook-id, never a lost or extra retry.
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';
import { notify } from '../notifications/index.js';
import { addSeconds } from '../../lib/clock.js';
import { OutboundError } from '../../lib/outbound.js';
import { parseRetryAfter } from '../../lib/retry-after.js';
import * as batched from './deliveries.batching.js';
import * as repo from './deliveries.repository.js';
import { releaseReceiverSlot, receiverShare, takeReceiverSlot } from './receiver-share.js';
import { signDelivery } from './signing.js';
import { BEHIND_PRIORITY, deliverTask } from './webhooks.tasks.js';

export const ATTEMPT_TIMEOUT_MS = 15_000;
/** Seconds before each retry: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (then the delivery has failed). */
export const RETRY_SCHEDULE = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE.length + 1;
/**
 * An attempt over its receiver's share of the slots (receiver-share.ts) runs again this much later (±20 %): about
 * when a hung attempt ahead of it gives up, without counting as an attempt.
 */
export const DEFER_SECONDS = 10;
/** A webhook whose every attempt failed for this long is disabled. */
export const FAILING_DISABLE_SECONDS = 5 * 24 * 3600;
const RESPONSE_CAP_BYTES = 256 * 1024;
const EXCERPT_BYTES = 1024;

/** ±10 % so that many deliveries failing together do not retry together. */
export function retryDelaySeconds(
  attempt: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number {
  if (retryAfterSeconds !== null) return retryAfterSeconds;
  const base = RETRY_SCHEDULE[Math.min(attempt, RETRY_SCHEDULE.length) - 1]!;
  return base * (0.9 + 0.2 * random());
}

interface Outcome {
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  excerpt: string | null;
  retryAfter: number | null;
}

export async function attemptDelivery(
  deps: Deps,
  deliveryId: string,
  attempt: number,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const row = await batched.deliveryForAttempt(deps.db, deliveryId);
  if (!row || row.status !== 'pending' || row.attempts !== attempt - 1) return; // already handled: a repeated job
  const now = deps.clock.now();
  if (row.webhook_deleted_at || row.webhook_disabled_at) {
    const reason = row.webhook_deleted_at ? 'the webhook was deleted' : 'the webhook is disabled';
    await repo.advanceDelivery(deps.db, row.id, row.attempts, {
      status: 'dropped',
      attempts: row.attempts,
      next_attempt_at: null,
      last_status: null,
      last_error: reason,
      delivered_at: null,
      updated_at: now,
    });
    return;
  }
  if (!takeReceiverSlot(row.webhook, receiverShare(deps.config.embedded))) {
    // Queued again behind the healthy receivers' first attempts. Not in a transaction with this job's completion:
    // a crash between the two runs the attempt twice (same webhook-id), as a killed worker's job does.
    const startAfter = addSeconds(now, DEFER_SECONDS * (0.8 + 0.4 * Math.random()));
    await deps.queue.enqueue(
      deps.db,
      deliverTask,
      { delivery: deliveryId, attempt },
      { startAfter, priority: BEHIND_PRIORITY },
    );
    return;
  }
  let outcome: Outcome;
  try {
    outcome = await sendSigned(deps, row, now, options.timeoutMs ?? ATTEMPT_TIMEOUT_MS);
  } finally {
    releaseReceiverSlot(row.webhook);
  }
  await record(deps, row.id, row.webhook, attempt, now, outcome);
}

type AttemptRow = NonNullable<Awaited<ReturnType<typeof batched.deliveryForAttempt>>>;

async function sendSigned(deps: Deps, row: AttemptRow, now: Date, timeoutMs: number): Promise<Outcome> {
  const keys = [Buffer.from(deps.secrets.decrypt(row.key_sealed), 'hex')];
  if (row.previous_key_sealed && row.previous_key_until && row.previous_key_until > now)
    keys.push(Buffer.from(deps.secrets.decrypt(row.previous_key_sealed), 'hex'));
  const headers = signDelivery(keys, row.id, Math.floor(now.getTime() / 1000), row.body);
  return send(
    deps,
    row.url,
    row.body,
    { ...headers, 'content-type': 'application/json', 'user-agent': `${deps.config.appName}-Webhooks/1` },
    now,
    timeoutMs,
  );
}

async function send(
  deps: Deps,
  url: string,
  body: string,
  headers: Record<string, string>,
  now: Date,
  timeoutMs: number,
): Promise<Outcome> {
  try {
    const response = await deps.outbound.request({
      method: 'POST',
      url,
      headers,
      body,
      timeoutMs,
      maxResponseBytes: RESPONSE_CAP_BYTES,
      followRedirects: false,
      purpose: 'webhook',
    });
    const delayed = response.status === 429 || response.status === 503;
    return {
      httpStatus: response.status,
      error: null,
      durationMs: Math.round(response.durationMs),
      excerpt: response.body.subarray(0, EXCERPT_BYTES).toString('utf8'),
      retryAfter: delayed ? parseRetryAfter(response.headers['retry-after'], now) : null,
    };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return {
      httpStatus: null,
      error: `${error.kind}: ${error.message}`,
      durationMs: Math.round(error.durationMs),
      excerpt: null,
      retryAfter: null,
    };
  }
}

/** The brand's admins hear of it in the app, in the transaction that disables the webhook. */
async function notifyDisabled(trx: Transaction<DB>, deps: Deps, webhook: string, reason: string): Promise<void> {
  const target = await repo.webhookForNotice(trx, webhook);
  await notify(trx, deps, {
    recipients: await repo.brandAdmins(trx, target.brand),
    action: 'Disabled',
    notification_type: 'WebhookDisabled',
    title: 'Webhook disabled',
    message: `Your ${target.topic} webhook to ${target.url} was disabled: ${reason}. Fix the receiver, then enable it again.`,
    subject: webhook,
    subject_class: 'BrandWebhook',
    object: target.brand,
    object_class: 'Brand',
    data: { webhook, brand: target.brand, topic: target.topic, url: target.url, reason },
  });
}

async function record(
  deps: Deps,
  id: string,
  webhook: string,
  attempt: number,
  at: Date,
  outcome: Outcome,
): Promise<void> {
  const delivered = outcome.httpStatus !== null && outcome.httpStatus >= 200 && outcome.httpStatus < 300;
  if (delivered) {
    // One statement, no transaction, shared with the attempts delivered in the same turn: most attempts end here.
    await batched.recordDelivered(deps.db, {
      delivery: id,
      webhook,
      attempt,
      at,
      http_status: outcome.httpStatus!,
      duration_ms: outcome.durationMs,
      response_excerpt: outcome.excerpt,
    });
    return;
  }
  const lastError = outcome.error ?? `HTTP ${outcome.httpStatus}`;
  await deps.db.transaction().execute(async (trx) => {
    const base = { attempts: attempt, last_status: outcome.httpStatus, last_error: lastError, updated_at: at };
    const failingSince = await repo.markWebhookFailing(trx, webhook, at);
    const gone = outcome.httpStatus === 410;
    const tooLong = at.getTime() - failingSince.getTime() >= FAILING_DISABLE_SECONDS * 1000;
    const retry = !gone && !tooLong && attempt < MAX_ATTEMPTS;
    const next = retry ? addSeconds(at, retryDelaySeconds(attempt, outcome.retryAfter)) : null;
    if (
      !(await repo.advanceDelivery(trx, id, attempt - 1, {
        ...base,
        status: retry ? 'pending' : 'failed',
        next_attempt_at: next,
        delivered_at: null,
      }))
    )
      return;
    const reason = gone ? 'The receiver answered 410 Gone' : tooLong ? 'Every attempt failed for 5 days' : null;
    if (reason && (await repo.disableWebhook(trx, webhook, at, reason))) {
      deps.log.warn({ webhook, failingSince, reason }, 'webhook disabled');
      await notifyDisabled(trx, deps, webhook, reason);
    }
    if (next)
      await deps.queue.enqueue(
        trx,
        deliverTask,
        { delivery: id, attempt: attempt + 1 },
        { startAfter: next, priority: BEHIND_PRIORITY },
      );
    await repo.insertAttempt(trx, {
      delivery: id,
      attempt,
      at,
      http_status: outcome.httpStatus,
      duration_ms: outcome.durationMs,
      error: outcome.error,
      response_excerpt: outcome.excerpt,
    });
  });
}
