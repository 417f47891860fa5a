// Trigger planning figure (issue 10): a brand birthday trigger over N contacts (default 100,000, birthdays spread
// over the year). One sweep per day of a year on a clock the bench moves (what the every-minute job does as the
// days pass), so every contact is planned once; the figure is the total time and the slowest day (target: the
// whole brand planned in ≤ 30 s).
import { sql } from 'kysely';
import { ManualClock } from '../src/lib/clock.js';
import type { Deps } from '../src/platform/deps.js';
import { EMPTY_CONTACT } from '../src/modules/contacts/contacts.input.js';
import { importContacts } from '../src/modules/contacts/contacts.service.js';
import { upsertBrandTrigger } from '../src/modules/triggers/brand-triggers.repository.js';
import { sweepBrandTriggers } from '../src/modules/triggers/brand-triggers.sweep.js';
import { sweepBrandTriggersTask } from '../src/modules/triggers/triggers.tasks.js';
import { chunkRowsOf } from '../src/jobs/task.js';
import type { FoundationFixture } from './foundation.bench.js';

const DAY_MS = 86_400_000;
const YEAR = 2027;

export async function benchBrandTriggerPlanning(
  deps: Deps,
  fixture: FoundationFixture,
  options: { contacts: number },
): Promise<{ notes: string[] }> {
  const brand = (
    await deps.db
      .insertInto('brands')
      .values({ name: 'Bench birthdays', marketing_palette: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  // A quota no brand of this size reaches: the figure is planning, not the quota's refusals.
  await deps.db
    .updateTable('users')
    .set({ email_quota: 10_000_000, timezone: 'America/Chicago' })
    .where('id', '=', fixture.userId)
    .execute();
  const birthday = (i: number) => new Date(Date.UTC(1980, 0, 1) + (i % 366) * DAY_MS).toISOString().slice(0, 10);
  await importContacts(
    deps,
    brand,
    Array.from({ length: options.contacts }, (_, i) => ({
      ...EMPTY_CONTACT,
      first_name: `Guest${i}`,
      emails: [`guest${i}@mail.example`],
      birthday: birthday(i),
    })),
  );

  await sql`analyze contacts`.execute(deps.db); // as autovacuum would after an import this size
  const clock = new ManualClock(new Date(Date.UTC(YEAR, 0, 1)));
  const timed: Deps = { ...deps, clock };
  await upsertBrandTrigger(
    deps.db,
    brand,
    'birthday',
    {
      user: fixture.userId,
      wait_for: 0,
      time: 9 * 3600,
      subject: 'Happy birthday, {{ contact.first_name }}!',
      html: '<p>All the best.</p>',
    },
    clock.now(),
  );
  const days: number[] = [];
  const started = performance.now();
  // The clock at the end of each day of the year: 365 sweeps plan every birthday of that year once.
  for (let day = 1; day <= 365; day++) {
    clock.set(new Date(Date.UTC(YEAR, 0, 1) + day * DAY_MS));
    const at = performance.now();
    await sweepBrandTriggers(timed, new AbortController().signal, chunkRowsOf(sweepBrandTriggersTask, deps));
    days.push(performance.now() - at);
  }
  const seconds = (performance.now() - started) / 1000;
  const planned = await deps.db
    .selectFrom('brand_trigger_sends')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  days.sort((a, b) => a - b);
  return {
    notes: [
      `triggers: brand birthday trigger over ${options.contacts} contacts: ${planned.n} planned by 365 daily sweeps in ${seconds.toFixed(1)} s (target ≤ 30 s); one day's sweep p50 ${days[Math.floor(days.length / 2)]!.toFixed(0)} ms, max ${days[days.length - 1]!.toFixed(0)} ms`,
    ],
  };
}
