// The crash test of issue 10: a real worker process — `gable worker` on PostgreSQL, `gable serve` (workers in
// process) on the embedded database — sends a 500-recipient individual campaign through the loopback SMTP relay
// and is killed with SIGKILL in the middle. Restarted, it finishes: every recipient has the message, and only a
// message that was in flight at the kill (ledger `sending`) arrives twice, with the same Message-ID.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { exited, until, useCrashHarness } from '../../test/helpers/crash.js';
import { addMembership, bearer, createBrand, createUser, tokenFor } from '../../test/helpers/factories.js';
import { buildApp } from '../app.js';
import { completeStep } from '../db/first-start.repository.js';
import { firstStartSteps } from '../bootstrap.js';
import { EMPTY_CONTACT } from '../modules/contacts/contacts.input.js';
import { importContacts } from '../modules/contacts/contacts.service.js';

const RECIPIENTS = 500;
const address = (i: number) => `crash${i}@example.com`;

const harness = useCrashHarness({ sinkDelayMs: 15 });
const { withDatabase, startWorker } = harness;

const uniqueRecipients = () => new Set(harness.sink.received.flatMap((r) => r.envelope.to)).size;

describe('a worker killed with SIGKILL mid-campaign', () => {
  it('delivers to every recipient after a restart, twice only what was in flight, with the same Message-ID', async () => {
    await withDatabase(async (deps) => {
      // An installation whose first start is done (embedded: serve would seed demo data first).
      for (const step of firstStartSteps) await completeStep(deps.db, step.name, new Date());
      const brand = (await createBrand(deps)).id;
      const user = await createUser(deps);
      await addMembership(deps, user.id, brand, ['CRM', 'Marketing']);
      await importContacts(
        deps,
        brand,
        Array.from({ length: RECIPIENTS }, (_, i) => ({
          ...EMPTY_CONTACT,
          first_name: `C${i}`,
          emails: [address(i)],
          tags: ['all'],
        })),
      );
      const app = await buildApp(deps);
      try {
        const created = await app.inject({
          method: 'POST',
          url: '/emails',
          headers: { ...bearer(await tokenFor(deps, user.id)), 'x-rechat-brand': brand },
          payload: {
            subject: 'Hello {{ contact.first_name }}',
            html: '<p>News</p>',
            individual: true,
            to: [{ recipient_type: 'Tag', tag: 'all' }],
          },
        });
        expect(created.statusCode, created.body).toBe(200);
      } finally {
        await app.close();
      }
    });

    let worker = startWorker();
    await until(
      () => harness.sink.received.length >= RECIPIENTS / 4 || worker.exitCode !== null,
      120,
      'the first quarter of the campaign',
    );
    expect(worker.exitCode).toBeNull();
    worker.kill('SIGKILL');
    await exited(worker);
    const beforeRestart = harness.sink.received.length;
    expect(beforeRestart).toBeLessThan(RECIPIENTS);

    // What the kill left in the ledger; then the 5-minute lease and the quarter hour after which a queued
    // message counts as lost are made to have passed (instead of waiting for them).
    const inFlight = await withDatabase(async (deps) => {
      const sending = await deps.db
        .selectFrom('mail_messages')
        .select('message_id')
        .where('state', '=', 'sending')
        .execute();
      await sql`update mail_messages set claimed_until = now() - interval '1 second', created_at = created_at - interval '1 hour' where state in ('queued', 'sending')`.execute(
        deps.db,
      );
      return new Set(sending.map((r) => r.message_id));
    });

    worker = startWorker();
    try {
      await until(() => uniqueRecipients() >= RECIPIENTS, 180, 'every recipient');
    } finally {
      worker.kill('SIGTERM');
      await exited(worker);
    }

    const byAddress = new Map<string, string[]>();
    for (const mail of harness.sink.received)
      for (const to of mail.envelope.to) byAddress.set(to, [...(byAddress.get(to) ?? []), mail.parsed.messageId!]);
    expect(byAddress.size).toBe(RECIPIENTS);
    const twice = [...byAddress.entries()].filter(([, ids]) => ids.length > 1);
    for (const [to, ids] of twice) {
      expect(ids.length, to).toBe(2);
      expect(ids[0], to).toBe(ids[1]);
      expect(inFlight.has(ids[0]!), `${to} arrived twice but was not in flight at the kill`).toBe(true);
    }
    expect(harness.sink.received.length).toBe(RECIPIENTS + twice.length);
    await withDatabase(async (deps) => {
      const states = await deps.db
        .selectFrom('mail_messages')
        .select(['state', (eb) => eb.fn.countAll<string>().as('n')])
        .groupBy('state')
        .execute();
      expect(states.map((s) => [s.state, Number(s.n)])).toEqual([['sent', RECIPIENTS]]);
    });
  }, 400_000);
});
