// When a trigger fires (decisions §7): the next occurrence of the contact's date (birthday, home anniversary, …)
// at local midnight in the trigger user's time zone, plus `time` (seconds after midnight; null = 0) plus
// `wait_for` (seconds; negative = before). Both are wall-clock offsets, so "a day before at 09:00" stays 09:00
// across a DST change; a local time the clock skips resolves past the jump (zoned-time.ts). Feb 29 fires on
// Feb 28 in other years. The planner of the triggers routes (issue 10, item 3) builds on this.
import { wallClock, zonedTime } from '../../lib/zoned-time.js';

export interface FireRule {
  /** The contact's date, ISO `YYYY-MM-DD` (its year is ignored: the event recurs every year). */
  date: string;
  timeZone: string;
  /** Seconds after local midnight (null = 0). */
  time: number | null;
  /** Seconds relative to the event (negative = before). */
  waitFor: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** Month and day of an ISO date, or null when it is not one. */
export function monthDayOf(date: string): { month: number; day: number } | null {
  const match = ISO_DATE.exec(date);
  if (!match) return null;
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return { month, day };
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** When the rule fires for the event of `year`. */
export function fireTimeIn(year: number, rule: FireRule): Date {
  const md = monthDayOf(rule.date);
  if (!md) throw new RangeError(`Not an ISO date: ${rule.date}`);
  const day = md.month === 2 && md.day === 29 && !isLeap(year) ? 28 : md.day;
  return zonedTime(year, md.month, day, (rule.time ?? 0) + rule.waitFor, rule.timeZone);
}

/** The first time the rule fires strictly after `after`. */
export function nextFireTime(rule: FireRule, after: Date): Date {
  // A wait_for of up to a year either way can move the fire time into the previous or the next year's event.
  const start = wallClock(after, rule.timeZone).year - 1;
  for (let year = start; year <= start + 3; year++) {
    const at = fireTimeIn(year, rule);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new RangeError('wait_for moves the fire time more than a year from the event');
}
