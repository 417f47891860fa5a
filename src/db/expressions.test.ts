// Epoch seconds computed in SQL must be the very numbers a JS Date of the same timestamp gives (ms / 1000).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { epochSecondsOf, nullableEpochSecondsOf } from './expressions.js';

describe('epochSecondsOf', () => {
  const t = useTestApp();

  it('answers a Date’s ms / 1000 for any timestamp, microseconds cut, before 1970 too', async () => {
    const stamps = [
      '2026-11-30 03:13:26.869123+00',
      '2026-11-30 03:13:26.869999+00',
      '2026-11-30 03:13:26.000001+00',
      '2026-11-30 03:13:26+00',
      '2038-01-19 03:14:07.999999+00',
      '1970-01-01 00:00:00+00',
      '1969-12-31 23:59:59.9995+00',
      '1900-06-15 12:00:00.001+00',
      '2100-02-28 23:59:59.123456+00',
      ...Array.from({ length: 200 }, (_, i) => {
        const micros = BigInt(1_500_000_000_000_000 + i * 7_919_123_457);
        return new Date(Number(micros / 1000n))
          .toISOString()
          .replace('Z', `${String(micros % 1000n).padStart(3, '0')}+00`);
      }),
    ];
    const { rows } = await sql<{ stamp: string; at: Date; seconds: number; none: number | null }>`
      select s.stamp, s.stamp::timestamptz as at, ${epochSecondsOf('s.at')} as seconds,
             ${nullableEpochSecondsOf('s.nothing')} as none
        from (select stamp, stamp::timestamptz as at, null::timestamptz as nothing
                from unnest(${stamps}::text[]) as stamp) as s
    `.execute(t.deps.db);
    expect(rows).toHaveLength(stamps.length);
    for (const row of rows) {
      expect({ stamp: row.stamp, seconds: row.seconds }).toEqual({
        stamp: row.stamp,
        seconds: row.at.getTime() / 1000,
      });
      expect(row.none).toBeNull();
    }
  });
});
