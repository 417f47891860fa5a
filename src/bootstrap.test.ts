// First-start steps resume after a crash (issue 8, row 6): a step that started and never completed runs again;
// one that never started is skipped when its data is already there.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/helpers/app.js';
import { prepareEmbedded } from './bootstrap.js';
import { startStep } from './db/first-start.repository.js';
import type { Deps } from './deps.js';
import { FIRST_START_LISTINGS, listingsStep, seedListings } from './modules/listings/listings.seed.js';

describe('first start', () => {
  const t = useTestApp();
  let embedded: Deps;
  beforeAll(async () => {
    embedded = { ...t.deps, config: { ...t.deps.config, embedded: true } };
  });

  const listingCount = async () => Number((await t.deps.db.selectFrom('listings').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('finishes the listing seed that a killed first start left at 1,000 of 3,000', async () => {
    // What SIGKILL during the first start leaves: the step started, its first batch written, nothing recorded after.
    await startStep(t.deps.db, listingsStep.name, t.clock.now());
    await seedListings(t.deps, { count: 1000 });
    expect(await listingCount()).toBe(1000);

    await prepareEmbedded(embedded, [listingsStep]);
    expect(await listingCount()).toBe(FIRST_START_LISTINGS);
    const step = await t.deps.db.selectFrom('first_start_steps').selectAll().where('name', '=', listingsStep.name).executeTakeFirstOrThrow();
    expect(step.completed_at).not.toBeNull();

    await prepareEmbedded(embedded, [listingsStep]); // completed: the next start does nothing
    expect(await listingCount()).toBe(FIRST_START_LISTINGS);
  });

  it('skips a step that never started when its data is already there (a data directory filled before)', async () => {
    let ran = false;
    const step = { name: 'already-filled', isNeeded: async () => false, run: async () => void (ran = true) };
    await prepareEmbedded(embedded, [step]);
    expect(ran).toBe(false);
    const row = await t.deps.db.selectFrom('first_start_steps').selectAll().where('name', '=', step.name).executeTakeFirstOrThrow();
    expect(row.completed_at).not.toBeNull();
  });
});
