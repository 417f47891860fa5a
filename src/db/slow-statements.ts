// Statements slower than SLOW_QUERY_MS (issue 35): each is reported once, with the work it was part of (route or
// job, lib/work-context.ts), its duration and its SQL text. The text is the statement as sent, with `$1`… in place of
// the values, so no parameter (a token hash, an email address) reaches the log.
import { currentWork, type Work } from '../lib/work-context.js';

export interface SlowStatement {
  readonly sql: string;
  readonly durationMs: number;
  readonly work: Work | null;
}

export interface SlowStatementWatch {
  readonly thresholdMs: number;
  report(statement: SlowStatement): void;
}

/** Longest SQL text a report carries (whitespace collapsed). */
const SQL_TEXT_LIMIT = 1000;

export function sqlForLog(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SQL_TEXT_LIMIT ? `${flat.slice(0, SQL_TEXT_LIMIT)}…` : flat;
}

/** Reports the statement when it took `durationMs` or more (a threshold of 0 reports every statement). */
export function checkDuration(
  watch: SlowStatementWatch | undefined,
  sql: string,
  durationMs: number,
  work: Work | null = currentWork(),
): void {
  if (!watch || durationMs < watch.thresholdMs) return;
  watch.report({ sql: sqlForLog(sql), durationMs: Math.round(durationMs * 10) / 10, work });
}
