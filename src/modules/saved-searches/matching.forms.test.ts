// Match forms stored with the searches (ADR 0034): a job reads a search's compiled WHERE with the row instead of
// compiling it, uses it only while it is current (same engine, search unchanged since), and the stored WHERE of a
// search naming brands or boundaries follows their members and rings as running the search does.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers/app.js';
import { runQueuedJobs } from '../../../test/helpers/jobs.js';
import { addMembership, createBrand, createUser } from '../../../test/helpers/factories.js';
import { prepareBoundary } from '../boundaries/boundaries.model.js';
import { upsertBoundaries } from '../boundaries/boundaries.repository.js';
import { crmUser } from '../../../test/helpers/contacts.js';
import { clientHeaders, sampleListing } from '../../../test/helpers/listings.js';
import { linkAgent, newTag } from '../../../test/helpers/search-fixtures.js';
import { matchFormVersion, refreshMatchForms } from './matching.forms.js';
import { matchEventsTask } from './matching.tasks.js';
import { around, saveSearch } from './matching.test-support.js';

describe('stored match forms', () => {
  const t = useTestApp({ now: new Date('2026-11-21T12:00:00Z') });
  let owner: Awaited<ReturnType<typeof crmUser>>;
  let feed: Record<string, string>;
  const save = (criteria: object) => saveSearch(t.app, owner, criteria);
  /** Ingests the listing (a new event each time: the price changes) and runs the match jobs. */
  let price = 900_000;
  const event = async (mls: string, fields: Record<string, unknown> = {}) => {
    t.clock.advance(60);
    price -= 1000;
    const res = await t.app.inject({
      method: 'POST',
      url: '/mls/FORMS/listings',
      headers: feed,
      payload: [sampleListing(mls, { price, ...fields })],
    });
    expect(res.statusCode, res.body).toBe(200);
    await runQueuedJobs(t.deps, [matchEventsTask.name]);
  };
  const matched = async (search: string) =>
    (await t.deps.db.selectFrom('saved_search_matches').select('event').where('saved_search', '=', search).execute())
      .length;
  /** What running the search now answers: the listing found (true), not found (false), or the run's error status. */
  const runFinds = async (search: string, mls: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/brands/${owner.brand}/saved-searches/${search}/listings?limit=1000`,
      headers: owner.bare,
    });
    if (res.statusCode !== 200) return res.statusCode;
    const listing = await t.deps.db
      .selectFrom('listings')
      .select('id')
      .where('mls_number', '=', mls)
      .executeTakeFirstOrThrow();
    return (res.json().data as { id: string }[]).some((found) => found.id === listing.id);
  };
  const form = (id: string) =>
    t.deps.db
      .selectFrom('saved_searches')
      .select(['match_shape', 'match_values', 'match_version', 'match_for', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    owner = await crmUser(t.deps);
    feed = await clientHeaders(t.deps);
  });

  it('a search written through the API stores its form; a job uses the stored form while it is current, and compiles and stores it again once retired', async () => {
    const id = await save({ points: around(-96.81, 32.81), minimum_bedrooms: 1 });
    const stored = await form(id);
    expect(stored.match_shape).not.toBeNull();
    expect(stored.match_version).toBe(matchFormVersion(t.deps.db));
    expect(stored.match_for).toEqual(stored.updated_at);
    const shape = await t.deps.db
      .selectFrom('saved_search_shapes')
      .select('text')
      .where('id', '=', stored.match_shape!)
      .executeTakeFirstOrThrow();
    expect(shape.text).toContain('"l"."bedroom_count" >=');

    await event('F-1');
    expect(await matched(id)).toBe(1);

    // The job reads the stored values, not the criteria: values that cannot match (a bedroom floor of 1000) decide.
    const values = (stored.match_values as (string | null)[]).map((value) => (value === '1' ? '1000' : value));
    await t.deps.db
      .updateTable('saved_searches')
      .set({ match_values: JSON.stringify(values) })
      .where('id', '=', id)
      .execute();
    await event('F-1');
    expect(await matched(id)).toBe(1);

    // Another engine's form is retired: compiled again from the criteria (matching), then stored.
    await t.deps.db
      .updateTable('saved_searches')
      .set({ match_version: 'an older engine' })
      .where('id', '=', id)
      .execute();
    await event('F-1');
    expect(await matched(id)).toBe(2);
    expect(await form(id)).toEqual(stored);

    // So is a form compiled before the search was last written, whatever wrote it.
    await t.deps.db
      .updateTable('saved_searches')
      .set({ match_values: JSON.stringify(values) })
      .where('id', '=', id)
      .execute();
    await sql`update saved_searches set updated_at = updated_at + interval '1 second' where id = ${id}`.execute(
      t.deps.db,
    );
    await event('F-1');
    expect(await matched(id)).toBe(3);
    const again = await form(id);
    expect(again.match_values).toEqual(stored.match_values);
    expect(again.match_for).toEqual(again.updated_at);
  });

  it('linking contacts keeps the form current; PATCH stores the new one', async () => {
    const id = await save({ points: around(-96.81, 32.81), maximum_price: 2_000_000 });
    const created = await t.app.inject({
      method: 'POST',
      url: '/contacts',
      headers: owner.headers,
      payload: { first_name: 'Form', emails: [`form-${newTag()}@example.com`] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const contact = { id: created.json().data.id as string };
    t.clock.advance(60);
    const link = await t.app.inject({
      method: 'POST',
      url: `/brands/${owner.brand}/saved-searches/${id}/contacts`,
      headers: owner.bare,
      payload: { contacts: [contact.id] },
    });
    expect(link.statusCode, link.body).toBe(200);
    const linked = await form(id);
    expect(linked.match_for).toEqual(linked.updated_at);

    t.clock.advance(60);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/brands/${owner.brand}/saved-searches/${id}`,
      headers: owner.bare,
      payload: { maximum_price: 100_000 },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const patched = await form(id);
    expect(patched.match_for).toEqual(patched.updated_at);
    expect(patched.match_values).toContain('100000');
    await event('F-2');
    expect(await matched(id)).toBe(0);
  });

  it("a stored form follows the brands' members and the boundaries as running the search does", async () => {
    const sub = await createBrand(t.deps, { parent: owner.brand });
    const bySub = await save({ brands: [sub.id] });
    const tag = newTag();
    const square = [
      [-97.2, 32.5],
      [-97.0, 32.5],
      [-97.0, 32.7],
      [-97.2, 32.7],
      [-97.2, 32.5],
    ];
    await upsertBoundaries(t.deps.db, [
      prepareBoundary({
        externalId: `${tag}-f`,
        boundaryType: 'neighborhood',
        title: `Forms ${tag}`,
        country: 'US',
        state: null,
        subtitle: '',
        aliases: [],
        codes: [],
        population: null,
        geometry: { type: 'Polygon', coordinates: [square] },
      }),
    ]);
    const boundary = (
      await t.deps.db
        .selectFrom('boundaries')
        .select('id')
        .where('external_id', '=', `${tag}-f`)
        .executeTakeFirstOrThrow()
    ).id;
    const byBoundary = await save({ boundaries: [boundary] });
    const listing = {
      list_agent_mui: 'AG-FORMS',
      property: {
        ...(sampleListing('x').property as object),
        address: { city: 'Fort Worth', state: 'TX', location: { latitude: 32.6, longitude: -97.1 } },
      },
    };

    await event('F-3', listing);
    expect([await matched(bySub), await runFinds(bySub, 'F-3')]).toEqual([0, false]);
    expect([await matched(byBoundary), await runFinds(byBoundary, 'F-3')]).toEqual([1, true]);

    // The listing's agent joins the sub-brand: the search, stored before, now finds it.
    const member = await createUser(t.deps);
    await addMembership(t.deps, member.id, sub.id);
    await linkAgent(t.deps, member.id, 'AG-FORMS');
    await event('F-3', listing);
    expect([await matched(bySub), await runFinds(bySub, 'F-3')]).toEqual([1, true]);
    expect(await matched(byBoundary)).toBe(2);

    // The boundary's ring moves away from the listing, then the boundary is deleted (a run answers 400).
    const away = [
      [-90.2, 30.5],
      [-90.0, 30.5],
      [-90.0, 30.7],
      [-90.2, 30.7],
      [-90.2, 30.5],
    ];
    await upsertBoundaries(t.deps.db, [
      prepareBoundary({
        externalId: `${tag}-f`,
        boundaryType: 'neighborhood',
        title: `Forms ${tag}`,
        country: 'US',
        state: null,
        subtitle: '',
        aliases: [],
        codes: [],
        population: null,
        geometry: { type: 'Polygon', coordinates: [away] },
      }),
    ]);
    await event('F-3', listing);
    expect([await matched(byBoundary), await runFinds(byBoundary, 'F-3')]).toEqual([2, false]);
    expect(await matched(bySub)).toBe(2);
    await t.deps.db.updateTable('boundaries').set({ deleted_at: t.clock.now() }).where('id', '=', boundary).execute();
    expect(await runFinds(byBoundary, 'F-3')).toBe(400);

    // The sub-brand is deleted: its search no longer runs (the owner's run is a 403, the brand being out of reach),
    // and matches nothing.
    await t.deps.db.updateTable('brands').set({ deleted_at: t.clock.now() }).where('id', '=', sub.id).execute();
    await event('F-3', listing);
    expect([await matched(bySub), await runFinds(bySub, 'F-3')]).toEqual([2, 403]);
    expect(await matched(byBoundary)).toBe(2);
    // Neither form was compiled again: both were stored when the searches were saved.
    expect((await form(bySub)).match_version).toBe(matchFormVersion(t.deps.db));
  });

  it('refreshMatchForms compiles and stores every missing or retired form', async () => {
    const ids = [await save({ agents: ['AG-R1'] }), await save({ agents: ['AG-R2'], open_house: true })];
    await t.deps.db
      .updateTable('saved_searches')
      .set({ match_shape: null, match_values: null, match_version: null, match_for: null })
      .where('id', 'in', ids)
      .execute();
    expect(await refreshMatchForms(t.deps.db)).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect((await form(id)).match_version).toBe(matchFormVersion(t.deps.db));
    expect(await refreshMatchForms(t.deps.db)).toBe(0);
    const timed = await t.deps.db
      .selectFrom('saved_searches as s')
      .innerJoin('saved_search_shapes as x', 'x.id', 's.match_shape')
      .select('x.now_params')
      .where('s.id', '=', ids[1]!)
      .executeTakeFirstOrThrow();
    expect(timed.now_params).toHaveLength(1);
  });
});
