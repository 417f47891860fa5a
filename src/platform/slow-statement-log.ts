// The report of a slow statement (db/slow-statements.ts): counted in /metrics each time, logged once per statement
// text and work every LOG_EVERY_MS. A statement a job runs ten thousand times is one line (with how often it
// repeated since the last), not ten thousand.
import type { FastifyBaseLogger } from 'fastify';
import type { SlowStatement } from '../db/slow-statements.js';
import type { Metrics } from './metrics.js';

const LOG_EVERY_MS = 10_000;
/** Distinct (work, text) pairs remembered; past it the memory starts afresh (a line more, never unbounded). */
const REMEMBERED = 1000;

export function slowStatementReporter(
  log: FastifyBaseLogger,
  metrics: Metrics,
  now: () => number = () => performance.now(),
): (statement: SlowStatement) => void {
  const seen = new Map<string, { loggedAt: number; repeats: number }>();
  return (statement) => {
    const work = statement.work ?? { kind: 'command', name: 'none' };
    metrics.slowStatements.inc({ kind: work.kind, name: work.name });
    const key = `${work.kind} ${work.name}\n${statement.sql}`;
    const last = seen.get(key);
    if (last && now() - last.loggedAt < LOG_EVERY_MS) {
      last.repeats++;
      return;
    }
    if (!last && seen.size >= REMEMBERED) seen.clear();
    seen.set(key, { loggedAt: now(), repeats: 0 });
    log.warn(
      {
        [work.kind]: work.name,
        duration_ms: statement.durationMs,
        sql: statement.sql,
        ...(last?.repeats ? { repeats_since_last_line: last.repeats } : {}),
      },
      'slow database statement',
    );
  };
}
