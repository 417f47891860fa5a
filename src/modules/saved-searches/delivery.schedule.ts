// When a digest is due (spec §2.5, decisions §6): at `send_time` local time in the owner's time zone, every day
// (Daily), on `send_weekday` (Weekly) or on `send_monthday` clamped to the month's last day (Monthly). A local
// time that does not exist (spring-forward gap) runs at the next valid minute; one that occurs twice (fall-back
// repeat) runs at its first occurrence, and only once, since a digest is keyed by its local date.
// Pure functions over Intl (the platform's own tz database): no date library.

export interface DigestSchedule {
  frequency: string;
  send_time: number | null;
  send_weekday: number | null;
  send_monthday: number | null;
}

export interface Occurrence {
  /** The instant the digest is due. */
  at: Date;
  /** Its local date (YYYY-MM-DD) in the zone: the digest's key. */
  localDate: string;
}

export const DIGEST_FREQUENCIES = ['Daily', 'Weekly', 'Monthly'] as const;

const MINUTE = 60_000;
const DAY_MINUTES = 1440;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The local wall clock of `epochMinutes` in `zone`, as minutes since the epoch of a UTC clock showing it. */
function wallMinutes(epochMinutes: number, zone: string): number {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(new Date(epochMinutes * MINUTE))
      .map((p) => [p.type, p.value]),
  );
  return (
    Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute)) /
    MINUTE
  );
}

/**
 * The first instant (whole minute) whose local wall time in `zone` is `wanted` (wall minutes), or — when that wall
 * time does not exist — the first instant after the gap.
 */
export function zonedInstant(zone: string, wanted: number): Date {
  const offsets = [-DAY_MINUTES, 0, DAY_MINUTES].map((shift) => wallMinutes(wanted + shift, zone) - (wanted + shift));
  const exact = offsets.map((offset) => wanted - offset).filter((t) => wallMinutes(t, zone) === wanted);
  if (exact.length > 0) return new Date(Math.min(...exact) * MINUTE);
  // In a gap the wall clock only moves forward between these bounds: find the first minute at or past `wanted`.
  let low = wanted - Math.max(...offsets);
  let high = wanted - Math.min(...offsets);
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (wallMinutes(mid, zone) >= wanted) high = mid;
    else low = mid + 1;
  }
  return new Date(low * MINUTE);
}

function occursOn(schedule: DigestSchedule, year: number, month: number, day: number): boolean {
  if (schedule.frequency === 'Daily') return true;
  if (schedule.frequency === 'Weekly')
    return new Date(Date.UTC(year, month, day)).getUTCDay() === schedule.send_weekday;
  if (schedule.frequency === 'Monthly') {
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    return day === Math.min(schedule.send_monthday ?? 1, lastDay);
  }
  return false;
}

/** The first digest of this schedule strictly after `after`; null for Instant and Never. */
export function nextOccurrence(schedule: DigestSchedule, zone: string, after: Date): Occurrence | null {
  if (!(DIGEST_FREQUENCIES as readonly string[]).includes(schedule.frequency) || schedule.send_time === null)
    return null;
  const today = new Date(wallMinutes(Math.floor(after.getTime() / MINUTE), zone) * MINUTE);
  // From yesterday (a late send_time in a zone behind) through two months (a monthly schedule, one missed).
  for (let i = -1; i <= 64; i++) {
    const date = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + i));
    const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
    if (!occursOn(schedule, y, m, d)) continue;
    const at = zonedInstant(zone, Date.UTC(y, m, d) / MINUTE + schedule.send_time);
    if (at.getTime() > after.getTime()) return { at, localDate: date.toISOString().slice(0, 10) };
  }
  throw new Error(`nextOccurrence: no occurrence of ${JSON.stringify(schedule)} within 64 days`);
}
