// What a feature module hands the composition root: its routes, and (embedded only) its first-start steps. Only the
// types live here, below the modules, so a module declaring its routes or a step closes no loop through the list of
// every module (features.ts) or through bootstrap.ts, which import them all.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from './deps.js';

/** A module's route plugin; app.ts registers them in the order of features.ts. */
export type FeatureRoutes = FastifyPluginAsyncTypebox<{ deps: Deps }>;

/** A step of the embedded first start (bootstrap.ts: resumable, each step idempotent). */
export interface FirstStartStep {
  name: string;
  /** Whether the database still lacks what the step makes (asked only before the step first starts). */
  isNeeded(deps: Deps): Promise<boolean>;
  /** Idempotent: running it again after a crash completes what the first run began. */
  run(deps: Deps): Promise<void>;
}
