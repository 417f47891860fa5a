// Our cron schedules: the five standard fields in UTC, read as cron has always read them.
import { describe, expect, it } from 'vitest';
import { cronDue, parseCron } from './cron.js';
import { TASKS } from '../registry.js';

const at = (iso: string) => new Date(iso);
const due = (expression: string, iso: string) => cronDue(parseCron(expression), at(iso));

describe('parseCron', () => {
  it('reads *, numbers, lists, ranges and steps into the values each field allows', () => {
    const schedule = parseCron('*/15 1-3,22 1,15 */6 1-5');
    expect([...schedule.minutes]).toEqual([0, 15, 30, 45]);
    expect([...schedule.hours]).toEqual([1, 2, 3, 22]);
    expect([...schedule.daysOfMonth]).toEqual([1, 15]);
    expect([...schedule.months]).toEqual([1, 7]);
    expect([...schedule.daysOfWeek]).toEqual([1, 2, 3, 4, 5]);
    expect([...parseCron('5/20 10-20/5 * * *').minutes]).toEqual([5, 25, 45]);
    expect([...parseCron('5/20 10-20/5 * * *').hours]).toEqual([10, 15, 20]);
    expect([...parseCron('0 0 * * 7').daysOfWeek]).toEqual([0]);
  });

  it('refuses what it cannot read, naming the field', () => {
    expect(() => parseCron('* * * *')).toThrow(/five fields/);
    expect(() => parseCron('60 * * * *')).toThrow(/minute "60" is outside 0-59/);
    expect(() => parseCron('* 5-2 * * *')).toThrow(/hour "5-2"/);
    expect(() => parseCron('* * 0 * *')).toThrow(/day of month "0"/);
    expect(() => parseCron('*/0 * * * *')).toThrow(/step below 1/);
    expect(() => parseCron('@hourly * * * *')).toThrow(/is not \*, n or n-m/);
    expect(() => parseCron('* * * JAN *')).toThrow(/month "JAN"/);
  });

  it('reads every schedule the registry declares', () => {
    const crons = TASKS.flatMap((entry) => (entry.task.cron ? [entry.task.cron] : []));
    expect(crons.length).toBeGreaterThan(0);
    for (const cron of crons) expect(() => parseCron(cron)).not.toThrow();
  });
});

describe('cronDue', () => {
  it('matches the UTC minute, hour and month a schedule names', () => {
    expect(due('* * * * *', '2026-11-30T09:59:30Z')).toBe(true);
    expect(due('17 * * * *', '2026-11-30T09:17:59Z')).toBe(true);
    expect(due('17 * * * *', '2026-11-30T09:18:00Z')).toBe(false);
    expect(due('17 3 * * *', '2026-11-30T03:17:30Z')).toBe(true);
    expect(due('17 3 * * *', '2026-11-30T04:17:30Z')).toBe(false);
    expect(due('0 0 1 12 *', '2026-12-01T00:00:30Z')).toBe(true);
    expect(due('0 0 1 12 *', '2026-11-01T00:00:30Z')).toBe(false);
  });

  it('needs both day fields when one is *, and either when both name days', () => {
    // 2026-11-30 is a Monday, 2026-12-01 a Tuesday.
    expect(due('0 8 * * 1', '2026-11-30T08:00:10Z')).toBe(true);
    expect(due('0 8 * * 1', '2026-12-01T08:00:10Z')).toBe(false);
    expect(due('0 8 1 * *', '2026-11-30T08:00:10Z')).toBe(false);
    // A field starting with * counts as * for that rule: odd days that are Mondays (12-07), not odd days or Mondays.
    expect(due('0 8 */2 * 1', '2026-12-07T08:00:10Z')).toBe(true);
    expect(due('0 8 */2 * 1', '2026-12-01T08:00:10Z')).toBe(false);
    expect(due('0 8 */2 * 1', '2026-11-30T08:00:10Z')).toBe(false);
    expect(due('0 8 1 * 1', '2026-11-30T08:00:10Z')).toBe(true);
    expect(due('0 8 1 * 1', '2026-12-01T08:00:10Z')).toBe(true);
    expect(due('0 8 1 * 1', '2026-12-02T08:00:10Z')).toBe(false);
    expect(due('0 8 * * 0', '2026-12-06T08:00:10Z')).toBe(true);
    expect(due('0 8 * * 7', '2026-12-06T08:00:10Z')).toBe(true);
  });
});
