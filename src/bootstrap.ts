// First start in embedded mode: make `npm install && npm start` immediately usable. Each step checks what is
// already there, so a restart does nothing. Never runs with DATABASE_URL (a real server gets no demo users).
import type { Deps } from './deps.js';
import { seedDemoOnEmptyDatabase } from './modules/users/demo-seed.first-start.js';
import { seedBoundariesOnFirstStart } from './modules/boundaries/boundaries.loader.js';
import { seedListingsOnFirstStart } from './modules/listings/listings.seed.js';
import { seedDemoContactsOnFirstStart } from './modules/contacts/contacts.demo.js';

export type FirstStartStep = (deps: Deps) => Promise<void>;

// Listings last: their synthetic agents are linked to the demo users, which must exist by then.
export const firstStartSteps: FirstStartStep[] = [seedBoundariesOnFirstStart, seedDemoOnEmptyDatabase, seedDemoContactsOnFirstStart, seedListingsOnFirstStart];

export async function prepareEmbedded(deps: Deps): Promise<void> {
  if (!deps.config.embedded) return;
  for (const step of firstStartSteps) await step(deps);
}
