// The crash test of issue 12 ("Tests"): a real worker process — `gable worker` on PostgreSQL, `gable serve`
// (workers in process) on the embedded database — runs the Daily digests of a search linked to 300 contacts and is
// killed with SIGKILL in the middle of the run. Restarted, it finishes: every contact has exactly one digest (one
// Message-ID); the only repeat allowed is the SMTP relay receiving again the message that was in flight at the
// kill (ledger `sending`), with the same Message-ID — the mail ledger's at-least-once edge, not a second digest.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { exited, until, useCrashHarness } from '../../../test/helpers/crash.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { buildApp } from '../../app.js';
import { firstStartSteps } from '../../bootstrap.js';
import { completeStep } from '../../db/first-start.repository.js';
import type { Deps } from '../../platform/deps.js';
import { EMPTY_CONTACT } from '../contacts/contacts.input.js';
import { importContacts } from '../contacts/contacts.service.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { digestsTask } from './delivery.tasks.js';
import { AROUND_DALLAS } from '../../../test/helpers/saved-searches.js';

const CONTACTS = 300;
const address = (i: number) => `digest${i}@example.com`;

const harness = useCrashHarness({});
const { withDatabase, startWorker } = harness;

const uniqueRecipients = () => new Set(harness.sink.received.flatMap((r) => r.envelope.to)).size;
const count = async (deps: Deps, query: ReturnType<typeof sql<{ n: string }>>) =>
  Number((await query.execute(deps.db)).rows[0]!.n);

describe('a worker killed with SIGKILL in the middle of a digest run', () => {
  it('emails every contact its digest exactly once after a restart (a repeat only of the message in flight, same Message-ID)', async () => {
    const markedDueAt = await withDatabase(async (deps) => {
      for (const step of firstStartSteps) await completeStep(deps.db, step.name, new Date());
      const owner = await crmUser(deps);
      expect(
        await importContacts(
          deps,
          owner.brand,
          Array.from({ length: CONTACTS }, (_, i) => ({ ...EMPTY_CONTACT, first_name: `D${i}`, emails: [address(i)] })),
        ),
      ).toBe(CONTACTS);
      const created = (
        await deps.db.selectFrom('contacts').select('id').where('brand', '=', owner.brand).execute()
      ).map((c) => c.id);
      const app = await buildApp(deps);
      try {
        const saved = await app.inject({
          method: 'POST',
          url: `/brands/${owner.brand}/saved-searches`,
          headers: owner.bare,
          payload: {
            points: AROUND_DALLAS,
            title: 'Dallas homes',
            contacts: created,
            frequency: 'Daily',
            send_time: 8 * 60,
          },
        });
        expect(saved.statusCode, saved.body).toBe(200);
        const ingested = await app.inject({
          method: 'POST',
          url: '/mls/CRASH/listings',
          headers: await clientHeaders(deps),
          payload: [sampleListing('C-1'), sampleListing('C-2')],
        });
        expect(ingested.statusCode, ingested.body).toBe(200);
      } finally {
        await app.close();
      }
      await runQueuedJobs(deps, ['saved-searches.match', 'saved-searches.deliver']);
      expect(await count(deps, sql`select count(*) as n from saved_search_matches`)).toBe(2);
      // Every link's digest is due now (instead of waiting for 08:00), and a run is queued so the worker starts at once.
      const marked = await sql<{
        at: string;
      }>`update saved_search_contacts set next_digest_at = now(), next_digest_date = (now() at time zone 'UTC')::date returning now()::text as at`.execute(
        deps.db,
      );
      await deps.queue.enqueue(deps.db, digestsTask, {});
      return marked.rows[0]!.at;
    });

    let worker = startWorker();
    // Early: at the kill with 32 mails received, 67 (PostgreSQL) and 141 (embedded) of the 300 digests were done.
    await until(() => harness.sink.received.length >= 10 || worker.exitCode !== null, 180, 'the first digests');
    expect(worker.exitCode).toBeNull();
    worker.kill('SIGKILL');
    await exited(worker);

    const inFlight = await withDatabase(async (deps) => {
      // The kill landed in the middle of the run: some digests done, some still due.
      const done = await count(deps, sql`select count(*) as n from saved_search_digests`);
      expect(done).toBeGreaterThan(0);
      expect(done).toBeLessThan(CONTACTS);
      // Still due means still at the instant they were made due (as text: a Date would drop its microseconds), not
      // `<= now()`: a link done just before 08:00 UTC has its next digest at 08:00 today, past by the time we count.
      expect(
        await count(
          deps,
          sql`select count(*) as n from saved_search_contacts where next_digest_at <= ${markedDueAt}::timestamptz`,
        ),
      ).toBe(CONTACTS - done);
      const sending = await deps.db
        .selectFrom('mail_messages')
        .select('message_id')
        .where('state', '=', 'sending')
        .execute();
      // The 5-minute send lease and the quarter hour after which a queued message counts as lost are made to have
      // passed (instead of waiting for them); a run is queued (instead of waiting for the next minute's cron).
      await sql`update mail_messages set claimed_until = now() - interval '1 second', created_at = created_at - interval '1 hour' where state in ('queued', 'sending')`.execute(
        deps.db,
      );
      await deps.queue.enqueue(deps.db, digestsTask, {});
      return new Set(sending.map((r) => r.message_id));
    });

    worker = startWorker();
    try {
      await until(() => uniqueRecipients() >= CONTACTS, 240, 'every contact');
    } finally {
      worker.kill('SIGTERM');
      await exited(worker);
    }

    const byAddress = new Map<string, string[]>();
    for (const mail of harness.sink.received)
      for (const to of mail.envelope.to) byAddress.set(to, [...(byAddress.get(to) ?? []), mail.parsed.messageId!]);
    expect([...byAddress.keys()].sort()).toEqual(Array.from({ length: CONTACTS }, (_, i) => address(i)).sort());
    const repeats = [...byAddress.entries()].filter(([, ids]) => ids.length > 1);
    for (const [to, ids] of repeats) {
      expect(new Set(ids).size, `${to} got two different digests`).toBe(1);
      expect(ids.length, to).toBe(2);
      expect(inFlight.has(ids[0]!), `${to} got its digest twice but it was not in flight at the kill`).toBe(true);
    }
    expect(harness.sink.received.length).toBe(CONTACTS + repeats.length);
    for (const mail of harness.sink.received) expect(mail.parsed.subject).toMatch(/^2 new listings for/);
    await withDatabase(async (deps) => {
      expect(
        await count(
          deps,
          sql`select count(*) as n from saved_search_digests where mail_message is not null and listings = 2`,
        ),
      ).toBe(CONTACTS);
      expect(await count(deps, sql`select count(*) as n from saved_search_alerts`)).toBe(CONTACTS * 2);
      const states = await deps.db
        .selectFrom('mail_messages')
        .select(['state', (eb) => eb.fn.countAll<string>().as('n')])
        .groupBy('state')
        .execute();
      expect(states.map((s) => [s.state, Number(s.n)])).toEqual([['sent', CONTACTS]]);
    });
  }, 600_000);
});
