// notify(): the one way a feature reaches a person (ARCHITECTURE.md "notify"). Saved-search alerts, webhooks,
// triggers and operators call it inside the transaction of the change that causes the notification, so a
// notification exists exactly when that change committed, and so do its stream events (pg_notify is delivered
// on commit) and its push jobs (JobQueue.enqueue(trx, …), one per notification and device: push.service.ts).
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Deps } from '../../platform/deps.js';
import { uuidV7 } from '../../lib/uuid.js';
import * as repo from './notifications.repository.js';
import { enqueuePushes, enqueuePushesMany } from './push.service.js';

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
export async function notify(
  trx: Transaction<DB>,
  deps: Pick<Deps, 'clock' | 'config' | 'queue' | 'metrics'>,
  input: NotifyInput,
): Promise<Notified | null> {
  const excluded = checkedExclusions(input);
  const wanted = [...new Set(input.recipients.map((id) => id.toLowerCase()))].filter((id) => !excluded.has(id));
  const users = await repo.liveUsers(trx, wanted);
  if (users.length === 0) return null;
  const at = deps.clock.now();
  const row = await repo.insertNotification(trx, newNotification(input, excluded, at));
  const inserted = await repo.insertAnnouncedRecipients(
    trx,
    users.map((user) => ({ notification: row.id, user })),
    at,
  );
  const recipients = inserted.map(({ user, seq }) => ({ user, seq }));
  if (row.transports.includes('push'))
    await enqueuePushes(
      trx,
      deps,
      row,
      recipients.map((r) => r.user),
      at,
    );
  return { id: row.id, recipients };
}

/**
 * notify() for many notifications at once, with the same rows, feed order and stream messages as calling it for
 * each input in turn, in a fixed number of statements (saved-search delivery writes hundreds per job). Answers one
 * entry per input, null where no recipient was left.
 */
export async function notifyMany(
  trx: Transaction<DB>,
  deps: Pick<Deps, 'clock' | 'config' | 'queue' | 'metrics'>,
  inputs: readonly NotifyInput[],
): Promise<(Notified | null)[]> {
  const wanted = inputs.map((input) => {
    const excluded = checkedExclusions(input);
    return {
      excluded,
      users: [...new Set(input.recipients.map((id) => id.toLowerCase()))].filter((id) => !excluded.has(id)),
    };
  });
  const live = new Set(await repo.liveUsers(trx, [...new Set(wanted.flatMap((w) => w.users))]));
  const at = deps.clock.now();
  // Ids chosen here, so each input finds its row and its recipients whatever order the inserts return them in.
  const planned = inputs.map((input, i) => {
    const users = wanted[i]!.users.filter((user) => live.has(user));
    return users.length === 0
      ? null
      : { id: uuidV7(at.getTime()), users, row: newNotification(input, wanted[i]!.excluded, at) };
  });
  const written = planned.filter((p) => p !== null);
  if (written.length === 0) return planned.map(() => null);
  await repo.insertNotifications(
    trx,
    written.map((p) => ({ ...p.row, id: p.id })),
  );
  const pushed = written.filter(({ row }) => row.transports.includes('push'));
  await enqueuePushesMany(
    trx,
    deps,
    pushed.map(({ id, row, users }) => ({ notification: { id, app: row.app }, users })),
    at,
  );
  // Feed positions in the order notify() would have given them: recipients inserted, and announced, in input
  // order. Last: this insert takes the recipients' counter locks (a trigger), held until commit, and other
  // deliveries to the same users wait for them.
  const seqs = await repo.insertAnnouncedRecipients(
    trx,
    written.flatMap((p) => p.users.map((user) => ({ notification: p.id, user }))),
    at,
  );
  const recipientsOf = new Map<string, { user: string; seq: number }[]>();
  for (const r of seqs) {
    const recipients = recipientsOf.get(r.notification);
    if (recipients) recipients.push({ user: r.user, seq: r.seq });
    else recipientsOf.set(r.notification, [{ user: r.user, seq: r.seq }]);
  }
  return planned.map((p) => (p === null ? null : { id: p.id, recipients: recipientsOf.get(p.id) ?? [] }));
}

function checkedExclusions(input: NotifyInput): Set<string> {
  if (input.action.trim() === '' || input.message.trim() === '')
    throw new Error('notify: action and message must not be empty');
  return new Set((input.exclude ?? []).map((id) => id.toLowerCase()));
}

function newNotification(input: NotifyInput, excluded: Set<string>, at: Date): repo.NewNotification {
  return {
    action: input.action,
    notification_type:
      input.notification_type ?? `${input.subject_class ?? ''}${input.action}${input.object_class ?? ''}`,
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
  };
}
