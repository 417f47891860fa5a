// First-start steps resume after a crash (issue 8, row 6): a step that started and never completed runs again;
// one that never started is skipped when its data is already there.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/helpers/app.js';
import { prepareEmbedded } from './bootstrap.js';
import { startStep } from './db/first-start.repository.js';
import type { Deps } from './platform/deps.js';
import { FIRST_START_LISTINGS, listingsStep, seedListings } from './modules/listings/listings.seed.js';
import { loadBoundaries, populationsStep } from './modules/boundaries/boundaries.loader.js';
import { shippedBoundaries } from './modules/boundaries/boundaries.shipped.js';

describe('first start', () => {
  const t = useTestApp();
  let embedded: Deps;
  beforeAll(async () => {
    embedded = { ...t.deps, config: { ...t.deps.config, embedded: true } };
  });

  const listingCount = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('listings')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('finishes the listing seed that a killed first start left at 1,000 of 3,000', async () => {
    // What SIGKILL during the first start leaves: the step started, its first batch written, nothing recorded after.
    await startStep(t.deps.db, listingsStep.name, t.clock.now());
    await seedListings(t.deps, { count: 1000 });
    expect(await listingCount()).toBe(1000);

    await prepareEmbedded(embedded, [listingsStep]);
    expect(await listingCount()).toBe(FIRST_START_LISTINGS);
    const step = await t.deps.db
      .selectFrom('first_start_steps')
      .selectAll()
      .where('name', '=', listingsStep.name)
      .executeTakeFirstOrThrow();
    expect(step.completed_at).not.toBeNull();

    await prepareEmbedded(embedded, [listingsStep]); // completed: the next start does nothing
    expect(await listingCount()).toBe(FIRST_START_LISTINGS);
  });

  it('skips a step that never started when its data is already there (a data directory filled before)', async () => {
    let ran = false;
    const step = { name: 'already-filled', isNeeded: async () => false, run: async () => void (ran = true) };
    await prepareEmbedded(embedded, [step]);
    expect(ran).toBe(false);
    const row = await t.deps.db
      .selectFrom('first_start_steps')
      .selectAll()
      .where('name', '=', step.name)
      .executeTakeFirstOrThrow();
    expect(row.completed_at).not.toBeNull();
  });

  it('sets the shipped populations on boundaries an older server loaded without them, once', async () => {
    await loadBoundaries(t.deps.db, shippedBoundaries({ countries: false, stateFips: ['01'] })); // no populations
    const population = async (externalId: string) =>
      (
        await t.deps.db
          .selectFrom('boundaries')
          .select('population')
          .where('external_id', '=', externalId)
          .executeTakeFirstOrThrow()
      ).population;
    expect(await population('us-county:01045')).toBeNull();

    await prepareEmbedded(embedded, [populationsStep]);
    expect(Number(await population('us-county:01045'))).toBe(49_172); // Dale County
    expect(Number(await population('us-state:01'))).toBe(4_903_185); // Alabama, the sum of its counties
    expect(
      await t.deps.db
        .selectFrom('first_start_steps')
        .select('completed_at')
        .where('name', '=', populationsStep.name)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      completed_at: expect.any(Date),
    });
  });
});
