// Named statements keep their row parser between calls (kept-row-parser.ts): the rows must be exactly what pg
// builds afresh, call after call, and later calls must really go without a Describe (pg's internals still as
// assumed).
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { describesSkippedCount } from './kept-row-parser.js';

const TEXT = `select $1::int8 as big, now() as at, '{"a":[1,null]}'::jsonb as doc, null::text as nothing,
  array['x','y'] as list, true as yes, 1.5::numeric as num, $2::text as echo`;

describe('named statements keep their row parser', () => {
  const t = useTestApp();

  it('answers on every call what an unnamed (freshly parsed) statement answers', async () => {
    const unnamed = await t.deps.database.query({ text: TEXT, values: [7, 'first'] });
    const before = describesSkippedCount();
    const name = `test.kept-row-parser-${Date.now()}`;
    for (const echo of ['first', 'second', 'third']) {
      const named = await t.deps.database.query({ name, text: TEXT, values: [7, echo] });
      const expected = { ...unnamed.rows[0], echo, at: expect.any(Date) };
      expect(named.rows).toEqual([expected]);
      expect(named.rows[0]).toMatchObject({ big: 7, doc: { a: [1, null] }, nothing: null, list: ['x', 'y'], num: 1.5 });
      expect(named.fields.map((field) => field.name)).toEqual(unnamed.fields.map((field) => field.name));
      expect(named.rowCount).toBe(1);
    }
    // pg's pool hands the same idle connection back to sequential calls: only the first described the statement.
    expect(describesSkippedCount()).toBe(before + 2);
  });

  it('keeps each statement its own columns when statements alternate on a connection', async () => {
    const stamp = Date.now();
    const numbers = { name: `test.kept-numbers-${stamp}`, text: 'select $1::int as n, $1::int * 2 as twice' };
    const words = { name: `test.kept-words-${stamp}`, text: "select $1::text as word, 'x' || $1::text as prefixed" };
    for (let i = 1; i <= 3; i++) {
      const n = await t.deps.database.query({ ...numbers, values: [i] });
      const w = await t.deps.database.query({ ...words, values: [`w${i}`] });
      expect(n.rows).toEqual([{ n: i, twice: 2 * i }]);
      expect(w.rows).toEqual([{ word: `w${i}`, prefixed: `xw${i}` }]);
    }
  });

  it('passes errors on as a rejected promise with the caller in its stack', async () => {
    const failing = t.deps.database.query({
      name: `test.kept-row-parser-error-${Date.now()}`,
      text: 'select 1/$1::int',
      values: [0],
    });
    await expect(failing).rejects.toThrow(/division by zero/);
  });
});
