// notify(): the one way a feature reaches a person (ARCHITECTURE.md "notify"). Saved-search alerts, webhooks,
// triggers and operators call it inside the transaction of the change that causes the notification, so a
// notification exists exactly when that change committed, and so do its stream events (pg_notify is delivered
// on commit) and its push jobs (JobQueue.enqueue(trx, …), one per notification and device: push.service.ts).
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../deps.js';
import * as repo from './notifications.repository.js';
import { enqueuePushes } from './push.service.js';

export interface NotifyInput {
  /** User ids. Duplicates, deleted users and `exclude`d users are left out. */
  recipients: readonly string[];
  /** What happened, e.g. `BecameAvailable`. */
  action: string;
  /** The text shown in the feed and as the push body. */
  message: string;
  title?: string | null;
  /** Default: subject_class + action + object_class (`ListingBecameAvailableUser`). */
  notification_type?: string;
  /** Who or what acted (object_class `User` → `objects` holds that user's record). */
  object?: string | null;
  object_class?: string | null;
  /** What it is about (subject_class `Listing` → `subjects` holds the listing record). */
  subject?: string | null;
  subject_class?: string | null;
  auxiliary_object?: string | null;
  auxiliary_object_class?: string | null;
  auxiliary_subject?: string | null;
  auxiliary_subject_class?: string | null;
  extra_object_class?: string | null;
  extra_subject_class?: string | null;
  room?: string | null;
  recommendation?: string | null;
  /** Users never to notify (typically the actor). Stored on the notification. */
  exclude?: readonly string[];
  /** Free JSON for the client app (also the push's data). */
  data?: Record<string, unknown> | null;
  sound?: string | null;
  /** The app key (decisions §16) whose devices get the push; null = every app of the recipient. */
  app?: string | null;
  /** Channels beyond the feed, e.g. `push` (default) — an empty list keeps it in the feed and stream only. */
  transports?: readonly string[];
  phone_number?: string | null;
}

export interface Notified {
  id: string;
  /** The users it reached, each with the feed position (stream event id) of this notification. */
  recipients: { user: string; seq: number }[];
}

export const DEFAULT_TRANSPORTS = ['push'] as const;

/**
 * Writes the notification and one feed row per recipient in `trx`, and announces each to the live stream.
 * Answers null (and writes nothing) when no recipient is left.
 */
export async function notify(trx: Transaction<DB>, deps: Pick<Deps, 'clock' | 'config' | 'queue' | 'metrics'>, input: NotifyInput): Promise<Notified | null> {
  if (input.action.trim() === '' || input.message.trim() === '') throw new Error('notify: action and message must not be empty');
  const excluded = new Set((input.exclude ?? []).map((id) => id.toLowerCase()));
  const wanted = [...new Set(input.recipients.map((id) => id.toLowerCase()))].filter((id) => !excluded.has(id));
  const users = await repo.liveUsers(trx, wanted);
  if (users.length === 0) return null;
  const at = deps.clock.now();
  const row = await repo.insertNotification(trx, {
    action: input.action,
    notification_type: input.notification_type ?? `${input.subject_class ?? ''}${input.action}${input.object_class ?? ''}`,
    message: input.message,
    title: input.title ?? null,
    object: input.object ?? null,
    object_class: input.object_class ?? null,
    subject: input.subject ?? null,
    subject_class: input.subject_class ?? null,
    auxiliary_object: input.auxiliary_object ?? null,
    auxiliary_object_class: input.auxiliary_object_class ?? null,
    auxiliary_subject: input.auxiliary_subject ?? null,
    auxiliary_subject_class: input.auxiliary_subject_class ?? null,
    extra_object_class: input.extra_object_class ?? null,
    extra_subject_class: input.extra_subject_class ?? null,
    room: input.room ?? null,
    recommendation: input.recommendation ?? null,
    exclude: excluded.size > 0 ? [...excluded] : null,
    data: input.data ?? null,
    sound: input.sound ?? null,
    app: input.app ?? null,
    transports: [...(input.transports ?? DEFAULT_TRANSPORTS)],
    phone_number: input.phone_number ?? null,
    created_at: at,
  });
  const recipients = await repo.insertRecipients(trx, row.id, users, at);
  await repo.announce(trx, recipients.map((r) => ({ u: r.user, n: row.id, s: r.seq })));
  if (row.transports.includes('push')) await enqueuePushes(trx, deps, row, recipients.map((r) => r.user), at);
  return { id: row.id, recipients };
}
