// `gable alerts preview SEARCH_ID`: the next digest of each linked contact, as the digest job would send it now.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runAdminCommand } from '../../../test/helpers/cli.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { registerAlertCommands } from './alerts.cli.js';
import { runDueDigests } from './delivery.service.js';
import { AROUND_DALLAS } from '../../../test/helpers/saved-searches.js';

describe('gable alerts preview', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let search: string;
  let contact: string;

  beforeAll(async () => {
    const owner = await crmUser(t.deps);
    await t.deps.db.updateTable('users').set({ timezone: 'America/Chicago' }).where('id', '=', owner.user).execute();
    contact = (
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: owner.headers,
        payload: { first_name: 'Pia', emails: ['pia@example.com'] },
      })
    ).json().data.id;
    const saved = await t.app.inject({
      method: 'POST',
      url: `/brands/${owner.brand}/saved-searches`,
      headers: owner.bare,
      payload: {
        title: 'Uptown',
        points: AROUND_DALLAS,
        contacts: [contact],
        frequency: 'Weekly',
        send_weekday: 1,
        send_time: 540,
      },
    });
    search = saved.json().data.id;
    const feed = await clientHeaders(t.deps);
    await t.app.inject({ method: 'POST', url: '/mls/PRV/listings', headers: feed, payload: [sampleListing('P-1')] });
    await runQueuedJobs(t.deps, ['saved-searches.match', 'saved-searches.deliver']);
  });

  it('prints the next digest with its listings, and JSON with --json', async () => {
    const text = await runAdminCommand(registerAlertCommands, t.deps, 'alerts', 'preview', search);
    expect(text.exitCode).toBeUndefined();
    // Monday 2026-11-23 09:00 in Chicago (CST, UTC−6)
    expect(text.out).toContain('pia@example.com');
    expect(text.out).toContain('Weekly digest of 2026-11-23 at 2026-11-23T15:00:00.000Z — 1 listing(s)');
    expect(text.out).toContain('$450,000');
    const json = JSON.parse(
      (await runAdminCommand(registerAlertCommands, t.deps, 'alerts', 'preview', search, '--json')).out,
    );
    expect(json).toMatchObject({
      id: search,
      title: 'Uptown',
      timezone: 'America/Chicago',
      links: [{ contact, frequency: 'Weekly', listings: [{ status: 'Active' }] }],
    });

    // Once the digest ran, nothing is pending until something new matches.
    t.clock.set(new Date('2026-11-23T15:00:00Z'));
    await runDueDigests(t.deps);
    const after = await runAdminCommand(registerAlertCommands, t.deps, 'alerts', 'preview', search);
    expect(after.out).toContain('Weekly digest of 2026-11-30 at 2026-11-30T15:00:00.000Z — nothing new: no email');
  });

  it('refuses a malformed id (2) and reports an unknown one (1)', async () => {
    expect((await runAdminCommand(registerAlertCommands, t.deps, 'alerts', 'preview', 'nope')).exitCode).toBe(2);
    expect(
      (
        await runAdminCommand(
          registerAlertCommands,
          t.deps,
          'alerts',
          'preview',
          '00000000-0000-4000-8000-000000000000',
        )
      ).exitCode,
    ).toBe(1);
  });
});
