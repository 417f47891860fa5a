// GET /listings/:id: the listing record (spec 2.10, decisions §5) with its formatted attributes.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { bearer, createUser, tokenFor } from '../../../test/helpers/factories.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';

describe('GET /listings/:id', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let user: Record<string, string>;
  let id: string;
  beforeAll(async () => {
    const feed = await clientHeaders(t.deps);
    await t.app.inject({ method: 'POST', url: '/mls/NTREIS/listings', headers: feed, payload: [sampleListing('G-1')] });
    id = (await t.deps.db.selectFrom('listings').select('id').where('mls_number', '=', 'G-1').executeTakeFirstOrThrow())
      .id;
    user = bearer(await tokenFor(t.deps, (await createUser(t.deps)).id));
  });

  it('answers the record', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/listings/${id}`, headers: user });
    expect(res.statusCode).toBe(200);
    const { code, data } = res.json();
    expect(code).toBe('OK');
    expect(data).toMatchObject({
      type: 'listing',
      id,
      property_id: id,
      mls: 'NTREIS',
      mls_number: 'G-1',
      status: 'Active',
      price: 450_000,
      original_price: 475_000,
      last_price: null,
      list_date: Date.parse('2026-10-01T15:00:00Z') / 1000,
      dom: 50,
      cdom: 50,
      currency: 'USD',
      list_agent_mui: 'AG-1',
      co_list_agent_mui: 'AG-2',
      selling_agent_mui: null,
      list_office_mls_id: 'OF-1',
      cover_image_url: 'https://img.example.com/1.jpg',
      open_houses: [
        {
          type: 'open_house',
          start_time: Date.parse('2026-11-28T16:00:00Z') / 1000,
          end_time: Date.parse('2026-11-28T18:00:00Z') / 1000,
          description: 'Saturday tour',
        },
      ],
      deleted_at: null,
    });
    expect(data.property).toMatchObject({
      bedroom_count: 3,
      bathroom_count: 2.5,
      parking_spaces_total: 3,
      pool: true,
      pets: null,
      features: { interior_features: ['Fireplace'] },
      address: {
        street_address: '4521 Maple Ave',
        full_address: '4521 Maple Ave, Dallas, TX 75219',
        location: { longitude: -96.81, latitude: 32.81, type: 'location' },
      },
    });
    expect(data.search_tsv).toBeUndefined();
  });

  it('formats price, beds, baths, areas and year', async () => {
    const { formatted } = (await t.app.inject({ method: 'GET', url: `/listings/${id}`, headers: user })).json().data;
    expect(formatted.price).toEqual({
      type: 'formatted_attribute',
      text: '$450,000',
      text_no_label: '$450,000',
      value: 450_000,
      label: 'Price',
      measurement: 'USD',
    });
    expect(formatted.beds).toMatchObject({ text: '3 Beds', text_no_label: '3', value: 3, label: 'Beds' });
    expect(formatted.baths).toMatchObject({ text: '2.5 Baths', value: 2.5 });
    expect(formatted.square_feet).toMatchObject({ text: '1,850 ft²', value: 1850, measurement: 'ft²' });
    expect(formatted.lot_size).toMatchObject({ text: '6,997 ft² Lot', measurement: 'ft²' });
    expect(formatted.year_built).toMatchObject({ text: 'Built in 1998', value: 1998 });
  });

  it('answers 404 for unknown and deleted listings, 400 for a malformed id, 401 without a token', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/listings/7f1c7a3e-0000-4000-8000-000000000000', headers: user }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/listings/not-a-uuid', headers: user })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/listings/${id}` })).statusCode).toBe(401);
    await sql`update listings set deleted_at = now() where id = ${id}`.execute(t.deps.db);
    const deleted = await t.app.inject({ method: 'GET', url: `/listings/${id}`, headers: user });
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json()).toMatchObject({ code: 'ResourceNotFound' });
  });
});
