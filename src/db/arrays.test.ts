import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { arrayLiteral, unnestRows } from './arrays.js';
import { useTestApp } from '../../test/helpers/app.js';

describe('arrayLiteral', () => {
  const t = useTestApp();

  it('round-trips any text through PostgreSQL, nulls and the empty array included', async () => {
    const values = [
      'plain',
      'null',
      'Null',
      '-1.5e+3',
      '2026-11-24 19:23:22.123+00',
      '',
      'with "quotes"',
      'back\\slash\\',
      '{braces},commas',
      ' spaces ',
      'NULL',
      'ünïcödé ✓',
      null,
      '((1,2),(3,4))',
    ];
    const { rows } = await sql<{ back: (string | null)[] }>`select ${arrayLiteral(values)}::text[] as back`.execute(
      t.deps.db,
    );
    expect(rows[0]!.back).toEqual(values);
    const empty = await sql<{ back: string[] }>`select ${arrayLiteral([])}::text[] as back`.execute(t.deps.db);
    expect(empty.rows[0]!.back).toEqual([]);
  });

  it('casts to typed arrays, as the driver would send them', async () => {
    const ids = ['0190a0b4-1c2d-7e3f-8a4b-5c6d7e8f9a0b', '0190a0b4-1c2d-7e3f-8a4b-5c6d7e8f9a0c'];
    const { rows } = await sql<{
      back: string[];
      n: string[];
    }>`select ${arrayLiteral(ids)}::uuid[] as back, (${arrayLiteral(['1.5', null])}::numeric[])::text[] as n`.execute(
      t.deps.db,
    );
    expect(rows[0]!.back).toEqual(ids);
    expect(rows[0]!.n).toEqual(['1.5', null]);
  });

  it('unnestRows: rows of every kind of column come back as they went in, one parameter per column', async () => {
    const rows = [
      {
        id: '0190a0b4-1c2d-7e3f-8a4b-5c6d7e8f9a0b',
        name: 'with "quotes", {braces} and \\',
        tags: ['a b', 'NULL', '"q"'],
        ids: null,
        data: { n: 1, s: 'x"y' },
        at: new Date('2026-11-24T19:23:22.123Z'),
        n: 1.5,
      },
      {
        id: '0190a0b4-1c2d-7e3f-8a4b-5c6d7e8f9a0c',
        name: null,
        tags: [],
        ids: ['0190a0b4-1c2d-7e3f-8a4b-5c6d7e8f9a0b'],
        data: null,
        at: new Date('1999-01-01T00:00:00Z'),
        n: -2,
      },
    ];
    const { select, from } = unnestRows(rows, {
      id: 'uuid',
      name: 'text',
      tags: 'text[]',
      ids: 'uuid[]',
      data: 'jsonb',
      at: 'timestamptz',
      n: 'numeric',
    });
    const compiled = sql`select ${select} from ${from}`.compile(t.deps.db);
    expect(compiled.parameters).toHaveLength(7);
    const back = await sql<
      Record<string, unknown>
    >`select q.id, q.name, q.tags, q.ids, q.data, q.at, q.n::float8 as n from (select ${select} from ${from}) as q(id, name, tags, ids, data, at, n)`.execute(
      t.deps.db,
    );
    expect(back.rows).toEqual(rows);
  });

  it('unnestRows: a column with one value in every row travels as that value, and the rows come back the same', async () => {
    const at = new Date('2026-11-25T01:02:03.456Z');
    const rows = Array.from({ length: 3 }, (_, i) => ({
      id: `0190a0b4-1c2d-7e3f-8a4b-5c6d7e8f9a0${i}`,
      none: null,
      kind: 'same "text"',
      tags: ['a', 'b c'],
      data: { n: 1 },
      at,
      n: i === 2 ? 2 : 1,
    }));
    const columns = {
      id: 'uuid',
      none: 'text',
      kind: 'text',
      tags: 'text[]',
      data: 'jsonb',
      at: 'timestamptz',
      n: 'numeric',
    } as const;
    const { select, from, column } = unnestRows(rows, columns);
    const compiled = sql`select ${select} from ${from}`.compile(t.deps.db);
    // id and n vary: two arrays; none, kind, tags, data and at: one value each
    expect(compiled.parameters).toHaveLength(7);
    expect(/unnest\((.*?)\) as/.exec(compiled.sql)![1]!.split(',')).toHaveLength(2);
    expect(compiled.parameters).toEqual(
      expect.arrayContaining([null, 'same "text"', '{"a","b c"}', '{"n":1}', at.toISOString()]),
    );
    const back = await sql<
      Record<string, unknown>
    >`select q.id, q.none, q.kind, q.tags, q.data, q.at, q.n::float8 as n from (select ${select} from ${from}) as q(id, none, kind, tags, data, at, n)`.execute(
      t.deps.db,
    );
    expect(back.rows).toEqual(rows);
    const kinds = await sql<{ kind: string }>`select ${column('kind')} as kind from ${from}`.execute(t.deps.db);
    expect(kinds.rows).toEqual(rows.map(() => ({ kind: 'same "text"' })));
    // One row: every column but the first is the same in every row; the first still gives the number of rows.
    const one = unnestRows(rows.slice(0, 1), columns);
    const single = await sql<
      Record<string, unknown>
    >`select q.id, q.none, q.kind, q.tags, q.data, q.at, q.n::float8 as n from (select ${one.select} from ${one.from}) as q(id, none, kind, tags, data, at, n)`.execute(
      t.deps.db,
    );
    expect(single.rows).toEqual(rows.slice(0, 1));
    // No rows: nothing comes back.
    const none = unnestRows([] as typeof rows, columns);
    expect((await sql`select ${none.select} from ${none.from}`.execute(t.deps.db)).rows).toEqual([]);
  });
});
