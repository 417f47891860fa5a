// The "Ask about this home" form of the public listing page (docs/public-pages.md): offered only when the page's
// brand has a lead channel; a post creates the lead exactly as the channel's webhook does (same contact, same
// ContactLeadCaptured activity); every refused post — no or forged or expired token, a bot, a bad email, a flood from
// one address, an oversized body — answers a page, never a 5xx, and writes nothing.
import { parseDocument, DomUtils } from 'htmlparser2';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { createBrand } from '../../../test/helpers/factories.js';
import { formTokenOf, leadFormWorld, type LeadFormWorld } from '../../../test/helpers/lead-form.js';
import { signedBrandParameter } from './index.js';
import { signFormToken, verifyFormToken, FORM_LIFETIME_SECONDS } from './lead-form.token.js';
import { ASK_FORM_POLICY, MIN_FILL_SECONDS } from './lead-form.service.js';

type Element = NonNullable<ReturnType<typeof DomUtils.findOne>>;
const find = (body: string, test: (el: Element) => boolean) => DomUtils.findOne(test, parseDocument(body).children);
const findAll = (body: string, test: (el: Element) => boolean) => DomUtils.findAll(test, parseDocument(body).children);
const text = (el: Element | null) => (el ? DomUtils.textContent(el).replace(/\s+/g, ' ').trim() : '');

describe('the "Ask about this home" form', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let world: LeadFormWorld;
  let ipCount = 0;
  /** Each post from its own address unless a test says otherwise: the per-IP limit is a test of its own. */
  const nextIp = () => `198.51.100.${++ipCount}`;

  beforeAll(async () => {
    world = await leadFormWorld(t.deps, t.app);
  });
  beforeEach(() => {
    t.clock.set(new Date('2026-11-21T12:00:00Z'));
  });

  const page = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/l/${world.listing}${query}` });
    expect(res.statusCode).toBe(200);
    return res;
  };
  const post = (fields: Record<string, string>, options: { ip?: string; listing?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/l/${options.listing ?? world.listing}/ask`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
      remoteAddress: options.ip ?? nextIp(),
    });
  /** A filled form of a page fetched now, sent `after` seconds later. */
  const filled = async (fields: Record<string, string> = {}, after = MIN_FILL_SECONDS + 2) => {
    const token = formTokenOf((await page()).body);
    t.clock.advance(after);
    return {
      token,
      name: 'Lena Lead',
      email: 'lena@example.com',
      phone: '',
      message: 'I’d like to know more.',
      website: '',
      ...fields,
    };
  };
  /** What a post may write: contacts, activities, the channel's capture count, outbox events. */
  const writes = async () => {
    const count = async (table: 'contacts' | 'contact_activities' | 'domain_events') =>
      Number(
        (
          await t.deps.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const channel = await t.deps.db
      .selectFrom('lead_channels')
      .select('capture_count')
      .where('id', '=', world.channel)
      .executeTakeFirstOrThrow();
    return {
      contacts: await count('contacts'),
      activities: await count('contact_activities'),
      events: await count('domain_events'),
      captures: channel.capture_count,
    };
  };
  const contactByEmail = async (email: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/contacts?q=${encodeURIComponent(email)}`,
      headers: world.dana.headers,
    });
    return (res.json().data as { id: string; emails: string[] }[]).find((c) => c.emails.includes(email));
  };
  const timelineOf = async (contact: string) =>
    (await t.app.inject({ method: 'GET', url: `/contacts/${contact}/timeline`, headers: world.dana.headers })).json()
      .data as {
      action: string;
      lead: Record<string, unknown>;
      listing: Record<string, unknown> | null;
      created_by: string;
    }[];

  it('is offered on the page of a brand with a lead channel: labelled fields, a hidden trap, posting to itself', async () => {
    const res = await page();
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    const form = find(res.body, (el) => el.name === 'form');
    expect(form?.attribs).toMatchObject({ method: 'post', action: `/l/${world.listing}/ask` });
    for (const name of ['name', 'email', 'phone', 'message']) {
      const control = find(
        res.body,
        (el) => (el.name === 'input' || el.name === 'textarea') && el.attribs.name === name,
      );
      const label = find(res.body, (el) => el.name === 'label' && el.attribs.for === control?.attribs.id);
      expect(text(label), name).toBeTruthy();
    }
    expect(text(find(res.body, (el) => el.name === 'textarea'))).toBe(
      'I’d like to know more about 4521 Maple Ave, Dallas, TX 75219.',
    );
    const trap = find(res.body, (el) => el.name === 'input' && el.attribs.name === 'website');
    expect(trap?.attribs).toMatchObject({ tabindex: '-1', autocomplete: 'off', value: '' });
    expect((trap?.parent as Element).attribs).toMatchObject({ class: 'hp', 'aria-hidden': 'true' });
    expect(verifyFormToken(t.deps.config, world.listing, formTokenOf(res.body), t.clock.now())).toMatchObject({
      ok: true,
      brand: world.office,
    });
  });

  it('is not offered where no brand would receive the lead: a brand without a channel, or the neutral page', async () => {
    const bare = (await createBrand(t.deps, { name: 'No Channel Realty' })).id;
    const signed = await page(`?b=${signedBrandParameter(t.deps.config, world.listing, bare)}`);
    expect(signed.body).toContain('No Channel Realty');
    expect(find(signed.body, (el) => el.name === 'form')).toBeNull();
    await t.deps.db
      .insertInto('listings')
      .values({ mls: 'NTREIS', mls_number: 'LF-NOBODY', status: 'Active' } as never)
      .execute();
    const other = await t.deps.db
      .selectFrom('listings')
      .select('id')
      .where('mls_number', '=', 'LF-NOBODY')
      .executeTakeFirstOrThrow();
    const neutral = await t.app.inject({ method: 'GET', url: `/l/${other.id}` });
    expect(neutral.statusCode).toBe(200);
    expect(find(neutral.body, (el) => el.name === 'form')).toBeNull();
  });

  it('lands on the agent’s contact timeline with the same activity the channel webhook records', async () => {
    const before = await writes();
    const script = '<script>alert(1)</script><b>hi</b> & "you"';
    const res = await post(
      await filled({ name: 'Mary Ann Smith', email: 'mary@example.com', phone: '(214) 555-0199', message: script }),
    );
    expect(res.statusCode, res.body).toBe(303);
    const thanksUrl = `/l/${world.listing}/ask/thanks?b=${signedBrandParameter(t.deps.config, world.listing, world.office)}`;
    expect(res.headers.location).toBe(thanksUrl);

    const thanks = await t.app.inject({ method: 'GET', url: thanksUrl });
    expect(thanks.statusCode).toBe(200);
    expect(text(find(thanks.body, (el) => el.name === 'h1'))).toBe('Thanks, Dana Reyes will be in touch');
    expect(thanks.body).toContain('--accent:#0b5cad'); // the office's style
    expect(thanks.headers['cache-control']).toBe('no-store');

    const contact = await contactByEmail('mary@example.com');
    expect(contact).toMatchObject({ first_name: 'Mary Ann', last_name: 'Smith', phone_numbers: ['+12145550199'] });
    const [activity] = await timelineOf(contact!.id);
    // The message is stored as the text it is: not markup, not escaped.
    expect(activity?.lead.note).toBe(script);

    // The same person through the channel's own webhook: the same kind of activity, with the same attachments.
    const viaWebhook = await t.app.inject({
      method: 'POST',
      url: `/leads/channels/${world.channel}/webhook`,
      payload: {
        first_name: 'Web',
        last_name: 'Hook',
        email: 'webhook@example.com',
        note: 'Hello',
        lead_source: 'Listing page',
        listing: { id: world.listing },
      },
      remoteAddress: nextIp(),
    });
    expect(viaWebhook.statusCode).toBe(204);
    const [hooked] = await timelineOf((await contactByEmail('webhook@example.com'))!.id);
    expect(activity).toMatchObject({
      action: 'ContactLeadCaptured',
      created_by: world.dana.id,
      listing: hooked!.listing,
      lead: { lead_channel: world.channel, lead_source: 'Listing page', email: 'mary@example.com' },
    });
    expect(hooked?.listing).toMatchObject({ id: world.listing, mls_number: 'LF-1' });
    expect(Object.keys(activity!.lead).sort()).toEqual(
      [...Object.keys(hooked!.lead), 'phone_number', 'referer_url'].sort(),
    );
    const after = await writes();
    expect(after.captures - before.captures).toBe(2);
    expect(after.contacts - before.contacts).toBe(2);

    // A second question from the same person joins the same contact (the webhook's dedupe).
    expect((await post(await filled({ email: 'MARY@example.com', message: 'Again' }))).statusCode).toBe(303);
    expect((await writes()).contacts).toBe(after.contacts);
    expect((await timelineOf(contact!.id)).map((a) => a.lead.note)).toEqual(['Again', script]);
  });

  describe('refused posts write nothing', () => {
    const refusedWith = async (
      status: number,
      send: () => Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>,
    ) => {
      const before = await writes();
      const res = await send();
      expect(res.statusCode, res.body).toBe(status);
      if (status !== 303) {
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body.startsWith('<!doctype html>')).toBe(true);
      }
      expect(await writes()).toEqual(before);
      return res;
    };

    it('a post without the token, with a forged one, one of another listing or brand, or an expired one: 403', async () => {
      const good = await filled();
      const [brand, issued, signature] = good.token.split('.');
      const other = (await createBrand(t.deps)).id;
      const forged = [
        '',
        'nonsense',
        `${brand}.${issued}.${'0'.repeat(32)}`,
        `${other}.${issued}.${signature}`,
        `${brand}.${Number(issued) - 1}.${signature}`,
        signFormToken(t.deps.config, '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e', brand!, new Date(Number(issued) * 1000)),
      ];
      for (const token of forged) {
        const res = await refusedWith(403, () => post({ ...good, token }));
        expect(text(find(res.body, (el) => el.name === 'h1'))).toBe('This form could not be sent');
      }
      const { token: _omitted, ...withoutToken } = good;
      await refusedWith(403, () => post(withoutToken));
      t.clock.advance(FORM_LIFETIME_SECONDS);
      const expired = await refusedWith(403, () => post(good));
      expect(text(find(expired.body, (el) => el.name === 'h1'))).toBe('This form has expired');
    });

    it('a bot: the honeypot filled, or sent sooner than a person could: the thanks page all the same', async () => {
      const honeypot = await refusedWith(303, async () => post(await filled({ website: 'https://spam.example' })));
      const tooFast = await refusedWith(303, async () => post(await filled({}, MIN_FILL_SECONDS - 1)));
      const real = await post(await filled({ email: 'real-person@example.com' }));
      expect(real.statusCode).toBe(303);
      expect(honeypot.headers.location).toBe(real.headers.location);
      expect(tooFast.headers.location).toBe(real.headers.location);
    });

    it('a bad email: the form again, saying what is wrong, with the visitor’s values kept', async () => {
      const message = '<script>alert("x")</script> Is the roof new?';
      const res = await refusedWith(400, async () =>
        post(await filled({ name: 'Ann Example', email: 'not-an-email', phone: '214 555 0123', message })),
      );
      const email = find(res.body, (el) => el.name === 'input' && el.attribs.name === 'email');
      expect(email?.attribs).toMatchObject({ value: 'not-an-email', 'aria-invalid': 'true' });
      expect(text(find(res.body, (el) => el.attribs.id === email?.attribs['aria-describedby']))).toBe(
        'Enter an email address like name@example.com.',
      );
      expect(find(res.body, (el) => el.name === 'input' && el.attribs.name === 'name')?.attribs.value).toBe(
        'Ann Example',
      );
      expect(find(res.body, (el) => el.name === 'input' && el.attribs.name === 'phone')?.attribs.value).toBe(
        '214 555 0123',
      );
      expect(text(find(res.body, (el) => el.name === 'textarea'))).toBe(message);
      // The visitor's script is text on the page, never an element.
      expect(findAll(res.body, (el) => el.name === 'script')).toEqual([]);
      expect(res.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      // The token is kept: the corrected form sends at once.
      const token = find(res.body, (el) => el.name === 'input' && el.attribs.name === 'token')?.attribs.value;
      expect((await post({ token: token!, name: 'Ann Example', email: 'ann@example.com', message })).statusCode).toBe(
        303,
      );
    });

    it('a missing name, a bad phone number, an over-long message: the form again', async () => {
      await refusedWith(400, async () => post(await filled({ name: '  ' })));
      await refusedWith(400, async () => post(await filled({ phone: 'call me maybe' })));
      await refusedWith(400, async () => post(await filled({ message: 'x'.repeat(5001) })));
      await refusedWith(400, async () => post(await filled({ email: '' })));
    });

    it('a 1 MB post: 413 page; a JSON body: 415 page; a listing that is not a uuid or not public: 404 page', async () => {
      const good = await filled();
      const big = await refusedWith(413, () => post({ ...good, message: 'x'.repeat(1024 * 1024) }));
      expect(text(find(big.body, (el) => el.name === 'h1'))).toBe('Your message is too long');
      await refusedWith(415, () =>
        t.app.inject({ method: 'POST', url: `/l/${world.listing}/ask`, payload: good, remoteAddress: nextIp() }),
      );
      await refusedWith(404, () => post(good, { listing: 'not-a-uuid' }));
      await refusedWith(403, () => post(good, { listing: '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e' }));
      await refusedWith(403, () =>
        t.app.inject({ method: 'POST', url: `/l/${world.listing}/ask`, remoteAddress: nextIp() }),
      );
    });

    it('a listing taken off the market since the page was read: 404 page', async () => {
      const listing = await t.deps.db
        .insertInto('listings')
        .values({ mls: 'NTREIS', mls_number: 'LF-GONE', status: 'Active', list_agent_mui: 'AG-1' } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const res = await t.app.inject({ method: 'GET', url: `/l/${listing.id}` });
      const token = formTokenOf(res.body);
      await t.deps.db.updateTable('listings').set({ status: 'Withdrawn' }).where('id', '=', listing.id).execute();
      t.clock.advance(10);
      await refusedWith(404, () => post({ token, name: 'A', email: 'a@example.com' }, { listing: listing.id }));
    });

    it('50 posts from one address in a minute: 429 pages with Retry-After once over the limit', async () => {
      const ip = '203.0.113.50';
      const before = await writes();
      const statuses: number[] = [];
      let retryAfter: unknown;
      const form = await filled(); // one page, sent 50 times within the same second
      for (let i = 0; i < 50; i++) {
        const res = await post({ ...form, email: `flood-${i}@example.com` }, { ip });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          retryAfter = res.headers['retry-after'];
          expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
          expect(text(find(res.body, (el) => el.name === 'h1'))).toBe('Too many messages');
        }
      }
      const limit = ASK_FORM_POLICY.maxFailuresPerHour;
      expect(statuses.slice(0, limit).every((s) => s === 303)).toBe(true);
      expect(statuses.slice(limit).every((s) => s === 429)).toBe(true);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      // Only the posts under the limit wrote their lead.
      expect((await writes()).contacts - before.contacts).toBe(limit);
      expect((await post(await filled({ email: 'other-address@example.com' }))).statusCode).toBe(303);
    });
  });
});

describe('the form token', () => {
  const listing = '6f1c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5e';
  const brand = '0b0c1e0e-4a53-4b8a-9d2b-3c1a2b3c4d5f';
  const at = new Date('2026-11-21T12:00:00Z');
  const oldKey = Buffer.alloc(32, 1);
  const newKey = Buffer.alloc(32, 2);

  it('written before a key rotation still verifies under SECRET_KEY_PREVIOUS; a removed key does not', () => {
    const token = signFormToken({ secretKey: oldKey, previousSecretKeys: [] }, listing, brand, at);
    expect(verifyFormToken({ secretKey: newKey, previousSecretKeys: [oldKey] }, listing, token, at)).toEqual({
      ok: true,
      brand,
      issuedAt: at.getTime() / 1000,
    });
    expect(verifyFormToken({ secretKey: newKey, previousSecretKeys: [] }, listing, token, at)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('from the future (beyond clock skew) is invalid', () => {
    const keys = { secretKey: newKey, previousSecretKeys: [] };
    const token = signFormToken(keys, listing, brand, new Date(at.getTime() + 3600_000));
    expect(verifyFormToken(keys, listing, token, at)).toEqual({ ok: false, reason: 'invalid' });
  });
});
