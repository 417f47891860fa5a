// What the WordPress plugin reads of a listing — `formatted.street_address` and `formatted.price` (`text`, `value`) —
// is in every place a saved search's listing reaches it: the search routes (POST /brands/:brand/listings, the
// deprecated POST /valerts, GET …/saved-searches/:id/listings), the alert's in-app notification (`subjects`) and
// the alert email, all from the same record.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { AROUND_DALLAS } from '../../../test/helpers/saved-searches.js';

const EXPECTED = {
  street_address: { type: 'formatted_attribute', text: '12 Formatted Ln', value: '12 Formatted Ln' },
  price: { type: 'formatted_attribute', text: '$612,500', value: 612_500 },
};

describe('formatted street address and price in search results and alert payloads', () => {
  const t = useTestApp();
  let owner: Awaited<ReturnType<typeof crmUser>>;
  let search: string;
  let contact: string;
  let listing: string;

  beforeAll(async () => {
    owner = await crmUser(t.deps);
    const created = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: owner.headers,
      payload: { first_name: 'Wren', emails: ['wren@example.com'] },
    });
    expect(created.statusCode, created.body).toBe(200);
    contact = created.json().data.id;
    const saved = await t.app.inject({
      method: 'POST',
      url: `/brands/${owner.brand}/saved-searches`,
      headers: owner.bare,
      payload: { points: AROUND_DALLAS, title: 'Lanes', contacts: [contact], frequency: 'Instant' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    search = saved.json().data.id;
    const record = sampleListing('FMT-1', { price: 612_500 });
    const property = record.property as { address: Record<string, unknown> };
    const ingested = await t.app.inject({
      method: 'POST',
      url: '/mls/FMT/listings',
      headers: await clientHeaders(t.deps),
      payload: [
        {
          ...record,
          property: { ...property, address: { ...property.address, street_number: '12', street_name: 'Formatted Ln' } },
        },
      ],
    });
    expect(ingested.statusCode, ingested.body).toBe(200);
    await runQueuedJobs(t.deps, ['saved-searches.match', 'saved-searches.deliver']);
    listing = (
      await t.deps.db
        .selectFrom('listings')
        .select('id')
        .where('mls', '=', 'FMT')
        .where('mls_number', '=', 'FMT-1')
        .executeTakeFirstOrThrow()
    ).id;
  });

  const found = (res: {
    statusCode: number;
    body: string;
    json: () => { data: { id: string; formatted: unknown }[] };
  }) => {
    expect(res.statusCode, res.body).toBe(200);
    const record = res.json().data.find((r) => r.id === listing);
    expect(record, 'the listing is in the results').toBeDefined();
    return record!.formatted;
  };

  it('search results carry them: the brand search, the plugin’s /valerts and a saved search run', async () => {
    const body = { points: AROUND_DALLAS, limit: 100 };
    expect(
      found(
        await t.app.inject({
          method: 'POST',
          url: `/brands/${owner.brand}/listings`,
          headers: owner.bare,
          payload: body,
        }),
      ),
    ).toMatchObject(EXPECTED);
    expect(
      found(await t.app.inject({ method: 'POST', url: '/valerts', headers: owner.headers, payload: body })),
    ).toMatchObject(EXPECTED);
    expect(
      found(
        await t.app.inject({
          method: 'GET',
          url: `/brands/${owner.brand}/saved-searches/${search}/listings?limit=100`,
          headers: owner.bare,
        }),
      ),
    ).toMatchObject(EXPECTED);
  });

  it('the alert’s notification carries them in its listing record, and its email shows the same text', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/notifications', headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    const alert = (
      res.json().data as { subject: string; notification_type: string; subjects: { formatted: unknown }[] }[]
    ).find((n) => n.subject === listing);
    expect(alert?.notification_type).toBe('ListingBecameAvailableUser');
    expect(alert!.subjects[0]!.formatted).toMatchObject(EXPECTED);

    const mails = await t.deps.db
      .selectFrom('mail_messages')
      .select(['subject', 'html', 'text_body'])
      .where('contact', '=', contact)
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('12 Formatted Ln, Dallas, TX — new for “Lanes”');
    for (const part of [mails[0]!.html!, mails[0]!.text_body!]) {
      expect(part).toContain(EXPECTED.street_address.text);
      expect(part).toContain(EXPECTED.price.text);
    }
  });
});
