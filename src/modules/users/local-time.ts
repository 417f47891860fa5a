// IANA time zone checks and local-time formatting. Formatters are cached per zone: building an
// Intl.DateTimeFormat costs far more than using one, and GET /users/self formats on every call.

const formatters = new Map<string, Intl.DateTimeFormat>();

import { isValidTimeZone } from '../../lib/time-zone-name.js';

export { isValidTimeZone };

// The text changes once a minute, and formatting costs ~0.1 ms: keep the last text per zone and minute.
const lastText = new Map<string, { minute: number; text: string }>();

/** e.g. "Saturday, November 21, 2026 at 2:05 PM CST"; falls back to UTC for a zone the runtime does not know. */
export function formatLocalTime(at: Date, zone: string): string {
  const minute = Math.floor(at.getTime() / 60_000);
  const cached = lastText.get(zone);
  if (cached?.minute === minute) return cached.text;
  const text = formatterFor(zone).format(at);
  lastText.set(zone, { minute, text });
  return text;
}

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    const timeZone = isValidTimeZone(zone) ? zone : 'UTC';
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}
