// Local wall-clock time in IANA zones: months for email_quota, instants for local times around DST changes.
import { describe, expect, it } from 'vitest';
import { monthKey, startOfNextMonth, wallClock, zonedTime } from './zoned-time.js';

describe('zoned time', () => {
  it('reads the local calendar month of an instant', () => {
    expect(monthKey(new Date('2026-12-01T03:00:00Z'), 'America/Chicago')).toBe('2026-11');
    expect(monthKey(new Date('2026-12-01T03:00:00Z'), 'Europe/Berlin')).toBe('2026-12');
    expect(wallClock(new Date('2026-06-30T18:30:00Z'), 'Asia/Kolkata')).toEqual({
      year: 2026,
      month: 7,
      day: 1,
      hour: 0,
      minute: 0,
      second: 0,
    });
  });

  it('finds where the next local month begins, across a year end and a DST offset', () => {
    expect(startOfNextMonth('2026-12', 'America/Chicago').toISOString()).toBe('2027-01-01T06:00:00.000Z');
    expect(startOfNextMonth('2026-06', 'America/Chicago').toISOString()).toBe('2026-07-01T05:00:00.000Z');
    expect(startOfNextMonth('2026-10', 'UTC').toISOString()).toBe('2026-11-01T00:00:00.000Z');
  });

  it('turns skipped local times past the jump and repeated ones into the first', () => {
    expect(zonedTime(2026, 3, 8, 2.5 * 3600, 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(zonedTime(2026, 11, 1, 1.5 * 3600, 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(zonedTime(2026, 11, 1, 3 * 3600, 'America/New_York').toISOString()).toBe('2026-11-01T08:00:00.000Z');
  });
});
