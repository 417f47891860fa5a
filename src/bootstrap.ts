// First start in embedded mode: make `npm install && npm start` immediately usable. Each step checks what is
// already there, so a restart does nothing. Never runs with DATABASE_URL (a real server gets no demo users).
import type { Deps } from './deps.js';

export type FirstStartStep = (deps: Deps) => Promise<void>;

export const firstStartSteps: FirstStartStep[] = [];

export async function prepareEmbedded(deps: Deps): Promise<void> {
  if (!deps.config.embedded) return;
  for (const step of firstStartSteps) await step(deps);
}
