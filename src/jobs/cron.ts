// Cron schedules of our own (issue 36). pg-boss's timekeeper, which ran them before, cost an idle worker a third of
// its main thread: it parses every schedule with cron-parser and luxon twice a minute, then moves each due tick
// through a queue of its own that a worker polls every 15 s. Our schedules are in UTC and use the five standard
// fields, so matching one against a minute is a few set lookups; the ticker (cron-ticker.ts) does that each minute.

/** A schedule's five fields as the values they allow (day of week: 0 = Sunday; 7 is read as 0). */
export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly daysOfWeek: ReadonlySet<number>;
  /**
   * Both day fields name days (neither starts with `*`): as in every cron since Vixie's, a day then matches when it
   * matches either field ("the 1st and every Monday"), not both.
   */
  readonly eitherDay: boolean;
}

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;

/** Reads `minute hour day-of-month month day-of-week`: each a list of `*`, `n` or `n-m`, optionally `/step`. */
export function parseCron(expression: string): CronSchedule {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== FIELDS.length)
    throw new Error(`cron "${expression}": five fields (minute hour day-of-month month day-of-week) are needed`);
  const [minutes, hours, daysOfMonth, months, weekdays] = fields.map((field, i) =>
    parseField(field, FIELDS[i]!, expression),
  ) as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (weekdays.delete(7)) weekdays.add(0);
  return {
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek: weekdays,
    eitherDay: !fields[2]!.startsWith('*') && !fields[4]!.startsWith('*'),
  };
}

function parseField(field: string, range: (typeof FIELDS)[number], expression: string): Set<number> {
  const values = new Set<number>();
  const fail = (why: string) => new Error(`cron "${expression}": ${range.name} "${field}" ${why}`);
  for (const item of field.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    if (!match) throw fail('is not *, n or n-m (with an optional /step)');
    const [, , first, last, step] = match;
    const from = first === undefined ? range.min : Number(first);
    // `n` alone is itself; `*` and `n/step` (as in Vixie cron) run to the field's end.
    const single = first !== undefined && last === undefined && step === undefined;
    const to = last !== undefined ? Number(last) : single ? from : range.max;
    const by = step === undefined ? 1 : Number(step);
    if (from < range.min || to > range.max || from > to) throw fail(`is outside ${range.min}-${range.max}`);
    if (by < 1) throw fail('has a step below 1');
    for (let value = from; value <= to; value += by) values.add(value);
  }
  return values;
}

/** Whether the schedule names the UTC minute `at` falls in. */
export function cronDue(schedule: CronSchedule, at: Date): boolean {
  if (!schedule.minutes.has(at.getUTCMinutes()) || !schedule.hours.has(at.getUTCHours())) return false;
  if (!schedule.months.has(at.getUTCMonth() + 1)) return false;
  const dayOfMonth = schedule.daysOfMonth.has(at.getUTCDate());
  const dayOfWeek = schedule.daysOfWeek.has(at.getUTCDay());
  return schedule.eitherDay ? dayOfMonth || dayOfWeek : dayOfMonth && dayOfWeek;
}
