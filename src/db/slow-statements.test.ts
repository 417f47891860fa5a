// Slow statements (issue 35 item 2): reported with the route or job they were part of, their duration and their SQL
// text without parameter values; counted in /metrics every time, logged once per text and work while they repeat.
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.js';
import { bearer, createUser, tokenFor } from '../../test/helpers/factories.js';
import { runAsWork } from '../lib/work-context.js';
import { Metrics } from '../platform/metrics.js';
import { slowStatementReporter } from '../platform/slow-statement-log.js';
import { checkDuration, sqlForLog, type SlowStatement } from './slow-statements.js';

interface Line {
  msg: string;
  route?: string;
  job?: string;
  sql: string;
  duration_ms: number;
  repeats_since_last_line?: number;
}
const lines: Line[] = [];
const log = pino(
  { level: 'warn' },
  { write: (text: string) => void lines.push(JSON.parse(text) as Line) },
) as FastifyBaseLogger;
// A threshold of 0 reports every statement: each one the app runs shows whose it was.
const t = useTestApp({ env: { SLOW_QUERY_MS: '0' }, log });

const slowCount = async (labels: string) => {
  const text = await t.deps.metrics.registry.getSingleMetricAsString('gable_slow_statements_total');
  const line = text.split('\n').find((l) => l.startsWith(`gable_slow_statements_total{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
};

describe('slow statements of the app', () => {
  it('name the route of the request, through Kysely and through prepared statements, without parameter values', async () => {
    const user = await createUser(t.deps, { email: 'slow-route@example.com' });
    const token = await tokenFor(t.deps, user.id);
    lines.length = 0;
    const res = await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    const ofRoute = lines.filter((l) => l.route === 'GET /users/self');
    expect(ofRoute.length).toBeGreaterThan(0);
    expect(
      ofRoute.every(
        (l) => l.msg === 'slow database statement' && typeof l.duration_ms === 'number' && l.sql.length > 0,
      ),
    ).toBe(true);
    // The bearer look-up is a named prepared statement on the pool (Database.query), not a Kysely call.
    expect(ofRoute.some((l) => /\$1/.test(l.sql))).toBe(true);
    for (const line of lines) expect(line.sql).not.toContain(user.id);
    expect(await slowCount('kind="route",name="GET /users/self"')).toBe(ofRoute.length);
  });

  it('name the route of a prepared statement on a connection that other work opened', async () => {
    const user = await createUser(t.deps, { email: 'slow-reused@example.com' });
    const token = await tokenFor(t.deps, user.id);
    await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) }); // the token's first use
    // Every idle connection of the pool is opened (or last used) by a job now: a server's pooled statements are
    // driven by pg's callbacks, which run in the context of the connection's socket, not of the caller.
    await runAsWork({ kind: 'job', name: 'test.opener' }, () =>
      Promise.all(Array.from({ length: 4 }, () => t.deps.database.query({ text: 'select pg_sleep(0.01)' }))),
    );
    const ofRoute = await slowCount('kind="route",name="GET /users/self"');
    const ofOpener = await slowCount('kind="job",name="test.opener"');
    const res = await t.app.inject({ method: 'GET', url: '/users/self', headers: bearer(token) });
    expect(res.statusCode, res.body).toBe(200);
    // One statement (the bearer check with the user row), counted as the route's; the log line may be one
    // repeated within its ten seconds, the count is not.
    expect(await slowCount('kind="route",name="GET /users/self"')).toBe(ofRoute + 1);
    expect(await slowCount('kind="job",name="test.opener"')).toBe(ofOpener);
  });

  it('name the job, and log a repeated statement once while counting each', async () => {
    lines.length = 0;
    await runAsWork({ kind: 'job', name: 'test.repeat' }, async () => {
      for (let i = 0; i < 3; i++) await t.deps.database.query({ text: 'select $1::int as n', values: [i] });
    });
    expect(lines.filter((l) => l.job === 'test.repeat').map((l) => l.sql)).toEqual(['select $1::int as n']);
    expect(await slowCount('kind="job",name="test.repeat"')).toBe(3);
  });
});

describe('the threshold and the report', () => {
  it('reports a statement at or over the threshold only, with its text flattened and cut', () => {
    const reported: SlowStatement[] = [];
    const watch = { thresholdMs: 500, report: (s: SlowStatement) => void reported.push(s) };
    checkDuration(watch, 'select 1', 499.9);
    runAsWork({ kind: 'job', name: 'x' }, () => checkDuration(watch, 'select\n   2', 500));
    expect(reported).toEqual([{ sql: 'select 2', durationMs: 500, work: { kind: 'job', name: 'x' } }]);
    expect(sqlForLog(`select ${'a'.repeat(2000)}`)).toHaveLength(1001);
  });

  it('logs the same text of the same work again after ten seconds, with how often it repeated meanwhile', () => {
    const written: Line[] = [];
    const quiet = pino(
      { level: 'warn' },
      { write: (text: string) => void written.push(JSON.parse(text) as Line) },
    ) as FastifyBaseLogger;
    let now = 0;
    const report = slowStatementReporter(quiet, new Metrics({ defaultMetrics: false }), () => now);
    const statement = { sql: 'select 1', durationMs: 600, work: { kind: 'route' as const, name: 'GET /x' } };
    report(statement);
    now = 5_000;
    report(statement);
    report({ ...statement, work: { kind: 'job', name: 'other' } });
    now = 10_000;
    report(statement);
    expect(written.map((l) => [l.route ?? l.job, l.repeats_since_last_line])).toEqual([
      ['GET /x', undefined],
      ['other', undefined],
      ['GET /x', 1],
    ]);
  });
});
