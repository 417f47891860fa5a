// The contact's click on a real alert (docs/public-pages.md): an Instant alert is delivered as the server delivers it
// (the .eml file the embedded mail transport writes), and the test follows the links it finds IN that file — to the
// results page (the matching listing, the search's brand), to the listing page (the brand signed), and to the
// preferences page. Tampered, expired, deleted-search, deleted-contact and unlinked tokens answer 4xx pages.
import { readFileSync } from 'node:fs';
import { simpleParser } from 'mailparser';
import { DomUtils, parseDocument } from 'htmlparser2';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { emlPath } from '../../mail/transport.js';
import { setOwnPalette } from '../brands/profile.repository.js';
import { alertToken, readAlertToken } from './alert-token.js';
import { AROUND_DALLAS, createContact, ingestAndRun, saveSearch } from '../../../test/helpers/saved-searches.js';

const PALETTE = { 'button-bg-color': '#0b5cad', 'body-text-color': '#102030' };
const TASKS = ['saved-searches.match', 'saved-searches.deliver', 'mail.send'];
const DAY = 86_400;

type Element = NonNullable<ReturnType<typeof DomUtils.findOne>>;
const hrefs = (body: string) =>
  DomUtils.findAll((el: Element) => el.name === 'a', parseDocument(body).children).map((a) => ({
    href: a.attribs.href!,
    text: DomUtils.textContent(a).trim(),
  }));
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe('alert links: results and listing pages from a delivered alert', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let owner: Awaited<ReturnType<typeof crmUser>>;
  let feed: Record<string, string>;
  let mls = 0;

  const newContact = (firstName: string) => createContact(t.app, owner, firstName);
  const save = (payload: object) => saveSearch(t.app, owner, payload);
  const ingest = (records: unknown[]) =>
    ingestAndRun(t.app, t.deps, { mls: `ALP${mls}`, headers: feed }, records, TASKS);
  /** The contact's alert as the transport wrote it: its links, read from the .eml file. */
  const deliveredAlert = async (contact: string) => {
    const [row, ...more] = await t.deps.db
      .selectFrom('mail_messages')
      .select(['id', 'state'])
      .where('contact', '=', contact)
      .execute();
    expect(more).toEqual([]);
    expect(row!.state).toBe('sent');
    const mail = await simpleParser(readFileSync(emlPath(t.deps.config, row!.id)));
    const links = hrefs(mail.html as string);
    return {
      links,
      seeAll: links.find((link) => link.text.startsWith('See all'))!.href,
      preferences: links.find((link) => link.text === 'Alert preferences')!.href,
      listing: links.find((link) => link.text.startsWith('4521 Maple Ave'))!.href,
      text: mail.text!,
    };
  };
  /** A delivered alert for a new contact and search: the search, the contact and the email's links. */
  const alertFor = async (name: string) => {
    mls++;
    const contact = await newContact(name);
    const search = await save({ title: `${name}'s homes`, contacts: [contact], frequency: 'Instant' });
    await ingest([sampleListing(`A-${mls}`, { list_agent_mui: 'NOBODY' })]);
    return { contact, search, mail: await deliveredAlert(contact) };
  };
  const get = (url: string) => t.app.inject({ method: 'GET', url: pathOf(url) });

  beforeAll(async () => {
    owner = await crmUser(t.deps);
    feed = await clientHeaders(t.deps);
    await setOwnPalette(t.deps.db, owner.brand, PALETTE, t.clock.now());
  });

  it('the email links to the results page, the listing page (brand signed) and the preferences page on WEB_URL', async () => {
    const { search, contact, mail } = await alertFor('Ada');
    expect(mail.seeAll).toMatch(/^http:\/\/gable\.test\/a\/[A-Za-z0-9_-]{71}$/);
    expect(mail.preferences).toBe(`${mail.seeAll}/preferences`);
    expect(mail.text).toContain(mail.seeAll);
    const token = mail.seeAll.split('/a/')[1]!;
    expect(readAlertToken(t.deps.config, token, t.clock.now())).toMatchObject({ state: 'valid', search, contact });

    const results = await get(mail.seeAll);
    expect(results.statusCode, results.body).toBe(200);
    expect(results.headers['content-type']).toMatch(/^text\/html/);
    expect(results.headers['cache-control']).toBe('private, no-store');
    expect(results.headers['content-security-policy']).toContain("default-src 'none'");
    expect(results.body).toContain('<meta name="robots" content="noindex">');
    expect(results.body).toContain('Ada&#39;s homes');
    expect(results.body).toContain('1 home matches now');
    expect(results.body).toContain('$450,000');
    expect(results.body).toContain('--accent:#0b5cad'); // the search's brand palette
    // The card links to the listing page with the brand signed, as the email does.
    const cardLink = hrefs(results.body).find((link) => link.text.startsWith('4521 Maple Ave'))!.href;
    expect(cardLink).toBe(mail.listing);

    expect(mail.listing).toMatch(/^http:\/\/gable\.test\/l\/[0-9a-f-]{36}\?b=[0-9a-f-]{36}\.[0-9a-f]{32}$/);
    expect(new URL(mail.listing).searchParams.get('b')!.split('.')[0]).toBe(owner.brand);
    const listing = await get(mail.listing);
    expect(listing.statusCode).toBe(200);
    expect(listing.body).toContain('--accent:#0b5cad');
    expect(listing.body).toContain('<h1>4521 Maple Ave</h1>');

    const preferences = await get(mail.preferences);
    expect(preferences.statusCode).toBe(200);
    expect(preferences.body).toContain('Ada&#39;s homes');
  });

  it('pages the results, 24 to a page, publicly displayable listings only', async () => {
    mls++;
    const contact = await newContact('Pia');
    await save({ title: 'Many', contacts: [contact], frequency: 'Never' });
    await ingest([
      ...Array.from({ length: 25 }, (_, i) => sampleListing(`M-${i}`)),
      sampleListing('M-HIDDEN', { office_exclusive: true }),
      sampleListing('M-GONE', { status: 'Withdrawn' }),
    ]);
    const [search] = await t.deps.db.selectFrom('saved_searches').select('id').where('title', '=', 'Many').execute();
    const token = alertToken(
      t.deps.config,
      { search: search!.id, contact },
      new Date(t.clock.now().getTime() + DAY * 1000),
    );
    const first = await t.app.inject({ method: 'GET', url: `/a/${token}` });
    expect(first.statusCode).toBe(200);
    // Every listing of the earlier tests sits in the same area: count this search's total, not only this test's.
    const total = Number(/([0-9,]+) homes match now/.exec(first.body)![1]!.replace(',', ''));
    const displayable = await t.deps.db
      .selectFrom('listings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'Active')
      .where('office_exclusive', '=', false)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(total).toBe(Number(displayable.n));
    expect((first.body.match(/class="result"/g) ?? []).length).toBe(24);
    expect(first.body).toContain(`href="http://gable.test/a/${token}?page=2"`);
    const second = await t.app.inject({ method: 'GET', url: `/a/${token}?page=2` });
    expect((second.body.match(/class="result"/g) ?? []).length).toBe(total - 24);
    expect(second.body).not.toContain('M-HIDDEN');
    const beyond = await t.app.inject({ method: 'GET', url: `/a/${token}?page=9` });
    expect(beyond.statusCode).toBe(200);
    expect(beyond.body).toContain('nothing more to show');
    for (const page of ['0', '-1', 'x', '99999', '1.5'])
      expect((await t.app.inject({ method: 'GET', url: `/a/${token}?page=${page}` })).statusCode).toBe(404);
  });

  it('tampered, expired, deleted-search, deleted-contact and unlinked tokens answer 4xx pages, never 5xx', async () => {
    const { search, contact, mail } = await alertFor('Eve');
    const token = mail.seeAll.split('/a/')[1]!;
    const page = (path: string) => t.app.inject({ method: 'GET', url: path });
    const expectPage = async (path: string, status: number, words: string) => {
      for (const suffix of ['', '/preferences']) {
        const res = await page(`${path}${suffix}`);
        expect(res.statusCode, `${path}${suffix}`).toBe(status);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toContain(words);
      }
    };

    // Tampered: every character position changed in turn would be slow; the signature, the payload and the version.
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    for (const at of [0, 5, 30, 50, 70]) await expectPage(`/a/${flip(token, at)}`, 404, 'This link doesn’t work');
    for (const bad of ['x', 'A'.repeat(71), `${token}A`, '%00', 'A'.repeat(300)])
      expect((await page(`/a/${bad}`)).statusCode, bad).toBe(404);
    // A token signed under another key (a key since dropped) is not ours.
    const foreign = alertToken(
      { secretKey: Buffer.alloc(32, 7), previousSecretKeys: [] },
      { search, contact },
      new Date('2030-01-01T00:00:00Z'),
    );
    await expectPage(`/a/${foreign}`, 404, 'This link doesn’t work');

    // Expired: ALERT_LINK_TTL_DAYS (90 by default) later. The page still wears the brand.
    t.clock.advance(90 * DAY + 1);
    await expectPage(`/a/${token}`, 410, 'This link has expired');
    expect((await page(`/a/${token}`)).body).toContain('--accent:#0b5cad');
    t.clock.advance(-(90 * DAY + 1));
    await expectPage(`/a/${token}`, 200, 'Eve&#39;s homes');

    // Unlinked, then a deleted search, then a deleted contact (each on its own pair).
    const unlink = await t.app.inject({
      method: 'DELETE',
      url: `/brands/${owner.brand}/saved-searches/${search}/contacts/${contact}`,
      headers: owner.bare,
    });
    expect(unlink.statusCode, unlink.body).toBe(204);
    await expectPage(`/a/${token}`, 404, 'This alert is no longer available');

    const deleted = await alertFor('Dan');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/brands/${owner.brand}/saved-searches/${deleted.search}`,
      headers: owner.bare,
    });
    expect(del.statusCode, del.body).toBe(204);
    await expectPage(pathOf(deleted.mail.seeAll), 404, 'This alert is no longer available');

    const gone = await alertFor('Gus');
    const delContact = await t.app.inject({
      method: 'DELETE',
      url: `/contacts/${gone.contact}`,
      headers: owner.headers,
    });
    expect(delContact.statusCode, delContact.body).toBeLessThan(300);
    await expectPage(pathOf(gone.mail.seeAll), 404, 'This alert is no longer available');

    // A token of ours for a search that is not stored (hard-deleted): no longer available.
    const never = alertToken(
      t.deps.config,
      { search: '00000000-0000-4000-8000-000000000000', contact },
      new Date('2030-01-01'),
    );
    await expectPage(`/a/${never}`, 404, 'This alert is no longer available');
  });
});

describe('alert links with ALERT_URL and LISTING_URL set', () => {
  const t = useTestApp({
    now: new Date('2026-11-21T12:00:00Z'),
    env: {
      LISTING_URL: 'https://homes.example.com/listing/{mls}/{mls_number}',
      ALERT_URL: 'https://homes.example.com/alerts?t={token}&s={search}&c={contact}&b={brand}',
      ALERT_LINK_TTL_DAYS: '7',
    },
  });

  it('links the brokerage’s own pages, the token lasting ALERT_LINK_TTL_DAYS', async () => {
    const owner = await crmUser(t.deps);
    const feed = await clientHeaders(t.deps);
    const contact = (
      await t.app.inject({
        method: 'POST',
        url: '/contacts',
        headers: owner.headers,
        payload: { first_name: 'Bo', emails: ['bo@example.com'] },
      })
    ).json().data.id as string;
    const saved = await t.app.inject({
      method: 'POST',
      url: `/brands/${owner.brand}/saved-searches`,
      headers: owner.bare,
      payload: { points: AROUND_DALLAS, contacts: [contact], frequency: 'Instant' },
    });
    const search = saved.json().data.id as string;
    await t.app.inject({ method: 'POST', url: '/mls/OWN/listings', headers: feed, payload: [sampleListing('O-1')] });
    await runQueuedJobs(t.deps, TASKS);
    const [row] = await t.deps.db.selectFrom('mail_messages').select('id').where('contact', '=', contact).execute();
    const mail = await simpleParser(readFileSync(emlPath(t.deps.config, row!.id)));
    const links = hrefs(mail.html as string);
    expect(links.find((link) => link.text.startsWith('4521 Maple Ave'))!.href).toBe(
      'https://homes.example.com/listing/OWN/O-1',
    );
    const seeAll = new URL(links.find((link) => link.text.startsWith('See all'))!.href);
    expect(seeAll.origin + seeAll.pathname).toBe('https://homes.example.com/alerts');
    expect(seeAll.searchParams.get('s')).toBe(search);
    expect(seeAll.searchParams.get('c')).toBe(contact);
    expect(seeAll.searchParams.get('b')).toBe(owner.brand);
    const read = readAlertToken(t.deps.config, seeAll.searchParams.get('t'), t.clock.now());
    expect(read).toMatchObject({ state: 'valid', search, contact });
    expect(read.state === 'valid' && read.expiresAt.getTime() - t.clock.now().getTime()).toBe(7 * DAY * 1000);
    // The token the brokerage's page received also opens Gable's results page.
    expect((await t.app.inject({ method: 'GET', url: `/a/${seeAll.searchParams.get('t')}` })).statusCode).toBe(200);
  });
});
