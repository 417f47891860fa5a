// GET/POST /a/:token/preferences (docs/public-pages.md "Alert preferences"): the contact's searches of the brand, a
// change recorded on their timeline and followed by the next delivery (Instant → Daily: a digest at 08:00, no
// instant email), and every refused post (no CSRF, an unknown frequency, a search not theirs) writes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { runDueDigests } from '../saved-searches/delivery.service.js';
import { alertPreferencesUrl } from './alert-token.js';
import { saveSearch } from '../../../test/helpers/saved-searches.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('alert preferences page', () => {
  // 07:00 in New York (EST)
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let owner: Awaited<ReturnType<typeof crmUser>>;
  let feed: Record<string, string>;

  const save = (payload: object) => saveSearch(t.app, owner, payload);
  const links = (contact: string) =>
    t.deps.db
      .selectFrom('saved_search_contacts')
      .select(['saved_search', 'frequency', 'send_time'])
      .where('contact', '=', contact)
      .orderBy('saved_search')
      .execute();
  const activities = (contact: string) =>
    t.deps.db
      .selectFrom('contact_activities')
      .select(['action', 'notes'])
      .where('contact', '=', contact)
      .where('action', '=', 'ContactChangedAlertFrequency')
      .execute();
  const mailsTo = (contact: string) =>
    t.deps.db.selectFrom('mail_messages').select(['subject']).where('contact', '=', contact).execute();
  const csrfOf = (body: string) => /name="csrf" value="([^"]+)"/.exec(body)![1]!;
  const post = (path: string, form: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: path, headers: FORM, payload: new URLSearchParams(form).toString() });

  beforeAll(async () => {
    owner = await crmUser(t.deps);
    await t.deps.db.updateTable('users').set({ timezone: 'America/New_York' }).where('id', '=', owner.user).execute();
    feed = await clientHeaders(t.deps);
  });

  it('Instant → Daily through the page: recorded on the timeline, and the next listing comes in the 08:00 digest', async () => {
    const contact = (
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: owner.headers,
        payload: { first_name: 'Pat', emails: ['pat@example.com'] },
      })
    ).json().data.id as string;
    const search = await save({ title: 'Dallas homes', contacts: [contact], frequency: 'Instant' });
    const other = await save({
      title: 'Lakewood',
      contacts: [contact],
      frequency: 'Weekly',
      send_weekday: 3,
      send_time: 600,
    });
    const path = new URL(alertPreferencesUrl(t.deps.config, { search, contact }, t.clock.now())).pathname;

    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    expect(page.body).toContain('Dallas homes');
    expect(page.body).toContain('Lakewood');
    expect(page.body).toContain(`name="s.${search}"`);
    expect(page.body).toMatch(new RegExp(`name="s.${other}">.*<option value="Weekly" selected>`, 's'));
    const csrf = csrfOf(page.body);
    const before = await links(contact);

    // Refused posts write nothing: no CSRF, a forged one, an unknown frequency, a search not the contact's, a stray field.
    const stranger = await save({ title: 'Not Pat’s' });
    for (const [form, status] of [
      [{ [`s.${search}`]: 'Daily' }, 400],
      [{ csrf: `${Math.floor(t.clock.now().getTime() / 1000)}.${'0'.repeat(32)}`, [`s.${search}`]: 'Daily' }, 400],
      [{ csrf, [`s.${search}`]: 'Hourly' }, 400],
      [{ csrf, [`s.${search}`]: 'daily' }, 400],
      [{ csrf, [`s.${search}`]: 'Daily', [`s.${stranger}`]: 'Never' }, 400],
      [{ csrf, [`s.${search}`]: 'Daily', admin: '1' }, 400],
      [{ csrf, all: 'Instant' }, 400],
    ] as const) {
      const res = await post(path, form);
      expect(res.statusCode, JSON.stringify(form)).toBe(status);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('Nothing was changed');
    }
    const json = await t.app.inject({ method: 'POST', url: path, payload: { csrf, [`s.${search}`]: 'Daily' } });
    expect(json.statusCode).toBe(415);
    const huge = await post(path, { csrf, [`s.${search}`]: 'Daily', pad: 'x'.repeat(100_000) });
    expect(huge.statusCode).toBe(413);
    expect(await links(contact)).toEqual(before);
    expect(await activities(contact)).toEqual([]);

    // The change: Post/Redirect/Get with "Saved".
    const saved = await post(path, { csrf, [`s.${search}`]: 'Daily', [`s.${other}`]: 'Weekly' });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`http://gable.test${path}?saved=1`);
    const after = await t.app.inject({ method: 'GET', url: `${path}?saved=1` });
    expect(after.body).toContain('Saved.');
    expect(after.body).toMatch(new RegExp(`name="s.${search}">.*<option value="Daily" selected>`, 's'));
    expect((await links(contact)).find((l) => l.saved_search === search)).toMatchObject({
      frequency: 'Daily',
      send_time: 480,
    });
    expect(await activities(contact)).toEqual([
      { action: 'ContactChangedAlertFrequency', notes: 'Daily (was Instant), on the alert preferences page' },
    ]);

    // The next delivery follows it: no instant email for a new listing, the 08:00 New York digest carries it.
    await t.app.inject({ method: 'POST', url: '/mls/PRF/listings', headers: feed, payload: [sampleListing('P-1')] });
    await runQueuedJobs(t.deps, ['saved-searches.match', 'saved-searches.deliver']);
    expect(await mailsTo(contact)).toEqual([]);
    await runDueDigests(t.deps);
    t.clock.advance(60 * 60); // 08:00 New York
    await runDueDigests(t.deps);
    const mails = await mailsTo(contact);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Dallas homes');

    // Unsubscribe from all: every link to Never.
    const again = await t.app.inject({ method: 'GET', url: path });
    const all = await post(path, { csrf: csrfOf(again.body), all: 'Never' });
    expect(all.statusCode).toBe(303);
    expect((await links(contact)).map((l) => l.frequency)).toEqual(['Never', 'Never']);
  });
});
