// Digest times across DST changes and short months (spec §2.5 and decisions §6).
import { describe, expect, it } from 'vitest';
import { nextOccurrence } from './delivery.schedule.js';

const daily = (send_time: number) => ({ frequency: 'Daily', send_time, send_weekday: null, send_monthday: null });
const weekly = (send_weekday: number, send_time: number) => ({
  frequency: 'Weekly',
  send_time,
  send_weekday,
  send_monthday: null,
});
const monthly = (send_monthday: number, send_time: number) => ({
  frequency: 'Monthly',
  send_time,
  send_weekday: null,
  send_monthday,
});
const next = (schedule: Parameters<typeof nextOccurrence>[0], zone: string, after: string) => {
  const found = nextOccurrence(schedule, zone, new Date(after));
  return found && { at: found.at.toISOString(), localDate: found.localDate };
};

describe('digest schedule', () => {
  it('Daily at local time, in winter and in summer (America/New_York)', () => {
    expect(next(daily(480), 'America/New_York', '2026-01-10T00:00:00Z')).toEqual({
      at: '2026-01-10T13:00:00.000Z',
      localDate: '2026-01-10',
    });
    expect(next(daily(480), 'America/New_York', '2026-07-10T13:00:00Z')).toEqual({
      at: '2026-07-11T12:00:00.000Z',
      localDate: '2026-07-11',
    });
    // a late local time in a zone behind UTC: the local date is still yesterday's in UTC terms
    expect(next(daily(23 * 60 + 30), 'America/New_York', '2026-01-11T03:00:00Z')).toEqual({
      at: '2026-01-11T04:30:00.000Z',
      localDate: '2026-01-10',
    });
  });

  it('spring forward (America/New_York, 2026-03-08 02:00 → 03:00): 02:30 runs at the next valid minute, 03:00 EDT', () => {
    expect(next(daily(150), 'America/New_York', '2026-03-07T12:00:00Z')).toEqual({
      at: '2026-03-08T07:00:00.000Z',
      localDate: '2026-03-08',
    });
    expect(next(daily(150), 'America/New_York', '2026-03-08T07:00:00Z')).toEqual({
      at: '2026-03-09T06:30:00.000Z',
      localDate: '2026-03-09',
    });
  });

  it('fall back (America/New_York, 2026-11-01 01:00–02:00 twice): 01:30 runs once, at the first', () => {
    const first = next(daily(90), 'America/New_York', '2026-10-31T12:00:00Z');
    expect(first).toEqual({ at: '2026-11-01T05:30:00.000Z', localDate: '2026-11-01' });
    expect(next(daily(90), 'America/New_York', first!.at)).toEqual({
      at: '2026-11-02T06:30:00.000Z',
      localDate: '2026-11-02',
    });
  });

  it('Australia/Sydney: spring forward on 2026-10-04 and fall back on 2026-04-05 (Weekly, Sunday 02:30)', () => {
    expect(next(weekly(0, 150), 'Australia/Sydney', '2026-10-01T00:00:00Z')).toEqual({
      at: '2026-10-03T16:00:00.000Z',
      localDate: '2026-10-04',
    });
    const first = next(weekly(0, 150), 'Australia/Sydney', '2026-04-01T00:00:00Z');
    expect(first).toEqual({ at: '2026-04-04T15:30:00.000Z', localDate: '2026-04-05' });
    expect(next(weekly(0, 150), 'Australia/Sydney', first!.at)).toEqual({
      at: '2026-04-11T16:30:00.000Z',
      localDate: '2026-04-12',
    });
  });

  it('Monthly on the 31st is clamped to the month end: Feb 28, Feb 29 in a leap year, Apr 30', () => {
    expect(next(monthly(31, 480), 'UTC', '2027-02-01T00:00:00Z')).toEqual({
      at: '2027-02-28T08:00:00.000Z',
      localDate: '2027-02-28',
    });
    expect(next(monthly(31, 480), 'UTC', '2028-02-01T00:00:00Z')).toEqual({
      at: '2028-02-29T08:00:00.000Z',
      localDate: '2028-02-29',
    });
    expect(next(monthly(31, 480), 'America/New_York', '2026-04-01T00:00:00Z')).toEqual({
      at: '2026-04-30T12:00:00.000Z',
      localDate: '2026-04-30',
    });
    expect(next(monthly(31, 480), 'America/New_York', '2026-04-30T12:00:00Z')).toEqual({
      at: '2026-05-31T12:00:00.000Z',
      localDate: '2026-05-31',
    });
  });

  it('Instant and Never have no digest', () => {
    expect(
      next(
        { frequency: 'Instant', send_time: null, send_weekday: null, send_monthday: null },
        'UTC',
        '2026-01-01T00:00:00Z',
      ),
    ).toBeNull();
    expect(
      next(
        { frequency: 'Never', send_time: 60, send_weekday: null, send_monthday: null },
        'UTC',
        '2026-01-01T00:00:00Z',
      ),
    ).toBeNull();
  });
});
