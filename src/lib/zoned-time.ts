// Wall-clock time in an IANA time zone without a date library: Intl knows every zone's offsets, DST included.
// Used where a rule is stated in local time (a user's month for email_quota, a trigger's local fire time).

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

export interface WallClock {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The local date and time of an instant in `timeZone`. */
export function wallClock(at: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Milliseconds the zone is ahead of UTC at an instant. */
function offsetAt(at: number, timeZone: string): number {
  const w = wallClock(new Date(at), timeZone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at / 1000) * 1000;
}

/**
 * The instant at which the local clock of `timeZone` shows `year-month-day` plus `seconds` after midnight. A local
 * time that does not exist (the hour skipped at spring-forward) resolves to the same distance past the jump
 * (02:30 → 03:30); one that exists twice (fall-back) resolves to the first. Day and month may overflow (Date.UTC).
 */
export function zonedTime(year: number, month: number, day: number, seconds: number, timeZone: string): Date {
  // Pure, and asked for the same few hundred dates again and again (re-planning a user's triggers: a date and time
  // per contact); each answer costs about seven Intl formats, which made that re-planning cost ~0.3 ms a trigger.
  const key = `${timeZone}|${year}|${month}|${day}|${seconds}`;
  let at = zonedTimes.get(key);
  if (at === undefined) {
    if (zonedTimes.size >= ZONED_TIMES_KEPT) zonedTimes.clear();
    at = computeZonedTime(year, month, day, seconds, timeZone);
    zonedTimes.set(key, at);
  }
  return new Date(at);
}

const zonedTimes = new Map<string, number>();
const ZONED_TIMES_KEPT = 20_000;

function computeZonedTime(year: number, month: number, day: number, seconds: number, timeZone: string): number {
  const local = Date.UTC(year, month - 1, day) + seconds * 1000;
  const first = offsetAt(local - offsetAt(local, timeZone), timeZone);
  const candidates = [local - first, local - offsetAt(local - first, timeZone)];
  // Prefer the earliest candidate whose wall clock shows the asked time (fall-back: the first of two).
  const exact = candidates.filter((c) => c + offsetAt(c, timeZone) === local).sort((a, b) => a - b)[0];
  if (exact !== undefined) {
    const earlier = exact - 3600_000;
    if (earlier + offsetAt(earlier, timeZone) === local) return earlier;
    return exact;
  }
  // In a gap: the offset before the jump carries the clock past it by the same distance.
  return local - offsetAt(local - 86_400_000, timeZone);
}

/** `YYYY-MM` of an instant in `timeZone`. */
export function monthKey(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return `${w.year}-${String(w.month).padStart(2, '0')}`;
}

/** The instant the month after `YYYY-MM` begins in `timeZone` (local midnight of its first day). */
export function startOfNextMonth(month: string, timeZone: string): Date {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return zonedTime(m === 12 ? year + 1 : year, m === 12 ? 1 : m + 1, 1, 0, timeZone);
}
