// The trigger fire-time rule (decisions §7) across the spring-forward and fall-back days of America/New_York and
// Europe/Berlin, for Feb 29, and for wait_for before and after the event. Pure computation: no database.
import { describe, expect, it } from 'vitest';
import { fireTimeIn, monthDayOf, nextFireTime } from './fire-time.js';

const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';
const HOUR = 3600;
const DAY = 24 * HOUR;
const iso = (d: Date) => d.toISOString();

describe('fire time in the user’s time zone', () => {
  it('New York spring-forward day (2027-03-14): midnight is EST, 02:30 does not exist and becomes 03:30 EDT', () => {
    expect(iso(fireTimeIn(2027, { date: '1980-03-14', timeZone: NY, time: 0, waitFor: 0 }))).toBe(
      '2027-03-14T05:00:00.000Z',
    );
    expect(iso(fireTimeIn(2027, { date: '1980-03-14', timeZone: NY, time: 2.5 * HOUR, waitFor: 0 }))).toBe(
      '2027-03-14T07:30:00.000Z',
    );
    expect(iso(fireTimeIn(2027, { date: '1980-03-14', timeZone: NY, time: 9 * HOUR, waitFor: 0 }))).toBe(
      '2027-03-14T13:00:00.000Z',
    );
  });

  it('New York fall-back day (2026-11-01): 01:30 happens twice and fires at the first; 09:00 is EST', () => {
    expect(iso(fireTimeIn(2026, { date: '1975-11-01', timeZone: NY, time: 1.5 * HOUR, waitFor: 0 }))).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    expect(iso(fireTimeIn(2026, { date: '1975-11-01', timeZone: NY, time: 9 * HOUR, waitFor: 0 }))).toBe(
      '2026-11-01T14:00:00.000Z',
    );
  });

  it('Berlin spring-forward (2027-03-28) and fall-back (2026-10-25) days', () => {
    expect(iso(fireTimeIn(2027, { date: '1990-03-28', timeZone: BERLIN, time: 2.5 * HOUR, waitFor: 0 }))).toBe(
      '2027-03-28T01:30:00.000Z',
    );
    expect(iso(fireTimeIn(2027, { date: '1990-03-28', timeZone: BERLIN, time: 12 * HOUR, waitFor: 0 }))).toBe(
      '2027-03-28T10:00:00.000Z',
    );
    expect(iso(fireTimeIn(2026, { date: '1990-10-25', timeZone: BERLIN, time: 2.5 * HOUR, waitFor: 0 }))).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    expect(iso(fireTimeIn(2026, { date: '1990-10-25', timeZone: BERLIN, time: 12 * HOUR, waitFor: 0 }))).toBe(
      '2026-10-25T11:00:00.000Z',
    );
  });

  it('wait_for is wall-clock: a day before at 09:00 stays 09:00 across the DST change', () => {
    // Event 2027-03-15 (EDT); a day before is 2027-03-14, the spring-forward day, 09:00 EDT.
    expect(iso(fireTimeIn(2027, { date: '1980-03-15', timeZone: NY, time: 9 * HOUR, waitFor: -DAY }))).toBe(
      '2027-03-14T13:00:00.000Z',
    );
    // Event 2026-10-31 in Berlin; two days after at 08:00 is 2026-11-02 08:00 CET.
    expect(iso(fireTimeIn(2026, { date: '1990-10-31', timeZone: BERLIN, time: 8 * HOUR, waitFor: 2 * DAY }))).toBe(
      '2026-11-02T07:00:00.000Z',
    );
  });

  it('Feb 29 fires on Feb 28 in other years and on Feb 29 in leap years', () => {
    const rule = { date: '1992-02-29', timeZone: NY, time: null, waitFor: 0 };
    expect(iso(fireTimeIn(2027, rule))).toBe('2027-02-28T05:00:00.000Z');
    expect(iso(fireTimeIn(2028, rule))).toBe('2028-02-29T05:00:00.000Z');
    expect(iso(fireTimeIn(2100, rule))).toBe('2100-02-28T05:00:00.000Z');
    expect(iso(nextFireTime(rule, new Date('2027-03-01T00:00:00Z')))).toBe('2028-02-29T05:00:00.000Z');
  });

  it('the next occurrence is strictly after the given time, this year or the next', () => {
    const rule = { date: '1985-06-10', timeZone: NY, time: 9 * HOUR, waitFor: 0 };
    expect(iso(nextFireTime(rule, new Date('2026-06-01T00:00:00Z')))).toBe('2026-06-10T13:00:00.000Z');
    expect(iso(nextFireTime(rule, new Date('2026-06-10T13:00:00Z')))).toBe('2027-06-10T13:00:00.000Z');
    // A birthday on Jan 2 with wait_for a week before fires in late December of the year before.
    expect(
      iso(
        nextFireTime(
          { date: '1985-01-02', timeZone: BERLIN, time: 0, waitFor: -7 * DAY },
          new Date('2026-12-01T00:00:00Z'),
        ),
      ),
    ).toBe('2026-12-25T23:00:00.000Z');
  });

  it('refuses what is not an ISO date', () => {
    expect(monthDayOf('1985-13-01')).toBeNull();
    expect(monthDayOf('June 10')).toBeNull();
    expect(() => fireTimeIn(2026, { date: 'x', timeZone: NY, time: 0, waitFor: 0 })).toThrow(RangeError);
  });
});
