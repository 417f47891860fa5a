// Tracking and one-click unsubscribe of campaigns, each counter moved by its real cause: the open pixel fetched,
// a rewritten link followed, the RFC 8058 POST a mail client sends, and the signed delivery-event feed. The attacks:
// forged or altered links are refused (never an open redirect), unsigned or stale feeds are refused.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSmtpSink, type ReceivedMail } from '../../../test/fakes/smtp.js';
import { useTestApp } from '../../../test/helpers/app.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { eventsKey, signEvents } from '../../mail/events-feed.js';
import { createContact, marketer, postCampaign, to } from '../../../test/helpers/emails.js';

const smtp = useSmtpSink();
const t = useTestApp({ env: smtp.env });
let m: Awaited<ReturnType<typeof marketer>>;
const contacts: Record<string, string> = {};

beforeAll(async () => {
  m = await marketer(t.deps);
  contacts.ann = await createContact(t.app, m.headers, { first_name: 'Ann', email: 'ann@example.com', tags: ['news'] });
  contacts.bob = await createContact(t.app, m.headers, { first_name: 'Bob', email: 'bob@example.com', tags: ['news'] });
});

const sendAll = () => runQueuedJobs(t.deps, ['emails.execute', 'mail.send']);
const receivedBy = (address: string) =>
  smtp.sink.received.filter((r) => r.envelope.to.some((a) => a.toLowerCase() === address.toLowerCase()));
const record = async (id: string) =>
  (await t.app.inject({ method: 'GET', url: `/emails/${id}`, headers: m.bare })).json().data;
/** Path and query of an absolute link of this server (the app is reached through inject). */
const local = (link: string) => {
  const url = new URL(link);
  expect(url.origin).toBe('http://gable.test');
  return url.pathname + url.search;
};
const hrefs = (mail: ReceivedMail) =>
  [...String(mail.parsed.html).matchAll(/href="([^"]*)"/g)].map((h) => h[1]!.replace(/&amp;/g, '&'));
const pixelOf = (mail: ReceivedMail) => /<img src="([^"]*\/mail\/open\/[^"]*)"/.exec(String(mail.parsed.html))![1]!;
/** A header as written on the wire (mailparser turns List-* headers into objects), unfolded. */
const rawHeader = (mail: ReceivedMail, name: string) => {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return head
    .split(/\r?\n/)
    .find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
    ?.slice(name.length + 1)
    .trim();
};
const unsubscribeLinkOf = (mail: ReceivedMail) =>
  /<(https?:[^>]+)>/.exec(rawHeader(mail, 'List-Unsubscribe') ?? '')![1]!;

async function sendIndividual(
  recipients: object[],
  html = '<p>Hi</p><a href="https://listings.example/home?id=7&amp;ref=mail">See</a> <a href="mailto:agent@example.com">Mail me</a>',
) {
  const created = await postCampaign(t.app, m.headers, { subject: 'News', html, individual: true, to: recipients });
  expect(created.statusCode, created.body).toBe(200);
  await sendAll();
  return created.json().data.id as string;
}

describe('what a tracked message carries', () => {
  it('rewrites web links through signed redirects, adds the open pixel and the one-click unsubscribe headers', async () => {
    await sendIndividual([{ recipient_type: 'Contact', contact: contacts.ann }]);
    const [mail] = receivedBy('ann@example.com').slice(-1);
    const links = hrefs(mail!);
    expect(links[0]).toMatch(
      /^http:\/\/gable\.test\/mail\/click\/[0-9a-f-]{36}\.[\w-]+\?url=https%3A%2F%2Flistings\.example%2Fhome%3Fid%3D7%26ref%3Dmail$/,
    );
    expect(links[1]).toBe('mailto:agent@example.com');
    expect(pixelOf(mail!)).toMatch(/^http:\/\/gable\.test\/mail\/open\//);
    expect(mail!.parsed.text).toContain('https://listings.example/home?id=7&ref=mail');
    const header = rawHeader(mail!, 'List-Unsubscribe');
    expect(header).toMatch(
      /^<http:\/\/gable\.test\/mail\/unsubscribe\/[0-9a-f-]{36}\.[\w-]+>, <mailto:[^>]+\?subject=unsubscribe>$/,
    );
    expect(rawHeader(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('a message to several recipients carries only the mailto form (a link could not tell who asked)', async () => {
    const created = await postCampaign(t.app, m.headers, {
      subject: 'All',
      html: '<p>x</p>',
      to: [to('one@example.com'), to('two@example.com')],
    });
    expect(created.statusCode).toBe(200);
    await sendAll();
    const [mail] = receivedBy('one@example.com');
    expect(rawHeader(mail!, 'List-Unsubscribe')).toMatch(/^<mailto:[^>]+\?subject=unsubscribe>$/);
    expect(rawHeader(mail!, 'List-Unsubscribe-Post')).toBeUndefined();
  });
});

describe('opens and clicks', () => {
  it('count unique recipients, not hits', async () => {
    const id = await sendIndividual([{ recipient_type: 'Tag', tag: 'news' }]);
    const ann = receivedBy('ann@example.com').slice(-1)[0]!;
    const bob = receivedBy('bob@example.com').slice(-1)[0]!;
    for (let i = 0; i < 2; i++) {
      const pixel = await t.app.inject({ method: 'GET', url: local(pixelOf(ann)) });
      expect(pixel.statusCode).toBe(200);
      expect(pixel.headers['content-type']).toBe('image/gif');
      expect(pixel.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
    }
    const click = await t.app.inject({ method: 'GET', url: local(hrefs(bob)[0]!) });
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://listings.example/home?id=7&ref=mail');
    await t.app.inject({ method: 'GET', url: local(hrefs(bob)[0]!) });
    expect(await record(id)).toMatchObject({ opened: 1, clicked: 1, unsubscribed: 0, sent: 2 });
  });

  it('a forged or altered link is refused and counts nothing — never an open redirect', async () => {
    const id = await sendIndividual([{ recipient_type: 'Contact', contact: contacts.bob }]);
    const bob = receivedBy('bob@example.com').slice(-1)[0]!;
    const link = new URL(hrefs(bob)[0]!);
    const [, , , token] = link.pathname.split('/');
    const [message, signature] = token!.split('.');
    const attempts = [
      `/mail/click/${token}?url=${encodeURIComponent('https://evil.example/phish')}`,
      `/mail/click/${token}?url=${encodeURIComponent('https://listings.example/home?id=8&ref=mail')}`,
      `/mail/click/${randomUUID()}.${signature}${link.search}`,
      `/mail/click/${message}.${signature!.slice(0, -2)}AA${link.search}`,
      `/mail/click/${message}${link.search}`,
      `/mail/click/${token}?url=${encodeURIComponent('javascript:alert(1)')}`,
      `/mail/click/${token}`,
      `/mail/open/${message}.${signature}`,
      `/mail/open/${randomUUID()}.AAAAAAAAAAAAAAAAAAAAAA`,
    ];
    for (const url of attempts) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers.location, url).toBeUndefined();
      expect(res.json().code).toMatch(/BadRequest|Validation/);
    }
    expect(await record(id)).toMatchObject({ opened: 0, clicked: 0 });
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  it('the GET page asks; the POST a mail client sends unsubscribes the contact, once, and later campaigns skip it', async () => {
    const carol = await createContact(t.app, m.headers, {
      first_name: 'Carol',
      email: 'Carol@Example.com',
      tags: ['later'],
    });
    const id = await sendIndividual([{ recipient_type: 'Contact', contact: carol }]);
    const mail = receivedBy('Carol@Example.com').slice(-1)[0]!;
    const link = local(unsubscribeLinkOf(mail));

    const page = await t.app.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('carol@example.com');
    expect(page.body).toContain('<form method="post">');
    const contact = async () =>
      (await t.app.inject({ method: 'GET', url: `/contacts/${carol}`, headers: m.bare })).json().data;
    expect((await contact()).unsubscribed).toBe(false);

    for (let i = 0; i < 2; i++) {
      const done = await t.app.inject({
        method: 'POST',
        url: link,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('Unsubscribed');
    }
    expect((await contact()).unsubscribed).toBe(true);
    expect(await record(id)).toMatchObject({ unsubscribed: 1 });

    const before = receivedBy('Carol@Example.com').length;
    await sendIndividual([{ recipient_type: 'Tag', tag: 'later' }, to('carol@example.com')]);
    expect(receivedBy('Carol@Example.com').length).toBe(before);
  });

  it('an address that is no contact is remembered for the brand, and only for that brand', async () => {
    await sendIndividual([to('walkin@example.com')]);
    const mail = receivedBy('walkin@example.com').slice(-1)[0]!;
    const done = await t.app.inject({
      method: 'POST',
      url: local(unsubscribeLinkOf(mail)),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    const before = receivedBy('walkin@example.com').length;
    await sendIndividual([to('WALKIN@example.com'), to('other@example.com')]);
    expect(receivedBy('walkin@example.com').length).toBe(before);
    expect(receivedBy('other@example.com').length).toBe(1);

    const elsewhere = await marketer(t.deps);
    const created = await postCampaign(t.app, elsewhere.headers, {
      subject: 'Other brand',
      html: 'x',
      individual: true,
      to: [to('walkin@example.com')],
    });
    expect(created.statusCode).toBe(200);
    await sendAll();
    expect(receivedBy('walkin@example.com').length).toBe(before + 1);
  });

  it('a tampered unsubscribe link unsubscribes no one', async () => {
    await sendIndividual([{ recipient_type: 'Contact', contact: contacts.bob }]);
    const link = unsubscribeLinkOf(receivedBy('bob@example.com').slice(-1)[0]!);
    const tampered = local(link).replace(/\.([\w-])/, (_all, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    const res = await t.app.inject({
      method: 'POST',
      url: tampered,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(400);
    const bob = (await t.app.inject({ method: 'GET', url: `/contacts/${contacts.bob}`, headers: m.bare })).json().data;
    expect(bob.unsubscribed).toBe(false);
  });
});

describe('POST /emails/events', () => {
  const post = (body: unknown, options: { at?: number; key?: Buffer; id?: string } = {}) => {
    const payload = JSON.stringify(body);
    const id = options.id ?? `msg_${randomUUID()}`;
    const at = options.at ?? Math.floor(t.clock.now().getTime() / 1000);
    const signature = signEvents(options.key ?? eventsKey(t.deps.config.secretKey), id, at, payload);
    return t.app.inject({
      method: 'POST',
      url: '/emails/events',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(at),
        'webhook-signature': signature,
      },
      payload,
    });
  };

  it('moves delivered, failed and complained once per recipient, keyed by Message-ID', async () => {
    const id = await sendIndividual([{ recipient_type: 'Tag', tag: 'news' }]);
    const ann = receivedBy('ann@example.com').slice(-1)[0]!.parsed.messageId!;
    const bob = receivedBy('bob@example.com').slice(-1)[0]!.parsed.messageId!;
    const events = [
      { type: 'delivered', message_id: ann },
      {
        type: 'delivered',
        message_id: bob.replace(/[<>]/g, ''),
        recipient: 'bob@example.com',
        occurred_at: 1764000000,
      },
      { type: 'complained', message_id: ann },
      { type: 'bounced', message_id: bob, reason: '550 5.1.1 no such user' },
      { type: 'delivered', message_id: '<someone-else@elsewhere.example>' },
    ];
    const first = await post({ events });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ recorded: 4, duplicates: 0, unknown: 1 });
    const again = await post({ events });
    expect(again.json().data).toEqual({ recorded: 0, duplicates: 4, unknown: 1 });
    expect(await record(id)).toMatchObject({ delivered: 2, failed: 1, complained: 1 });
  });

  it('refuses unsigned, wrongly signed, altered and stale requests, and records nothing', async () => {
    const id = await sendIndividual([{ recipient_type: 'Contact', contact: contacts.ann }]);
    const messageId = receivedBy('ann@example.com').slice(-1)[0]!.parsed.messageId!;
    const body = { events: [{ type: 'delivered', message_id: messageId }] };
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/emails/events',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(unsigned.statusCode).toBe(403);
    expect((await post(body, { key: Buffer.alloc(32, 7) })).statusCode).toBe(403);
    expect((await post(body, { at: Math.floor(t.clock.now().getTime() / 1000) - 3600 })).statusCode).toBe(403);
    const signed = JSON.stringify(body);
    const at = Math.floor(t.clock.now().getTime() / 1000);
    const altered = await t.app.inject({
      method: 'POST',
      url: '/emails/events',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'x',
        'webhook-timestamp': String(at),
        'webhook-signature': signEvents(eventsKey(t.deps.config.secretKey), 'x', at, signed),
      },
      payload: signed.replace('delivered', 'complained'),
    });
    expect(altered.statusCode).toBe(403);
    expect(altered.json().code).toBe('AccessForbidden');
    expect((await post({ events: [{ type: 'opened', message_id: messageId }] })).statusCode).toBe(400);
    expect((await post({ events: [] })).statusCode).toBe(400);
    expect(await record(id)).toMatchObject({ delivered: 0, complained: 0, failed: 0 });
  });
});
