// The campaign unsubscribe pages (issue 32 item 4; docs/public-pages.md "Unsubscribe pages"), driven by the
// List-Unsubscribe link of a campaign email the SMTP sink received: a GET shows the brand's page and changes nothing,
// the page's POST (the RFC 8058 one-click a mail client sends, unchanged) unsubscribes, "everything" reaches the
// brand's offices and its listing alerts, and a changed link is a 4xx page that changes nothing.
import { randomUUID } from 'node:crypto';
import { parseDocument, DomUtils } from 'htmlparser2';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSmtpSink, type ReceivedMail } from '../../../test/fakes/smtp.js';
import { useTestApp } from '../../../test/helpers/app.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { createContact, marketer, postCampaign, to } from '../../../test/helpers/emails.js';
import { setOwnPalette } from '../brands/profile.repository.js';
import { linkToken } from '../../mail/tracking.js';
import { AROUND_DALLAS } from '../../../test/helpers/saved-searches.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const smtp = useSmtpSink();
const t = useTestApp({ env: smtp.env });
let brokerage: Awaited<ReturnType<typeof marketer>>;
let office: Awaited<ReturnType<typeof marketer>>;

beforeAll(async () => {
  const root = await createBrand(t.deps, { name: 'Maple & Co Realty' });
  const branch = await createBrand(t.deps, { name: 'Maple Uptown', parent: root.id });
  await setOwnPalette(
    t.deps.db,
    root.id,
    { 'button-bg-color': '#7a1f3d', 'body-text-color': '#102030' },
    t.clock.now(),
  );
  brokerage = await marketer(t.deps, { brand: root.id });
  office = await marketer(t.deps, { brand: branch.id });
});

const receivedBy = (address: string) =>
  smtp.sink.received.filter((r) => r.envelope.to.some((a) => a.toLowerCase() === address.toLowerCase()));
/** The https link of List-Unsubscribe as written on the wire, as a path of this server. */
const unsubscribeLinkOf = (mail: ReceivedMail) => {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const header = head.split(/\r?\n/).find((line) => /^list-unsubscribe:/i.test(line))!;
  const url = new URL(/<(https?:[^>]+)>/.exec(header)![1]!);
  return url.pathname;
};
const parse = (body: string) => parseDocument(body);
const textOf = (body: string) => DomUtils.textContent(parse(body).children).replace(/\s+/g, ' ');
const forms = (body: string) =>
  DomUtils.findAll((el) => el.name === 'form', parse(body).children).map((form) => ({
    method: form.attribs.method,
    action: form.attribs.action,
    fields: Object.fromEntries(
      DomUtils.findAll((el) => el.name === 'input', [form]).map((input) => [input.attribs.name, input.attribs.value]),
    ),
  }));

async function campaignTo(who: typeof brokerage, address: string) {
  const created = await postCampaign(t.app, who.headers, {
    subject: 'Spring market',
    html: '<p>Hi</p>',
    individual: true,
    to: [to(address)],
  });
  expect(created.statusCode, created.body).toBe(200);
  await runQueuedJobs(t.deps, ['emails.execute', 'mail.send']);
  return created.json().data.id as string;
}
async function saveSearch(who: typeof brokerage, contact: string, frequency: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/brands/${who.brand}/saved-searches`,
    headers: who.bare,
    payload: {
      points: AROUND_DALLAS,
      contacts: [contact],
      frequency,
      ...(frequency === 'Daily' ? { send_time: 480 } : {}),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}
const alertFrequencies = async (contacts: string[]) =>
  (
    await t.deps.db
      .selectFrom('saved_search_contacts')
      .select(['contact', 'frequency'])
      .where('contact', 'in', contacts)
      .orderBy('contact')
      .execute()
  ).map((r) => r.frequency);
const isUnsubscribed = async (contact: string) =>
  (await t.deps.db.selectFrom('contacts').select('unsubscribed').where('id', '=', contact).executeTakeFirstOrThrow())
    .unsubscribed;
const rememberedIn = async (address: string) =>
  (await t.deps.db.selectFrom('mail_unsubscribes').select('brand').where('email_key', '=', address).execute())
    .map((r) => r.brand)
    .sort();
const unsubscribedCounter = async (campaign: string) =>
  (await t.app.inject({ method: 'GET', url: `/emails/${campaign}`, headers: brokerage.bare })).json().data
    .unsubscribed as number;

describe('the campaign unsubscribe link', () => {
  it('GET shows the brand’s page and changes nothing; the button unsubscribes; "everything" reaches offices and alerts', async () => {
    const dora = await createContact(t.app, brokerage.headers, { first_name: 'Dora', email: 'Dora@Example.com' });
    const doraAtOffice = await createContact(t.app, office.headers, { first_name: 'Dora', email: 'dora@example.com' });
    await saveSearch(brokerage, dora, 'Instant');
    await saveSearch(office, doraAtOffice, 'Daily');
    const campaign = await campaignTo(brokerage, 'Dora@Example.com');
    const link = unsubscribeLinkOf(receivedBy('dora@example.com').slice(-1)[0]!);
    expect(link).toMatch(/^\/mail\/unsubscribe\/[0-9a-f-]{36}\.[\w-]+$/);

    for (let i = 0; i < 2; i++) {
      const page = await t.app.inject({ method: 'GET', url: link });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toContain("form-action 'self'");
      expect(page.body).toContain('--accent:#7a1f3d');
      expect(textOf(page.body)).toContain('Unsubscribe dora@example.com from Maple & Co Realty’s emails?');
      expect(forms(page.body)).toEqual([
        { method: 'post', action: undefined, fields: { 'List-Unsubscribe': 'One-Click' } },
      ]);
    }
    expect(await isUnsubscribed(dora)).toBe(false);
    expect(await rememberedIn('dora@example.com')).toEqual([]);
    expect(await unsubscribedCounter(campaign)).toBe(0);

    // The page's button sends what a mail client's one-click sends.
    const done = await t.app.inject({
      method: 'POST',
      url: link,
      headers: FORM,
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    expect(textOf(done.body)).toContain('dora@example.com will receive no more marketing email from Maple & Co Realty');
    const [everything] = forms(done.body);
    expect(everything!.method).toBe('post');
    expect(new URL(everything!.action!, `http://gable.test${link}`).pathname).toBe(`${link}/everything`);
    expect(await isUnsubscribed(dora)).toBe(true);
    expect(await isUnsubscribed(doraAtOffice)).toBe(false);
    expect(await rememberedIn('dora@example.com')).toEqual([brokerage.brand]);
    expect(await alertFrequencies([dora, doraAtOffice])).toEqual(
      [dora, doraAtOffice].sort().map((c) => (c === dora ? 'Instant' : 'Daily')),
    );
    expect(await unsubscribedCounter(campaign)).toBe(1);

    const all = await t.app.inject({
      method: 'POST',
      url: `${link}/everything`,
      headers: FORM,
      payload: new URLSearchParams(everything!.fields as Record<string, string>).toString(),
    });
    expect(all.statusCode, all.body).toBe(200);
    expect(textOf(all.body)).toContain('Unsubscribed from everything');
    expect(await isUnsubscribed(doraAtOffice)).toBe(true);
    expect(await rememberedIn('dora@example.com')).toEqual([brokerage.brand, office.brand].sort());
    expect(await alertFrequencies([dora, doraAtOffice])).toEqual(['Never', 'Never']);
    expect(await unsubscribedCounter(campaign)).toBe(1);

    // The office's next campaign to the address skips it.
    const before = receivedBy('dora@example.com').length;
    await campaignTo(office, 'dora@example.com');
    expect(receivedBy('dora@example.com').length).toBe(before);
  });

  it('a mail client’s one-click POST still unsubscribes without any page, and only from the sending brand', async () => {
    const eve = await createContact(t.app, office.headers, { first_name: 'Eve', email: 'eve@example.com' });
    const eveAtBrokerage = await createContact(t.app, brokerage.headers, {
      first_name: 'Eve',
      email: 'eve@example.com',
    });
    await campaignTo(office, 'eve@example.com');
    const link = unsubscribeLinkOf(receivedBy('eve@example.com').slice(-1)[0]!);
    const res = await t.app.inject({ method: 'POST', url: link, headers: FORM, payload: 'List-Unsubscribe=One-Click' });
    expect(res.statusCode).toBe(200);
    expect(await isUnsubscribed(eve)).toBe(true);
    expect(await isUnsubscribed(eveAtBrokerage)).toBe(false);
  });

  it('a changed, incomplete or unknown link is a 4xx page and changes nothing', async () => {
    const finn = await createContact(t.app, brokerage.headers, { first_name: 'Finn', email: 'finn@example.com' });
    await saveSearch(brokerage, finn, 'Instant');
    await campaignTo(brokerage, 'finn@example.com');
    const link = unsubscribeLinkOf(receivedBy('finn@example.com').slice(-1)[0]!);
    const [, , , token] = link.split('/');
    const [message, signature] = token!.split('.');
    const flipped = `${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`;
    const refused = [
      { url: `/mail/unsubscribe/${message}.${flipped}`, status: 400 },
      { url: `/mail/unsubscribe/${randomUUID()}.${signature}`, status: 400 },
      { url: `/mail/unsubscribe/${message}`, status: 400 },
      // Signed right, but for a message the ledger does not hold.
      { url: `/mail/unsubscribe/${linkToken(t.deps.config.secretKey, 'unsubscribe', randomUUID())}`, status: 404 },
    ];
    for (const { url, status } of refused) {
      for (const [method, path] of [
        ['GET', url],
        ['POST', url],
        ['POST', `${url}/everything`],
      ] as const) {
        const res = await t.app.inject({ method, url: path, headers: FORM, payload: 'List-Unsubscribe=One-Click' });
        expect(res.statusCode, `${method} ${path}`).toBe(status);
        expect(res.headers['content-type'], path).toBe('text/html; charset=utf-8');
        expect(textOf(res.body), path).toMatch(status === 404 ? /This link has expired/ : /This link is not valid/);
      }
    }
    expect(await isUnsubscribed(finn)).toBe(false);
    expect(await rememberedIn('finn@example.com')).toEqual([]);
    expect(await alertFrequencies([finn])).toEqual(['Instant']);
  });
});
