// What a push says (decisions §16): title, body = the notification's message, badge = the recipient's unseen
// count, data {notification_id, notification_type, subject_class, subject}. A listing alert is silent (no alert,
// no sound: the app updates quietly) when the recipient does not want pushes now: `push_allowed` off, or their
// local time outside 08:00–23:59.

export interface PushMessage {
  /** The ledger row's id: the provider's collapse key, so a repeated send replaces rather than doubles. */
  id: string;
  title: string | null;
  body: string;
  badge: number;
  sound: string | null;
  data: { notification_id: string; notification_type: string; subject_class: string | null; subject: string | null };
  silent: boolean;
}

export const QUIET_UNTIL_HOUR = 8;

/** The hour (0–23) at `at` in `zone` (UTC when the zone is unknown). */
export function localHour(at: Date, zone: string): number {
  let hour: string | undefined;
  try {
    hour = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .find((p) => p.type === 'hour')?.value;
  } catch {
    hour = undefined;
  }
  return hour === undefined ? at.getUTCHours() : Number(hour);
}

export function isListingAlert(subjectClass: string | null): boolean {
  return subjectClass === 'Listing';
}

export function isSilent(subjectClass: string | null, pushAllowed: boolean, at: Date, zone: string): boolean {
  if (!isListingAlert(subjectClass)) return false;
  return !pushAllowed || localHour(at, zone) < QUIET_UNTIL_HOUR;
}

export interface MessageSource {
  id: string;
  notification: string;
  message: string;
  title: string | null;
  notification_type: string;
  subject: string | null;
  subject_class: string | null;
  sound: string | null;
  timezone: string;
  push_allowed: boolean;
}

export function buildMessage(row: MessageSource, badge: number, at: Date): PushMessage {
  return {
    id: row.id,
    title: row.title,
    body: row.message,
    badge,
    sound: row.sound,
    data: {
      notification_id: row.notification,
      notification_type: row.notification_type,
      subject_class: row.subject_class,
      subject: row.subject,
    },
    silent: isSilent(row.subject_class, row.push_allowed, at, row.timezone),
  };
}
