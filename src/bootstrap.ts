// First start in embedded mode: make `npm install && npm start` immediately usable. Never runs with DATABASE_URL
// (a real server gets no demo users).
//
// Resumable: each step is recorded in first_start_steps when it starts and when it completes. A step runs when it
// has never started and the database does not have that kind of data yet (a data directory made by an older
// server, or filled by hand, is left alone); a step that started but never completed (the process was killed
// half-way) runs again at the next start. Every step is idempotent, so running it again finishes the job.
import type { Deps } from './platform/deps.js';
import type { FirstStartStep } from './platform/feature.js';
import { completeStep, findStep, startStep } from './db/first-start.repository.js';
import { demoSeedStep } from './modules/demo/demo-seed.first-start.js';
import { boundariesStep, populationsStep } from './modules/boundaries/boundaries.loader.js';
import { listingsStep } from './modules/listings/listings.seed.js';
import { demoContactsStep } from './modules/demo/demo-contacts.js';
import { templateLibraryStep } from './modules/templates/templates.library.js';
import { runAsWork } from './lib/work-context.js';

// Listings last: their synthetic agents are linked to the demo users, which must exist by then.
export const firstStartSteps: FirstStartStep[] = [
  boundariesStep,
  populationsStep,
  demoSeedStep,
  demoContactsStep,
  listingsStep,
  templateLibraryStep,
];

export async function prepareEmbedded(deps: Deps, steps: FirstStartStep[] = firstStartSteps): Promise<void> {
  if (!deps.config.embedded) return;
  for (const step of steps) {
    const recorded = await findStep(deps.db, step.name);
    if (recorded?.completed_at) continue;
    if (!recorded) {
      if (!(await step.isNeeded(deps))) {
        await completeStep(deps.db, step.name, deps.clock.now());
        continue;
      }
      await startStep(deps.db, step.name, deps.clock.now());
    } else {
      deps.log.info({ step: step.name }, 'first start: resuming a step that did not complete');
    }
    // The first start takes a while (boundaries, the demo world, listings): say what it is doing, step by step.
    const started = performance.now();
    deps.log.info(`first start: ${step.name}…`);
    await runAsWork({ kind: 'job', name: `first-start.${step.name}` }, () => step.run(deps));
    await completeStep(deps.db, step.name, deps.clock.now());
    deps.log.info(`first start: ${step.name} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}
